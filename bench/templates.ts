// Template store benchmark on the whole corpus: full import time, unchanged re-import time, and search
// latency (median, p95) over a set of queries with facets, highlight and sorting, on PGlite and — when
// BENCH_DATABASE_URL (or DATABASE_URL, or TEST_DATABASE_URL) is set — on a PostgreSQL server.
//   npm run bench:templates            (TEMPLATES_DIR overrides the corpus folder; ROUNDS the repetitions;
//                                        ONLY=pglite|postgres one backend; VERBOSE=1 every query's median)
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { connect, quoteIdent, type Db } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { importCatalogue } from '../src/platform/templates/catalogue.ts';
import { searchTemplatesJson, type SearchParams } from '../src/platform/templates/search.ts';
import { loadFacetIndex } from '../src/platform/templates/facet-index.ts';
import { createTeamWithOwner } from '../src/platform/auth/service.ts';
import { figures, skipWithoutShared } from './figures.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpus = process.env.TEMPLATES_DIR ?? path.resolve(repoRoot, '../shared/corpus/nuclei-templates');
const rounds = Number(process.env.ROUNDS ?? 5);
const pgUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!process.env.TEMPLATES_DIR) skipWithoutShared('templates', corpus);
const out = figures('templates');

/** The query set: free text, filters, both, sorting, highlight, wide and narrow facets, paging. */
const QUERIES: SearchParams[] = [
  {},
  { q: 'wordpress' },
  { q: 'wordpress', highlight: true },
  { q: 'log4j rce', highlight: true, sort_desc: 'severity' },
  { q: 'severity:critical' },
  { q: 'severity:critical,high tags:cve', sort_desc: 'created_at' },
  { q: 'apache severity:high', highlight: true },
  { q: 'tags:panel -tags:tech', sort_asc: 'name' },
  { q: 'type:dns' },
  { q: 'cve:CVE-2021-44228' },
  { q: '44228' },
  { q: 'vendor:apache', facet_size: 20 },
  { q: 'sql injection', highlight: true, limit: 100 },
  { q: 'author:pdteam', sort_asc: 'id' },
  { q: 'dir:http is_new:true', offset: 100 },
  { q: 'jenkins', fields: 'id,name,severity' },
  { sort_desc: 'severity', facet_size: 10 },
  { q: 'xss', highlight: true, sort_desc: 'severity' },
  { q: 'exposure config', scope: 'public' },
  { q: 'microsoft exchange', scope: 'public_private', highlight: true },
];

async function openDb(kind: 'pglite' | 'postgres'): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === 'pglite') {
    const db = await connect({ dataDir: 'memory://' });
    await migrate(db);
    return { db, drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(5).toString('hex')}`;
  // Tagged connections, so the server processes serving this benchmark can be found for CPU accounting.
  const tagged = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}application_name=${schema}`;
  const db = await connect({ databaseUrl: tagged, schema, poolSize: 4 });
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      const c = new pg.Client({ connectionString: pgUrl });
      await c.connect();
      await c.query(`DROP SCHEMA ${quoteIdent(schema)} CASCADE`);
      await c.end();
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (n: number) => `${n.toFixed(1)} ms`;
/** The machine is shared: every figure is printed with the load it was measured under. */
const load = () =>
  `load ${loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${cpus().length} CPUs`;

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wall: number; cpu: number }> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  const value = await fn();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

/**
 * On-CPU nanoseconds so far of this process plus (PostgreSQL on this machine) the server processes of
 * the benchmark's connections. The machine is shared, so wall times include waiting for a CPU; CPU time
 * per search is what a search costs on an idle machine (an upper bound: the two queries of a search run
 * in parallel on PostgreSQL).
 */
async function cpuMeter(db: Db, kind: 'pglite' | 'postgres'): Promise<() => { client: number; server: number }> {
  let pids: number[] = [];
  if (kind === 'postgres') {
    const res = await db.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE application_name = current_setting('application_name')",
    );
    pids = res.rows.map((r) => r.pid);
  }
  const { readFileSync } = await import('node:fs');
  const server = () =>
    pids.reduce((sum, pid) => {
      try {
        return sum + Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        return sum;
      }
    }, 0);
  return () => {
    const c = process.cpuUsage();
    return { client: (c.user + c.system) * 1000, server: server() };
  };
}

async function run(kind: 'pglite' | 'postgres'): Promise<void> {
  const { db, drop } = await openDb(kind);
  try {
    const { teamId } = await createTeamWithOwner(db, 'bench@localhost', 'Bench');
    const full = await timed(() => importCatalogue(db, corpus));
    const s = full.value;
    console.log(
      `[${kind}] full import: ${s.templates} templates (${s.failed.length} rejected, ${s.skipped} other YAML) ` +
        `in ${(full.wall / 1000).toFixed(1)} s wall, ${(full.cpu / 1000).toFixed(1)} s CPU of this process (${load()})`,
    );
    out.set(`${kind}_import_s`, full.wall / 1000);
    const again = await timed(() => importCatalogue(db, corpus));
    console.log(
      `[${kind}] unchanged re-import: ${again.value.unchanged} unchanged in ${(again.wall / 1000).toFixed(1)} s wall`,
    );

    // Uncached: every search reads its page and computes its facets (from the process's facet copy, see
    // facet-index.ts; without it from the counts table without q, over the matching rows with q). Cached: the facet cache (keyed by the table's change counter) answers repeated queries with q;
    // the first round of each query fills it.
    // The process's facet copy (facet-index.ts) is loaded by the first search after the import, in the
    // background; loaded here so every mode measures it in place. uncached_nocopy: the database counts every
    // facet (the copy switched off), the baseline of the copy in the same run.
    // Every mode times the answer as the route sends it (JSON text): uncached_columns reads each page's
    // records from their columns and serializes them (VIGIL_TEMPLATE_RECORDS=off), the baseline of the
    // stored record texts (template_records) in the same run.
    await loadFacetIndex(db);
    for (const mode of ['uncached', 'uncached_columns', 'uncached_nocopy', 'cached'] as const) {
      process.env.VIGIL_FACET_CACHE = mode === 'cached' ? 'on' : 'off';
      process.env.VIGIL_FACET_INDEX = mode === 'uncached_nocopy' ? 'off' : 'on';
      process.env.VIGIL_TEMPLATE_RECORDS = mode === 'uncached_columns' ? 'off' : 'on';
      for (const q of QUERIES) await searchTemplatesJson(db, teamId, q); // warm plans (and the cache)
      const cpuNow = await cpuMeter(db, kind);
      const cpu: number[] = [];
      const serverCpu: number[] = [];
      const all: number[] = [];
      const perQuery = QUERIES.map(() => [] as number[]);
      const perQueryCpu = QUERIES.map(() => [] as number[]);
      for (let r = 0; r < rounds; r++) {
        for (const [i, q] of QUERIES.entries()) {
          const c0 = cpuNow();
          const t0 = performance.now();
          await searchTemplatesJson(db, teamId, q);
          const d = performance.now() - t0;
          const c1 = cpuNow();
          const spent = (c1.client - c0.client + c1.server - c0.server) / 1e6;
          cpu.push(spent);
          serverCpu.push((c1.server - c0.server) / 1e6);
          all.push(d);
          perQuery[i]!.push(d);
          perQueryCpu[i]!.push(spent);
        }
      }
      for (const list of [all, cpu, serverCpu]) list.sort((a, b) => a - b);
      const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
      console.log(
        `[${kind}] search ${mode}, ${QUERIES.length} queries x ${rounds} rounds (results + ten facets): ` +
          `wall median ${ms(pct(all, 50))}, p95 ${ms(pct(all, 95))}, max ${ms(all.at(-1)!)}; ` +
          `CPU per search median ${ms(pct(cpu, 50))}, p95 ${ms(pct(cpu, 95))}` +
          (kind === 'postgres'
            ? ` (of which server: median ${ms(pct(serverCpu, 50))}, p95 ${ms(pct(serverCpu, 95))})`
            : '') +
          ` (${load()})`,
      );
      out.set(`${kind}_search_${mode}_p95_ms`, pct(all, 95));
      const slowest = perQuery
        .map((v, i) => ({ q: QUERIES[i], med: median(v), cpu: median(perQueryCpu[i]!) }))
        .sort((a, b) => b.med - a.med)
        .slice(0, process.env.VERBOSE ? QUERIES.length : 3);
      for (const x of slowest)
        console.log(`[${kind}]   slowest ${mode}: ${JSON.stringify(x.q)} median ${ms(x.med)} wall, ${ms(x.cpu)} CPU`);
    }
    delete process.env.VIGIL_FACET_CACHE;
    delete process.env.VIGIL_FACET_INDEX;
    delete process.env.VIGIL_TEMPLATE_RECORDS;
  } finally {
    await drop();
  }
}

console.log(`corpus: ${corpus} (${load()})`);
// ONLY=postgres or ONLY=pglite runs one backend.
if (process.env.ONLY !== 'postgres') await run('pglite');
if (pgUrl && process.env.ONLY !== 'pglite') await run('postgres');
else {
  console.log('[postgres] skipped: set BENCH_DATABASE_URL (or DATABASE_URL) to a PostgreSQL server');
  out.skip('postgres: no DATABASE_URL');
}
out.print();
