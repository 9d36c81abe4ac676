// Intel benchmark: import time for ../shared/data/vuln (with the corpus templates of its CVEs in the template
// store), then lookup latency (median, p95) and throughput with 32 concurrent clients through the real HTTP
// server, and where the time of one lookup goes (auth queries, the record query, serialisation).
// Run: npm run bench:intel            (PGlite in memory)
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench npm run bench:intel   (a database the tests do not use)
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver } from 'node:perf_hooks';
import pino from 'pino';
import pg from 'pg';
import { Pool } from 'undici';
import { connect, quoteIdent } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildApp } from '../src/platform/app.ts';
import { configFromEnv } from '../src/platform/shared/config.ts';
import { authenticate, bootstrapOwner } from '../src/platform/auth/service.ts';
import { hashApiKey } from '../src/platform/auth/keys.ts';
import { findCallerByKeyHash } from '../src/platform/auth/store.ts';
import { importIntel } from '../src/platform/intel/importer.ts';
import { lookupJson } from '../src/platform/intel/service.ts';
import * as store from '../src/platform/intel/store.ts';
import { importCatalogue } from '../src/platform/templates/catalogue.ts';
import { figures, skipWithoutShared } from './figures.ts';
import { mainThreadSched, otherThreadsCpuMs } from './cpu.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = path.resolve(root, '../shared');
const corpus = path.join(shared, 'corpus/nuclei-templates');
skipWithoutShared('intel', path.join(shared, 'data/vuln'));
skipWithoutShared('intel', corpus);
const url = process.env.DATABASE_URL;
const schema = url ? `bench_intel_${process.pid}` : undefined;
const db = await connect(url ? { databaseUrl: url, schema, poolSize: 16 } : { dataDir: 'memory://' });
await migrate(db);
const f = (n: number) => n.toFixed(2);
const pct = (list: number[], p: number) =>
  [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))]!;
const stats = (list: number[]) =>
  `median ${f(pct(list, 0.5))} ms, p95 ${f(pct(list, 0.95))} ms${cpuPer.has(list) ? `, CPU ${f(cpuPer.get(list)!)} ms` : ''}`;
console.log(
  `load average at start: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
let t0 = performance.now();

// Zip streaming: a cvelistV5-like archive (the data's CVE records, 20 copies under different names) is read
// entry by entry, so memory does not grow with the archive's size.
const manifestAll: { cve: string; path: string }[] = JSON.parse(
  readFileSync(path.join(shared, 'data/vuln/cve5/MANIFEST.json'), 'utf8'),
);
const zipDir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-zip-'));
const zipFile = path.join(zipDir, 'cvelist.zip');
const COPIES = 20;
// Written by a child process, so this process's memory before reading is not inflated by writing it.
const writer = `
  import { Zip, ZipDeflate } from 'fflate';
  import { createWriteStream, readFileSync } from 'node:fs';
  import { once } from 'node:events';
  const [file, base, copies, paths] = JSON.parse(readFileSync(process.argv[1], 'utf8'));
  const out = createWriteStream(file);
  const zip = new Zip((err, chunk, final) => { if (err) throw err; out.write(chunk); if (final) out.end(); });
  let unpacked = 0;
  for (let k = 0; k < copies; k++) for (const p of paths) {
    const data = readFileSync(base + '/' + p);
    unpacked += data.length;
    const e = new ZipDeflate('cvelistV5-main/cves/' + k + '/' + p, { level: 1 });
    zip.add(e);
    e.push(data, true);
  }
  zip.end();
  await once(out, 'finish');
  console.log(unpacked);`;
writeFileSync(
  path.join(zipDir, 'args.json'),
  JSON.stringify([zipFile, path.join(shared, 'data/vuln/cve5'), COPIES, manifestAll.map((m) => m.path)]),
);
const unpacked = Number(
  execFileSync(process.execPath, ['--input-type=module', '-e', writer, path.join(zipDir, 'args.json')], {
    cwd: root,
    encoding: 'utf8',
  }),
);
// Read in a child process whose heap is capped well below the archive's unpacked size: it only finishes if
// reading does not hold the archive.
const HEAP_MB = 40;
const reader = `
  import { readSources } from './src/platform/intel/feeds/source.ts';
  let n = 0;
  for await (const d of readSources([process.argv[1]])) n++;
  console.log(n);`;
t0 = performance.now();
const zipDocs = Number(
  execFileSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', '--input-type=module', '-e', reader, zipFile],
    { cwd: root, encoding: 'utf8' },
  ),
);
const zipMs = performance.now() - t0;
const zipSize = statSync(zipFile).size;
rmSync(zipDir, { recursive: true, force: true });
const mb = (n: number) => `${(n / 1048576).toFixed(0)} MB`;
console.log(
  `zip read: ${zipDocs} entries, archive ${mb(zipSize)} (${mb(unpacked)} unpacked) in ${(zipMs / 1000).toFixed(1)} s by a process with a ${HEAP_MB} MB heap limit`,
);

// The template store gets the corpus templates of the data's CVEs (as `vigil templates import` would).
const cves = new Set(manifestAll.map((m) => m.cve));
const catalogue = mkdtempSync(path.join(tmpdir(), 'vigil-bench-catalogue-'));
for (const line of readFileSync(path.join(corpus, 'cves.json'), 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as { ID: string; file_path: string };
  if (!cves.has(row.ID)) continue;
  mkdirSync(path.dirname(path.join(catalogue, row.file_path)), { recursive: true });
  copyFileSync(path.join(corpus, row.file_path), path.join(catalogue, row.file_path));
}
t0 = performance.now();
const cat = await importCatalogue(db, catalogue);
const catalogueMs = performance.now() - t0;
rmSync(catalogue, { recursive: true, force: true });

t0 = performance.now();
const report = await importIntel(db, [path.join(shared, 'data/vuln')]);
const importMs = performance.now() - t0;
t0 = performance.now();
const again = await importIntel(db, [path.join(shared, 'data/vuln')]);
const reimportMs = performance.now() - t0;

const ids = (await db.query<{ cve_id: string }>('SELECT cve_id FROM intel_vulns ORDER BY cve_id')).rows.map(
  (r) => r.cve_id,
);
// 32 clients on one key exceed the default per-key API rate limit (HTTP 429): the app is configured as a
// deployment that turns the limit off would be, through its VIGIL_RATE_LIMIT option.
const app = await buildApp({
  db,
  config: { ...configFromEnv({ VIGIL_RATE_LIMIT: '0' }), dataDir: '/nonexistent' },
  log: pino({ level: 'silent' }),
});
const { apiKey } = await bootstrapOwner(db, 'bench@localhost');
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const client = new Pool(address, { connections: 32 });
const headers = { 'x-api-key': apiKey! };
const pick = (i: number) => ids[(i * 7919) % ids.length]!;

async function get(p: string, key = true): Promise<number> {
  const s = performance.now();
  const res = await client.request({ method: 'GET', path: p, headers: key ? headers : {} });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`${p}: HTTP ${res.statusCode}`);
  return performance.now() - s;
}
// Wall time of each call, and this process's CPU time per call (wall time on a loaded machine is mostly
// waiting for a core; CPU time says what the code itself costs).
const cpuPer = new Map<number[], number>();
async function timeEach(n: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const s = performance.now();
    await fn(i);
    out.push(performance.now() - s);
  }
  const used = process.cpuUsage(cpu);
  cpuPer.set(out, (used.user + used.system) / 1000 / n);
  return out;
}

const WARM = 100;
for (let i = 0; i < WARM; i++) await get(`/v2/vulnerability/${pick(i)}`); // warm-up
const N = 500;
// Per request of the one-client run, read outside its timing: the main thread's time on a core and its wait
// for one (Linux), so the slow requests can be told apart: slow code, or a busy machine.
const serialSched: { onCpu: number; waiting: number }[] = [];
const serial: number[] = [];
const serialAt: number[] = [];
let serialCpu = 0;
// What else ran meanwhile: GC pauses (PerformanceObserver, read after the run) and the CPU of V8's other
// threads (the optimising compiler, GC helpers), read only before and after the 500.
const gcPauses: { start: number; ms: number }[] = [];
const gcSeen = new PerformanceObserver((list) => {
  for (const e of list.getEntries()) gcPauses.push({ start: e.startTime, ms: e.duration });
});
gcSeen.observe({ entryTypes: ['gc'] });
const othersBefore = otherThreadsCpuMs();
for (let i = 0; i < N; i++) {
  const before = mainThreadSched();
  const cpu = process.cpuUsage();
  const s = performance.now();
  await get(`/v2/vulnerability/${pick(i)}`);
  serial.push(performance.now() - s);
  serialAt.push(s);
  const used = process.cpuUsage(cpu);
  serialCpu += used.user + used.system;
  const after = mainThreadSched();
  if (before && after) serialSched.push({ onCpu: after.onCpu - before.onCpu, waiting: after.waiting - before.waiting });
}
cpuPer.set(serial, serialCpu / 1000 / N);
const othersAfter = otherThreadsCpuMs();
await new Promise((r) => setImmediate(r)); // the observer's last entries
gcSeen.disconnect();
const serialEnd = serialAt[N - 1]! + serial[N - 1]!;
const windowGcs = gcPauses.filter((g) => g.start >= serialAt[0]! && g.start < serialEnd);
// Parts of one lookup, measured in this process one at a time.
const health = await timeEach(N, () => get('/healthz', false)); // HTTP + one trivial query, no auth
const small = await timeEach(N, (i) => get(`/v2/vulnerability/${pick(i)}?fields=cve_id`)); // no big body
const auth = await timeEach(N, () => authenticate(db, apiKey!, undefined));
// What authenticate() cost before callers were cached (and still costs on a miss): the key's query.
const authQuery = await timeEach(N, () => findCallerByKeyHash(db, hashApiKey(apiKey!), undefined));
const row = await timeEach(N, (i) => store.findJson(db, pick(i)));
const bodies = await Promise.all(ids.slice(0, N).map((id) => store.findJson(db, id)));
const build = await timeEach(N, async (i) => lookupJson(bodies[i % bodies.length]!, Date.now()));
const sizes = bodies.map((b) => b!.doc.length);

// The same parts with 32 at a time (no HTTP): which one bounds throughput.
async function rate(n: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let i = 0;
  const s = performance.now();
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (i < n) await fn(i++);
    }),
  );
  return Math.round(n / ((performance.now() - s) / 1000));
}
const authRate = await rate(2000, () => authenticate(db, apiKey!, undefined));
const readRate = await rate(2000, (i) => store.findJson(db, pick(i)));

const total = 4000;
let next = 0;
const concurrent: number[] = [];
t0 = performance.now();
await Promise.all(
  Array.from({ length: 32 }, async () => {
    while (next < total) concurrent.push(await get(`/v2/vulnerability/${pick(next++ * 13)}`));
  }),
);
const wall = performance.now() - t0;

console.log(
  `database: ${url ? 'PostgreSQL' : 'PGlite (memory)'}; records: ${report.records_total}, ${report.templates_linked} linked to a template`,
);
console.log(`template store import of those ${cat.templates} corpus templates: ${(catalogueMs / 1000).toFixed(1)} s`);
console.log(
  `intel import (cve5, KEV, VulnCheck KEV, PoCs, CWE, NVD, template links): ${(importMs / 1000).toFixed(1)} s; re-import with no changes: ${(reimportMs / 1000).toFixed(1)} s (${again.records_changed} records changed)`,
);
console.log(`record JSON size: median ${pct(sizes, 0.5)} B, max ${Math.max(...sizes)} B`);
console.log(`lookup, one client (${N} requests): ${stats(serial)}`);
// The warm-up read the records of the first WARM requests; the others are first reads (the record cache's
// misses: one database round trip each).
console.log(
  `  cached records (${WARM}): ${stats(serial.slice(0, WARM))}; first reads (${N - WARM}): ${stats(serial.slice(WARM))}`,
);
if (serialSched.length === N) {
  const slowest = serial
    .map((ms, i) => ({ ms, ...serialSched[i]! }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, Math.ceil(N * 0.05));
  const sum = (f: (r: (typeof slowest)[number]) => number) => slowest.reduce((a, r) => a + f(r), 0) / slowest.length;
  console.log(
    `  the slowest 5%: ${f(sum((r) => r.ms))} ms each on average, of which the main thread ran ${f(sum((r) => r.onCpu))} ms and waited for a core ${f(sum((r) => r.waiting))} ms`,
  );
}
{
  // A request overlapped a GC pause when the pause began within it.
  const slowIdx = serial
    .map((ms, i) => ({ ms, i }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, Math.ceil(N * 0.05));
  const hit = slowIdx.filter(({ i }) =>
    windowGcs.some((g) => g.start >= serialAt[i]! && g.start < serialAt[i]! + serial[i]!),
  ).length;
  const gcMs = windowGcs.reduce((a, g) => a + g.ms, 0);
  const longest = windowGcs.reduce((a, g) => Math.max(a, g.ms), 0);
  const others =
    othersBefore !== undefined && othersAfter !== undefined
      ? `V8's other threads (compiler, GC helpers) ran ${f(othersAfter - othersBefore)} ms; `
      : '';
  console.log(
    `  meanwhile: ${others}${windowGcs.length} GC pauses, ${f(gcMs)} ms in all (longest ${f(longest)} ms); ${hit} of the slowest 5% had one begin within them`,
  );
}
console.log('  parts, one at a time:');
console.log(`    GET /healthz (HTTP + SELECT 1, no auth)      ${stats(health)}`);
console.log(`    GET lookup ?fields=cve_id (tiny body)        ${stats(small)}`);
console.log(`    auth: authenticate() (cached caller)         ${stats(auth)}`);
console.log(`    auth query alone (a cache miss)              ${stats(authQuery)}`);
console.log(`    record query (one indexed read)              ${stats(row)}`);
console.log(`    response body (splice read-time fields)      ${stats(build)}`);
console.log(`  32 at a time without HTTP: authenticate() ${authRate}/s, record query ${readRate}/s`);
console.log(
  `lookup, 32 concurrent clients (${total} requests): ${Math.round(total / (wall / 1000))} req/s, ${stats(concurrent)}`,
);
console.log(
  `load average at end: ${loadavg()
    .map((l) => l.toFixed(2))
    .join(', ')}`,
);
const out = figures('intel');
out.set('import_s', importMs / 1000);
out.set('lookup_1_client_p95_ms', pct(serial, 0.95));
out.set('lookup_32_clients_req_s', total / (wall / 1000));
out.set('lookup_32_clients_p95_ms', pct(concurrent, 0.95));
out.print();

await client.close();
await app.close();
await db.close();
if (url && schema) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  await c.end();
}
