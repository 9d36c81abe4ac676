// Intel benchmark: import time for ../shared/data/vuln (+ the template corpus), then lookup latency
// (median, p95) and throughput with 32 concurrent clients through the real HTTP server.
// Run: npm run bench:intel            (PGlite in memory)
//      DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench:intel
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { Pool } from 'undici';
import { connect, quoteIdent } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildApp } from '../src/platform/app.ts';
import { configFromEnv } from '../src/platform/config.ts';
import { bootstrapOwner } from '../src/platform/auth/service.ts';
import { importIntel } from '../src/platform/intel/importer.ts';
import pg from 'pg';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const shared = path.resolve(root, '../shared');
const url = process.env.DATABASE_URL;
const schema = url ? `bench_intel_${process.pid}` : undefined;
const db = await connect(url ? { databaseUrl: url, schema, poolSize: 16 } : { dataDir: 'memory://' });
await migrate(db);

let t0 = performance.now();
const report = await importIntel(db, [path.join(shared, 'data/vuln')], { templatesDir: path.join(shared, 'corpus/nuclei-templates') });
const importMs = performance.now() - t0;
t0 = performance.now();
const again = await importIntel(db, [path.join(shared, 'data/vuln')], { templatesDir: path.join(shared, 'corpus/nuclei-templates') });
const reimportMs = performance.now() - t0;

const ids = (await db.query<{ cve_id: string }>('SELECT cve_id FROM intel_vulns ORDER BY cve_id')).rows.map((r) => r.cve_id);
const app = await buildApp({ db, config: { ...configFromEnv({}), dataDir: '/nonexistent' }, log: pino({ level: 'silent' }) });
const { apiKey } = await bootstrapOwner(db, 'bench@localhost');
const address = await app.listen({ host: '127.0.0.1', port: 0 });
const client = new Pool(address, { connections: 32 });
const headers = { 'x-api-key': apiKey! };

async function lookup(id: string): Promise<number> {
  const s = performance.now();
  const res = await client.request({ method: 'GET', path: `/v2/vulnerability/${id}`, headers });
  await res.body.arrayBuffer();
  if (res.statusCode !== 200) throw new Error(`${id}: HTTP ${res.statusCode}`);
  return performance.now() - s;
}
const pct = (list: number[], p: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(list.length * p))]!;

for (const id of ids.slice(0, 50)) await lookup(id); // warm-up
const serial: number[] = [];
for (let i = 0; i < 500; i++) serial.push(await lookup(ids[(i * 7919) % ids.length]!));

const total = 4000;
let next = 0;
const concurrent: number[] = [];
t0 = performance.now();
await Promise.all(Array.from({ length: 32 }, async () => {
  while (next < total) concurrent.push(await lookup(ids[(next++ * 104729) % ids.length]!));
}));
const wall = performance.now() - t0;

const f = (n: number) => n.toFixed(2);
console.log(`database: ${url ? 'PostgreSQL' : 'PGlite (memory)'}; records: ${report.records_total}`);
console.log(`import (cve5, KEV, VulnCheck KEV, PoCs, CWE, NVD, templates): ${(importMs / 1000).toFixed(1)} s; re-import with no changes: ${(reimportMs / 1000).toFixed(1)} s (${again.records_changed} records changed)`);
console.log(`lookup, one client (500 requests): median ${f(pct(serial, 0.5))} ms, p95 ${f(pct(serial, 0.95))} ms`);
console.log(`lookup, 32 concurrent clients (${total} requests): ${Math.round(total / (wall / 1000))} req/s, median ${f(pct(concurrent, 0.5))} ms, p95 ${f(pct(concurrent, 0.95))} ms`);

await client.close();
await app.close();
await db.close();
if (url && schema) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
  await c.end();
}
