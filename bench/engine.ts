// Engine benchmark (npx tsx bench/engine.ts, or npm run bench:engine). Prints figures, asserts nothing.
// 1. Loading the whole template corpus through the loader: time and peak RSS (goal < 5 s, < 500 MB).
// 2. Scan throughput: 200 simple templates x many paths against a keep-alive server in a child
//    process, no rate limit, beside a plain undici loop sending the same requests with the same
//    concurrency in the same run (goal: scan / baseline >= 0.8); and the scan's peak RSS.
// 3. and 4. Clustering: requests (http/), queries (dns/) and handshakes (ssl/) of the corpus's folders
//    against local servers, with and without clustering in the same run (BENCH_SKIP_CLUSTER=1 skips them,
//    BENCH_ONLY_CLUSTER=1 runs only them).
// BENCH_EGRESS=1: the scan runs under the platform's deny list (every connection through the connect guard).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { loadTemplates, parseTemplate } from '../src/engine/template/index.ts';
import { runScan, closeClients } from '../src/engine/runner.ts';
import type { Template } from '../src/engine/template/types.ts';
import { describe, loadAverage, measure } from './cpu.ts';
import { scanEgress } from '../src/platform/shared/deny.ts';
import { figures } from './figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = path.resolve(repoRoot, '../shared/corpus/nuclei-templates');
// Without ../shared (not part of a clone) the corpus parts are skipped; the scan part needs nothing.
const haveCorpus = existsSync(corpus);
const out = figures('engine');
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 200);
const PATHS = Number(process.env.BENCH_PATHS ?? 10);
const CONCURRENCY = 25;
const cpuPerRequest = { baseline: [] as number[], scan: [] as number[] };
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
const EGRESS = process.env.BENCH_EGRESS
  ? scanEgress({ port: 8085, host: '127.0.0.1', denyTargets: [], allowDeniedTargets: false })
  : undefined;

/**
 * Samples RSS every 20 ms; returns the highest value seen. memoryUsage.rss() reads one number; the full
 * memoryUsage() walks the heap spaces and cost the scan side ~10 µs per request in this bench.
 */
function rssSampler(): { stop(): number } {
  let peak = process.memoryUsage.rss();
  const t = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 20);
  return {
    stop: () => {
      clearInterval(t);
      return Math.max(peak, process.memoryUsage.rss());
    },
  };
}

async function benchLoader(): Promise<void> {
  const sampler = rssSampler();
  // The first load in a fresh process: cold JIT, as for `vigil scan` or a server start.
  const m = await measure(() => loadTemplates([corpus]));
  const peak = sampler.stop();
  const r = m.value;
  console.log(
    `loader: ${r.files} files, ${r.templates.length} templates, ${r.invalid} invalid, ${r.skipped.length} not templates`,
  );
  console.log(
    `loader: ${describe(m)}, peak RSS ${mb(peak)} (goal < 5 s, < 500 MB; on a busy machine read the CPU figure)`,
  );
  out.set('loader_s', m.wall / 1000);
  out.set('loader_peak_rss_mb', peak / 1024 / 1024);
}

const SERVER = `
const http = require('node:http');
const body = Buffer.from('<html><body>vigil bench page ok</body></html>');
const s = http.createServer({ keepAliveTimeout: 30000 }, (req, res) => { res.setHeader('Content-Type', 'text/html'); res.end(body); });
s.listen(0, '127.0.0.1', () => process.send(s.address().port));
`;

async function startServer(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function benchTemplates(): Template[] {
  const out: Template[] = [];
  for (let i = 0; i < TEMPLATES; i++) {
    const paths = Array.from({ length: PATHS }, (_, j) => `      - "{{BaseURL}}/t${i}/p${j}"`).join('\n');
    // Like a real scan, few templates match: one in fifty looks for text the page has.
    const word = i % 50 === 0 ? 'bench page ok' : `not-on-the-page-${i}`;
    const text = `id: bench-${i}\ninfo:\n  name: bench ${i}\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path:\n${paths}\n    matchers-condition: and\n    matchers:\n      - type: word\n        words:\n          - "${word}"\n      - type: status\n        status:\n          - 200\n`;
    const r = parseTemplate(text, `bench-${i}.yaml`);
    if (!r.template) throw new Error(JSON.stringify(r.issues));
    out.push(r.template);
  }
  return out;
}

async function baseline(url: string, total: number): Promise<number> {
  const cpu = process.cpuUsage();
  const agent = new Agent({ keepAliveTimeout: 10_000, connections: 64, connect: { rejectUnauthorized: false } });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const n = next++;
        const i = Math.floor(n / PATHS);
        const res = await agent.request({
          origin: url,
          path: `/t${i}/p${n % PATHS}`,
          method: 'GET',
          headers: { 'user-agent': 'bench' },
        });
        const text = await res.body.text();
        if (!text.includes('bench page ok')) throw new Error('unexpected body');
      }
    }),
  );
  const secs = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  cpuPerRequest.baseline.push((used.user + used.system) / total);
  await agent.close();
  return total / secs;
}

async function scan(url: string, templates: Template[]): Promise<{ rps: number; results: number; peak: number }> {
  const sampler = rssSampler();
  const cpu = process.cpuUsage();
  let results = 0;
  const started = performance.now();
  // Each template sends its paths one after another, so template concurrency is the request concurrency.
  const stats = await runScan({
    targets: [url],
    templates,
    rateLimit: 0,
    concurrency: CONCURRENCY,
    bulkSize: CONCURRENCY,
    egress: EGRESS,
    onResult: () => {
      results++;
    },
  });
  const secs = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  cpuPerRequest.scan.push((used.user + used.system) / Math.max(1, stats.requests));
  return { rps: stats.requests / secs, results, peak: sampler.stop() };
}

async function main(): Promise<void> {
  console.log(`load average: ${loadAverage()} (1, 5, 15 min)`);
  if (!haveCorpus) {
    console.log(`loader: skipped, ${corpus} is absent (../shared is not part of a clone)`);
    out.skip('loader and clustering: ../shared absent');
  } else if (!process.env.BENCH_SKIP_LOADER) await benchLoader();
  const server = await startServer();
  try {
    const templates = benchTemplates();
    const total = TEMPLATES * PATHS;
    console.log(
      `scan: ${TEMPLATES} templates x ${PATHS} paths = ${total} requests per round, concurrency ${CONCURRENCY}, no rate limit, 1 in 50 templates matching${EGRESS ? ', under the platform deny list' : ''}`,
    );
    // Warm both paths once, then alternate so neither side gets a warmer machine.
    // JIT warm-up matters a lot on a busy machine: two full rounds each before measuring.
    for (let w = 0; w < 2; w++) {
      await baseline(server.url, total);
      await scan(server.url, templates);
    }
    cpuPerRequest.baseline.length = 0;
    cpuPerRequest.scan.length = 0;
    const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
    const base: number[] = [];
    const ours: number[] = [];
    let peak = 0;
    for (let r = 0; r < rounds; r++) {
      base.push(await baseline(server.url, total));
      const s = await scan(server.url, templates);
      const expected = Math.ceil(TEMPLATES / 50) * PATHS;
      if (s.results !== expected) console.log(`warning: ${s.results} results, expected ${expected}`);
      ours.push(s.rps);
      peak = Math.max(peak, s.peak);
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const b = median(base);
    const o = median(ours);
    console.log(`baseline undici loop: ${b.toFixed(0)} req/s (rounds: ${base.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`vigil scan:           ${o.toFixed(0)} req/s (rounds: ${ours.map((x) => x.toFixed(0)).join(', ')})`);
    console.log(`ratio scan/baseline:  ${(o / b).toFixed(2)} (goal >= 0.8)`);
    console.log(`scan peak RSS:        ${mb(peak)}`);
    out.set('scan_req_s', o);
    out.set('scan_baseline_ratio', o / b);
    out.set('scan_peak_rss_mb', peak / 1024 / 1024);
    const cb = median(cpuPerRequest.baseline);
    const cs = median(cpuPerRequest.scan);
    console.log(
      `CPU per request (µs, this process, median): baseline ${cb.toFixed(0)}, scan ${cs.toFixed(0)} (ratio ${(cb / cs).toFixed(2)})`,
    );
    console.log(`load average: ${loadAverage()}`);
  } finally {
    await closeClients();
    server.stop();
  }
}

/**
 * 3. Clustering: the whole http/ folder of the corpus against one local server, once with clustering and
 * once without (same run, same server), counting the requests the server receives and the wall time.
 */
async function benchClustering(): Promise<void> {
  const http = path.join(corpus, 'http');
  const loaded = await loadTemplates([http], { excludeTags: ['osint', 'intrusive', 'dos', 'fuzz'] });
  const templates = loaded.templates.filter((t) => !t.selfContained);
  const server = await startServer();
  try {
    const counts: Record<string, { requests: number; ms: number; results: number }> = {};
    for (const cluster of [true, false]) {
      const started = performance.now();
      let results = 0;
      const stats = await runScan({
        targets: [server.url],
        templates,
        rateLimit: 0,
        concurrency: 50,
        timeout: 3,
        retries: 0,
        cluster,
        onResult: (e) => {
          if (e['matcher-status']) results++;
        },
      });
      counts[cluster ? 'on' : 'off'] = { requests: stats.requests, ms: performance.now() - started, results };
    }
    const on = counts.on!;
    const off = counts.off!;
    out.set('clustering_http_requests_saved', off.requests - on.requests);
    console.log(
      `clustering: ${templates.length} templates of http/ against one host: ${off.requests} requests without, ${on.requests} with ` +
        `(${off.requests - on.requests} saved); wall ${(off.ms / 1000).toFixed(1)} s without, ${(on.ms / 1000).toFixed(1)} s with; ` +
        `results ${off.results} without, ${on.results} with`,
    );
  } finally {
    await closeClients();
    server.stop();
  }
}

/**
 * 4. dns and ssl clustering: the corpus's dns/ and ssl/ folders against a local DNS server (one name) and a
 * local TLS server, once with clustering and once without, counting the queries and handshakes received.
 */
async function benchDnsSslClustering(): Promise<void> {
  const { startDnsServer } = await import('../test/helpers/dns-server.ts');
  const { makeCert } = await import('../test/helpers/certs.ts');
  const tls = await import('node:tls');
  const dnsTemplates = (await loadTemplates([path.join(corpus, 'dns')])).templates;
  const sslTemplates = (await loadTemplates([path.join(corpus, 'ssl')])).templates;
  const dns = await startDnsServer({
    records: {
      'vigil.test': [
        { type: 'A', data: '192.0.2.10' },
        { type: 'TXT', data: ['v=spf1 -all'] },
        { type: 'NS', data: 'ns1.vigil.test' },
        { type: 'MX', data: { preference: 10, exchange: 'mx1.vigil.test' } },
      ],
    },
  });
  const pem = makeCert({ subject: '/CN=localhost', dns: ['localhost'] });
  let handshakes = 0;
  const srv = tls.createServer({ key: pem.key, cert: pem.cert }, (sock) => sock.end());
  srv.on('connection', () => {
    handshakes++;
  });
  srv.on('tlsClientError', () => {});
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const tlsTarget = `localhost:${(srv.address() as { port: number }).port}`;
  try {
    for (const [label, templates, target, received] of [
      ['dns/', dnsTemplates, 'vigil.test', () => dns.queries.length],
      ['ssl/', sslTemplates, tlsTarget, () => handshakes],
    ] as const) {
      const counts: Record<string, { sent: number; ms: number; results: number }> = {};
      for (const cluster of [true, false]) {
        const before = received();
        const started = performance.now();
        let results = 0;
        await runScan({
          targets: [target],
          templates: [...templates],
          rateLimit: 0,
          concurrency: 25,
          timeout: 3,
          retries: 0,
          cluster,
          resolvers: [dns.resolver],
          onResult: (e) => {
            if (e['matcher-status']) results++;
          },
        });
        counts[cluster ? 'on' : 'off'] = { sent: received() - before, ms: performance.now() - started, results };
      }
      const on = counts.on!;
      const off = counts.off!;
      const unit = label === 'dns/' ? 'queries' : 'handshakes';
      console.log(
        `clustering ${label}: ${templates.length} templates against one local ${label === 'dns/' ? 'DNS server (one name)' : 'TLS server'}: ` +
          `${off.sent} ${unit} without, ${on.sent} with (${off.sent - on.sent} saved); wall ${(off.ms / 1000).toFixed(2)} s without, ` +
          `${(on.ms / 1000).toFixed(2)} s with; results ${off.results} without, ${on.results} with`,
      );
    }
  } finally {
    await dns.close();
    srv.close();
  }
}

if (!process.env.BENCH_ONLY_CLUSTER) await main();
if (!process.env.BENCH_SKIP_CLUSTER && haveCorpus) {
  await benchDnsSslClustering();
  await benchClustering();
}
out.print();
