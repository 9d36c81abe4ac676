// Discovery benchmark (npm run bench:discovery). Prints figures, asserts nothing.
// 1. Ports scanned per second on 127.0.0.1 by port_scan (scanPorts: the shared throttle, progress, result
//    map) beside a plain net.connect loop with the same concurrency in the same run, and their ratio.
// 2. HTTP probes per second (http_probe: GET /, title, favicon fetch and hash) against a local server in a
//    child process, so the server does not share this process's event loop.
// 3. Inventory: a run of BENCH_ASSETS assets stored (first run: all new) and compared (second run: every
//    title changed, one change event each), assets per second, on PGlite or DATABASE_URL.
import { fork } from 'node:child_process';
import net from 'node:net';
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scanPorts } from '../src/discovery/ports.ts';
import { probeHttp } from '../src/discovery/http-probe.ts';
import { Throttle } from '../src/discovery/pool.ts';
import { figures } from './figures.ts';

const out = figures('discovery');

const PORTS = Number(process.env.BENCH_PORTS ?? 20_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const PROBES = Number(process.env.BENCH_PROBES ?? 2_000);
const START = Number(process.env.BENCH_PORT_START ?? 30_000);

function plainOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => {
      s.destroy();
      resolve(false);
    });
  });
}

async function plainLoop(ports: number[]): Promise<number> {
  let i = 0;
  let open = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (i < ports.length) if (await plainOpen(ports[i++]!)) open++;
    }),
  );
  return open;
}

const SERVER = `
const http = require('node:http');
const page = Buffer.from('<html><head><title>bench</title><link rel="icon" href="/favicon.ico"></head><body>ok</body></html>');
const icon = Buffer.alloc(1150, 7);
const s = http.createServer((req, res) => { res.setHeader('Server', 'bench/1.0'); res.end(req.url === '/favicon.ico' ? icon : page); });
s.listen(0, '127.0.0.1', () => process.send(s.address().port));
`;

async function main() {
  // A few listening ports inside the range, so both loops find the same open ports.
  const listeners: net.Server[] = [];
  for (let k = 0; k < 5; k++) {
    const srv = net.createServer((c) => c.destroy());
    await new Promise<void>((r) => srv.listen(START + k * 997, '127.0.0.1', r)).catch(() => {});
    listeners.push(srv);
  }
  const ports = Array.from({ length: PORTS }, (_, k) => START + k).filter((p) => p <= 65535);

  // Warm-up, then alternate the two to share any machine noise.
  await plainLoop(ports.slice(0, 500));
  const rounds: { ours: number; plain: number }[] = [];
  let foundOurs = 0;
  let foundPlain = 0;
  for (let r = 0; r < 2; r++) {
    let t0 = performance.now();
    const open = await scanPorts(
      new Throttle({ concurrency: CONCURRENCY, rateLimit: 0, timeoutMs: 2000 }),
      ['127.0.0.1'],
      ports,
      () => {},
    );
    const ours = ports.length / ((performance.now() - t0) / 1000);
    foundOurs = open.get('127.0.0.1')?.length ?? 0;
    t0 = performance.now();
    foundPlain = await plainLoop(ports);
    const plain = ports.length / ((performance.now() - t0) / 1000);
    rounds.push({ ours, plain });
  }
  const best = (k: 'ours' | 'plain') => Math.max(...rounds.map((x) => x[k]));
  console.log(`port_scan: ${ports.length} ports on 127.0.0.1, concurrency ${CONCURRENCY}`);
  console.log(`  discovery scanPorts : ${best('ours').toFixed(0)} ports/s (open found: ${foundOurs})`);
  console.log(`  plain net.connect   : ${best('plain').toFixed(0)} ports/s (open found: ${foundPlain})`);
  console.log(`  ratio               : ${(best('ours') / best('plain')).toFixed(2)} (goal >= 0.8)`);
  out.set('port_scan_ports_s', best('ours'));
  out.set('port_scan_plain_ratio', best('ours') / best('plain'));
  for (const l of listeners) l.close();

  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-'));
  const file = path.join(dir, 'server.cjs');
  writeFileSync(file, SERVER);
  const child = fork(file, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((r) => child.once('message', (m) => r(Number(m))));
  try {
    const opts = { timeoutMs: 5000, followRedirects: true, lookup: async () => '127.0.0.1' };
    const throttle = new Throttle({ concurrency: 50, rateLimit: 0, timeoutMs: 5000 });
    await throttle.each(Array.from({ length: 100 }), async () => {
      await probeHttp('127.0.0.1', '127.0.0.1', port, opts);
    });
    let ok = 0;
    const t0 = performance.now();
    await throttle.each(Array.from({ length: PROBES }), async () => {
      const info = await probeHttp('127.0.0.1', '127.0.0.1', port, opts);
      if (info?.title === 'bench' && info.favicon) ok++;
    });
    const rate = PROBES / ((performance.now() - t0) / 1000);
    console.log(
      `http_probe: ${PROBES} probes (GET / + favicon, concurrency 50): ${rate.toFixed(0)} probes/s, ${ok} complete`,
    );
    out.set('http_probe_s', rate);
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function inventory() {
  const { connect } = await import('../src/db/connection.ts');
  const { migrate } = await import('../src/db/migrate.ts');
  const store = await import('../src/platform/assets/store.ts');
  const { storeRun, factsOf } = await import('../src/platform/assets/run.ts');
  const auth = await import('../src/platform/auth/store.ts');
  const N = Number(process.env.BENCH_ASSETS ?? 5000);
  const url = process.env.DATABASE_URL;
  const schema = `bench_${Date.now().toString(36)}`;
  const db = await connect(url ? { databaseUrl: url, schema } : { dataDir: 'memory://' });
  try {
    await migrate(db);
    await auth.insertTeam(db, 'bench', 'Bench');
    await store.insertEnumeration(db, {
      id: 'bench',
      teamId: 'bench',
      name: 'bench',
      createdBy: null,
      rootDomains: ['bench.test'],
      steps: [],
      ports: null,
      config: {},
      exclusions: [],
      alertingConfigIds: [],
      automaticVulnScans: false,
    });
    const found = Array.from({ length: N }, (_, i) => ({
      host: `h${i}.bench.test`,
      port: 443,
      ip: [`10.0.${(i >> 8) & 255}.${i & 255}`],
      cname: [],
      sources: ['root'],
      http: {
        url: `https://h${i}.bench.test/`,
        scheme: 'https' as const,
        status_code: 200,
        title: 'first',
        webserver: 'nginx',
        content_length: 10,
        technologies: ['nginx'],
        favicon: '',
        chain_status_codes: [200],
        chain: [],
        redirect_location: '',
        tls_names: [],
      },
    }));
    const row = (await store.getEnumeration(db, null, 'bench'))!;
    for (const [run, label] of [
      [1, 'first run (all new)'],
      [2, 'second run (all changed)'],
    ] as const) {
      if (run === 2) for (const f of found) f.http.title = 'second';
      const t0 = performance.now();
      // As a run does: staged in batches, then stored in one transaction.
      const attempt = `bench-${run}`;
      for (let i = 0; i < found.length; i += 500)
        await store.stageFound(db, 'bench', run, attempt, found.slice(i, i + 500).map(factsOf));
      await db.transaction((tx) => storeRun(tx, row, run, attempt));
      const s = (performance.now() - t0) / 1000;
      console.log(
        `inventory ${label}: ${N} assets in ${s.toFixed(1)} s, ${(N / s).toFixed(0)} assets/s (${url ? 'PostgreSQL' : 'PGlite'})`,
      );
      out.set(run === 1 ? 'inventory_new_assets_s' : 'inventory_changed_assets_s', N / s);
    }
  } finally {
    if (url) await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => {});
    await db.close();
  }
}

await main();
await inventory();
out.print();
