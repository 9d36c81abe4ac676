// Scans benchmark (npm run bench:scans). Prints figures, asserts nothing.
// 1. Throughput of a platform scan (BENCH_TARGETS local targets x BENCH_TEMPLATES templates, chunks run by
//    the in-process worker, findings and scan logs stored) beside the engine that `vigil scan` runs, on the
//    same work in the same process, no rate limit on either (goal: platform / engine >= 0.9). The platform
//    scan runs as `vigil serve` runs it (engine threads) and as a `vigil worker` process does (no threads).
// 2. Storing a scan's findings (as its chunks store them) on the first scan of the targets and after
//    BENCH_RESCANS earlier scans of the same targets: PostgreSQL's CPU should not grow with them.
// 3. GET /v1/scans latency with BENCH_SCANS scans stored (goal: p95 < 50 ms on PostgreSQL).
// Uses DATABASE_URL (a fresh schema, dropped at the end) when set, else an in-memory PGlite.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { connect, type Db } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { startQueue, queueSchemaFor } from '../src/db/queue.ts';
import { buildApp } from '../src/platform/app.ts';
import { configFromEnv } from '../src/platform/shared/config.ts';
import type { AppContext } from '../src/platform/shared/context.ts';
import { bootstrapOwner } from '../src/platform/auth/service.ts';
import { getJobHandler } from '../src/platform/worker/registry.ts';
import { startWorker } from '../src/platform/worker/runtime.ts';
import '../src/platform/scans/jobs.ts';
import { SCAN_CHUNK_JOB } from '../src/platform/scans/dispatch.ts';
import { closeEngineThreads, useEngineThreads } from '../src/platform/scans/engine-pool.ts';
import { parseTemplate } from '../src/engine/template/parse.ts';
import { runScan, closeClients } from '../src/engine/runner.ts';
import { insertFindings } from '../src/platform/scans/store.ts';
import { toFindingRow, type ResultEvent } from '../src/platform/scans/findings.ts';
import { figures } from './figures.ts';
import { cpuMs, loadAverage, mainThreadCpuMs } from './cpu.ts';
import { readFileSync } from 'node:fs';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 1000);
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 50);
const SCANS = Number(process.env.BENCH_SCANS ?? 100_000);
const LOG_ROWS = Number(process.env.BENCH_LOG_ROWS ?? 200_000);
const RESCANS = Number(process.env.BENCH_RESCANS ?? 20);
const CONCURRENCY = 25;
const out = figures('scans');
// The platform's scans run without a rate limit here, like the engine run beside them.
process.env.VIGIL_SCAN_RATE_LIMIT = '0';
process.env.VIGIL_SCAN_CONCURRENCY = String(CONCURRENCY);
process.env.VIGIL_SCAN_BULK_SIZE = String(CONCURRENCY);

const SERVER = `
const http = require('node:http');
const body = Buffer.from('<html><body>vigil bench page ok</body></html>');
const s = http.createServer({ keepAliveTimeout: 30000 }, (req, res) => { res.setHeader('Content-Type', 'text/html'); res.end(body); });
s.listen(0, '127.0.0.1', () => process.send(s.address().port));
`;

async function startServer(): Promise<{ url: string; pid: number; stop(): void }> {
  const child = fork('-e', [SERVER], { execArgv: ['-e', SERVER], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => child.kill() };
}

/** User + system CPU ms of a process of this machine (every thread), from /proc; 0 when unreadable. */
function procCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 1/100 s
  } catch {
    return 0;
  }
}

/**
 * CPU of each side of a run: this process (engine, worker, API), the target server, and the PostgreSQL
 * backends serving this database (read from /proc, so only when the server runs on this machine). A
 * backend that started during the run counts whole; one that ended during it is not counted.
 */
interface SideCpu {
  bench: number;
  /** The bench process's main thread: the engine for `vigil scan`; the API and the writes for `vigil serve`. */
  main: number;
  target: number;
  pg: Map<number, number>;
}

async function sideCpu(db: Db, targetPid: number): Promise<SideCpu> {
  const pg = new Map<number, number>();
  if (db.kind === 'postgres') {
    const { rows } = await db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = current_database()',
    );
    for (const r of rows) pg.set(r.pid, procCpuMs(r.pid));
  }
  return { bench: cpuMs(), main: mainThreadCpuMs() ?? 0, target: procCpuMs(targetPid), pg };
}

function cpuSpent(a: SideCpu, b: SideCpu): { bench: number; main: number; target: number; pg: number } {
  let pg = 0;
  for (const [pid, ms] of b.pg) pg += ms - (a.pg.get(pid) ?? 0);
  return {
    bench: (b.bench - a.bench) / 1000,
    main: (b.main - a.main) / 1000,
    target: (b.target - a.target) / 1000,
    pg: pg / 1000,
  };
}

/** One request each; one template in ten matches, so findings are stored too. */
function templateTexts(): { name: string; contents: string }[] {
  return Array.from({ length: TEMPLATES }, (_, i) => ({
    name: `bench-${i}.yaml`,
    contents: `id: bench-${i}\ninfo:\n  name: bench ${i}\n  author: vigil\n  severity: ${i % 10 === 0 ? 'medium' : 'info'}\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/b${i}"\n    matchers:\n      - type: word\n        words:\n          - "${i % 10 === 0 ? 'bench page ok' : 'never-in-the-page'}"\n`,
  }));
}

async function openDb(): Promise<{ db: Db; url?: string; schema?: string; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await connect({ dataDir: 'memory://' });
    return { db, drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const db = await connect({ databaseUrl: url, schema, poolSize: 10 });
  return {
    db,
    url,
    schema,
    async drop() {
      await db.close();
      const admin = await connect({ databaseUrl: url });
      await admin.exec(
        `DROP SCHEMA IF EXISTS ${schema} CASCADE; DROP SCHEMA IF EXISTS ${queueSchemaFor(schema)} CASCADE`,
      );
      await admin.close();
    },
  };
}

async function engineRun(
  targets: string[],
  texts: { name: string; contents: string }[],
  events?: ResultEvent[],
): Promise<{ rate: number; results: number }> {
  const templates = texts.map((t) => parseTemplate(t.contents, t.name).template!);
  let results = 0;
  const started = performance.now();
  const stats = await runScan({
    targets,
    templates,
    rateLimit: 0,
    concurrency: CONCURRENCY,
    bulkSize: CONCURRENCY,
    onResult: (ev) => {
      results++;
      events?.push(ev as unknown as ResultEvent);
    },
  });
  return { rate: stats.done / ((performance.now() - started) / 1000), results };
}

async function platformRun(
  ctx: AppContext,
  app: Awaited<ReturnType<typeof buildApp>>,
  key: string,
  targets: string[],
  texts: { name: string; contents: string }[],
) {
  const started = performance.now();
  const res = await app.inject({
    method: 'POST',
    url: '/v1/scans',
    headers: { 'x-api-key': key },
    payload: { targets, private_templates: texts },
  });
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.body}`);
  const id = res.json().id as string;
  for (;;) {
    const { rows } = await ctx.db.query<{ status: string; total_result: number; failure_reason: string | null }>(
      'SELECT status, total_result, failure_reason FROM scans WHERE id = $1',
      [id],
    );
    const s = rows[0]!;
    if (s.status === 'failed') throw new Error(`platform scan failed: ${s.failure_reason}`);
    if (s.status === 'finished') {
      const secs = (performance.now() - started) / 1000;
      // Records of both tables (a batch row counts its records without expanding them).
      const logs = await ctx.db.query<{ n: number }>(
        `SELECT ((SELECT count(*) FROM scan_logs WHERE scan_id = $1)
           + (SELECT COALESCE(sum(n), 0) FROM scan_log_batches WHERE scan_id = $1))::int AS n`,
        [id],
      );
      // Where the wall time went: before the first chunk started, chunks running, after the last ended.
      const t = await ctx.db.query<{ before: number; running: number; after: number }>(
        `SELECT extract(epoch FROM min(c.started_at) - s.created_at)::float8 AS before,
                extract(epoch FROM max(c.finished_at) - min(c.started_at))::float8 AS running,
                extract(epoch FROM clock_timestamp() - max(c.finished_at))::float8 AS after
         FROM scans s JOIN scan_chunks c ON c.scan_id = s.id WHERE s.id = $1 GROUP BY s.created_at`,
        [id],
      );
      const tl = t.rows[0]!;
      const phases = `first chunk after ${tl.before.toFixed(2)} s, chunks ${tl.running.toFixed(2)} s, seen finished ${tl.after.toFixed(2)} s after`;
      return { rate: logs.rows[0]!.n / secs, results: s.total_result, phases };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function listLatency(ctx: AppContext, app: Awaited<ReturnType<typeof buildApp>>, key: string, teamId: string) {
  const t0 = performance.now();
  // Bulk rows straight in SQL: the list endpoint is what is measured, not creation.
  for (let done = 0; done < SCANS; done += 20_000) {
    const n = Math.min(20_000, SCANS - done);
    await ctx.db.query(
      `INSERT INTO scans (id, team_id, name, status, created_at, updated_at, total_target, total_template, total_scan, total_result, severity, progress)
       SELECT md5(random()::text || g::text), $1, 'bench scan ' || (g + $2), (ARRAY['finished','failed','queued','running'])[1 + g % 4],
              now() - make_interval(secs => g + $2), now(), 10, 5, 50, g % 7, '{"info": 3, "high": 1}'::jsonb, 100
       FROM generate_series(1, $3) AS g`,
      [teamId, done, n],
    );
  }
  await ctx.db.exec('ANALYZE scans');
  console.log(`list: ${SCANS} scans stored in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  // Reference: an authenticated endpoint that does next to nothing, measured the same way, shows what the
  // machine and the auth hook cost on their own.
  const urls = [
    '/v1/user',
    '/v1/scans',
    '/v1/scans?limit=100&offset=500',
    '/v1/scans?status=finished',
    '/v1/scans?search=scan%2012345',
    '/v1/scans?sort_desc=total_result&limit=20',
  ];
  for (const u of urls) await app.inject({ method: 'GET', url: u, headers: { 'x-api-key': key } });
  const samples: Record<string, number[]> = {};
  for (let i = 0; i < 40; i++) {
    for (const u of urls) {
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url: u, headers: { 'x-api-key': key } });
      (samples[u] ??= []).push(performance.now() - s);
      if (res.statusCode !== 200) throw new Error(`${u}: ${res.statusCode} ${res.body}`);
    }
  }
  const pct = (xs: number[], p: number) =>
    [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
  const all = Object.entries(samples)
    .filter(([u]) => u !== '/v1/user')
    .flatMap(([, xs]) => xs);
  for (const [u, xs] of Object.entries(samples))
    console.log(`list: ${u.padEnd(42)} p50 ${pct(xs, 0.5).toFixed(1)} ms, p95 ${pct(xs, 0.95).toFixed(1)} ms`);
  console.log(
    `list: all list queries p50 ${pct(all, 0.5).toFixed(1)} ms, p95 ${pct(all, 0.95).toFixed(1)} ms on ${ctx.db.kind} (goal: p95 < 50 ms on PostgreSQL)`,
  );
  out.set('list_p95_ms', pct(all, 0.95));
}

/**
 * PostgreSQL CPU (every backend of the database) to store one scan's findings, 250 per statement as a chunk's
 * result sink writes them, into the first scan of the targets and after RESCANS earlier scans of them. A new
 * finding takes the triage of earlier copies of the same finding; that look-up must not read every copy.
 */
async function findingsAfterRescans(
  db: Db,
  teamId: string,
  targets: string[],
  texts: { name: string; contents: string }[],
  targetPid: number,
): Promise<void> {
  if (db.kind !== 'postgres') {
    console.log('findings: PostgreSQL CPU is read from /proc; skipped on PGlite');
    return;
  }
  // The findings of one engine run of the scan's work, as a chunk's result sink makes them.
  const events: ResultEvent[] = [];
  await engineRun(targets, texts, events);
  const rows = events.map(toFindingRow);
  const costs: number[] = [];
  for (let n = 0; n <= RESCANS; n++) {
    const id = `bench-rescan-${randomBytes(6).toString('hex')}`;
    await db.query(`INSERT INTO scans (id, team_id, name, status) VALUES ($1, $2, 'rescan bench', 'running')`, [
      id,
      teamId,
    ]);
    const c0 = await sideCpu(db, targetPid);
    for (let i = 0; i < rows.length; i += 250) await insertFindings(db, id, teamId, 0, rows.slice(i, i + 250));
    costs.push(cpuSpent(c0, await sideCpu(db, targetPid)).pg * 1000);
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const first = mean(costs.slice(0, 3));
  const last = mean(costs.slice(-3));
  console.log(
    `findings: ${rows.length} findings stored in ${first.toFixed(0)} ms of PostgreSQL CPU on the first scans of the targets, ` +
      `${last.toFixed(0)} ms after ${RESCANS} earlier scans (means of 3; each scan: ${costs.map((c) => c.toFixed(0)).join(', ')})`,
  );
  out.set('findings_store_pg_ms', first);
  out.set('findings_store_after_rescans_pg_ms', last);
}

/** Streams a sync CSV export of LOG_ROWS records over real HTTP, discarding it; reports time and RSS growth. */
async function exportMemory(ctx: AppContext, app: Awaited<ReturnType<typeof buildApp>>, key: string, teamId: string) {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/scans',
    headers: { 'x-api-key': key },
    payload: { targets: ['http://127.0.0.1:9'], private_templates: templateTexts().slice(0, 1), schedule_only: true },
  });
  const scanId = res.json().id as string;
  // Stored as a worker's chunks store them: one scan_log_batches row per write of 2,500 records.
  for (let from = 0; from < LOG_ROWS; from += 2500) {
    await ctx.db.query(
      `INSERT INTO scan_log_batches (seq, scan_id, team_id, run, chunk_idx, n, n_error, n_matched, first_at, last_at,
         records)
       SELECT nextval('scan_logs_id_seq'), $1, $2, 0, 0, count(*), count(*) FILTER (WHERE g % 4 = 0),
         count(*) FILTER (WHERE g % 10 = 0), now(), now(),
         json_agg(json_build_object('t', 'http://host-' || g || '.test/path', 'id', 'bench-' || (g % 50),
           'm', g % 10 = 0, 's', 'info', 'e', CASE WHEN g % 4 = 0 THEN 'context deadline exceeded' END,
           'ev', NULL, 'h', NULL, 'at', floor(extract(epoch FROM now()) * 1000)) ORDER BY g)::text
       FROM generate_series($3::int + 1, LEAST($3::int + 2500, $4::int)) AS g`,
      [scanId, teamId, from, LOG_ROWS],
    );
  }
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const link = (
    await app.inject({
      method: 'GET',
      url: `/v1/scans/${scanId}/scan_log/export?format=csv`,
      headers: { 'x-api-key': key },
    })
  ).json().url as string;
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const file = await fetch(base + new URL(link).pathname);
  let bytes = 0;
  for await (const chunk of file.body!) bytes += (chunk as Uint8Array).length;
  clearInterval(timer);
  const secs = (performance.now() - started) / 1000;
  console.log(
    `export: ${LOG_ROWS} log records, ${(bytes / 1024 / 1024).toFixed(1)} MB CSV streamed in ${secs.toFixed(1)} s; RSS grew ${((peak - before) / 1024 / 1024).toFixed(0)} MB while streaming`,
  );
  out.set('export_s', secs);
  out.set('export_rss_growth_mb', (peak - before) / 1024 / 1024);
}

async function main(): Promise<void> {
  const server = await startServer();
  const store = await openDb();
  const log = pino({ level: process.env.BENCH_LOG_LEVEL ?? 'silent' });
  let stopAll = async () => {};
  try {
    await migrate(store.db);
    const queue = await startQueue({
      db: store.db,
      databaseUrl: store.url,
      schema: queueSchemaFor(store.schema),
      schedule: false,
      supervise: false,
      log,
    });
    const ctx: AppContext = { db: store.db, config: { ...configFromEnv({}), maxScanTargets: 100_000 }, log, queue };
    const app = await buildApp(ctx);
    await app.ready();
    const worker = await startWorker(ctx, { jobs: [getJobHandler(SCAN_CHUNK_JOB)!], pollingIntervalSeconds: 0.5 });
    stopAll = async () => {
      await worker.stop(5_000);
      await queue.stop({ graceful: false, wait: true }).catch(() => {});
      await app.close();
    };
    const owner = await bootstrapOwner(store.db, 'bench@localhost');
    const key = owner.apiKey!;
    const teamId = (
      await store.db.query<{ default_team_id: string }>(
        `SELECT default_team_id FROM users WHERE email = 'bench@localhost'`,
      )
    ).rows[0]!.default_team_id;

    const targets = Array.from({ length: TARGETS }, (_, i) => `${server.url}/h${i}`);
    const texts = templateTexts();
    const pairs = TARGETS * TEMPLATES;
    console.log(
      `scan: ${TARGETS} targets x ${TEMPLATES} templates = ${pairs} attempts, concurrency ${CONCURRENCY}, no rate limit, ${store.db.kind}`,
    );
    // Warm both sides on a small slice, then alternate so neither gets a warmer machine.
    await engineRun(targets.slice(0, 50), texts);
    await platformRun(ctx, app, key, targets.slice(0, 50), texts);
    const eng: number[] = [];
    const plat: number[] = [];
    const proc: number[] = [];
    // CPU of each side per round (engine rounds of both phases; platform rounds as `vigil serve`).
    type Spent = ReturnType<typeof cpuSpent>;
    const engCpu: Spent[] = [];
    const servCpu: Spent[] = [];
    const f = (x: number) => x.toFixed(2);
    // The platform scan in two forms, each in its own phase of rounds alternating with the engine: as a
    // `vigil worker` process runs it (the engine on the same thread as the writes), then as `vigil serve`
    // runs it (the engine on its worker threads, VIGIL_ENGINE_THREADS, started and warmed once, while the
    // main thread answers the API and writes the results).
    // BENCH_FORMS=serve (or worker) measures one form only.
    const forms = (process.env.BENCH_FORMS ?? 'worker,serve').split(',');
    for (const threads of [false, true].filter((t) => forms.includes(t ? 'serve' : 'worker'))) {
      if (threads) {
        useEngineThreads();
        await platformRun(ctx, app, key, targets.slice(0, 50), texts);
      }
      const as = threads ? 'platform (vigil serve)' : 'platform (vigil worker)';
      for (let r = 0; r < Number(process.env.BENCH_ROUNDS ?? 2); r++) {
        const c0 = await sideCpu(store.db, server.pid);
        const e = await engineRun(targets, texts);
        const c1 = await sideCpu(store.db, server.pid);
        const p = await platformRun(ctx, app, key, targets, texts);
        const c2 = await sideCpu(store.db, server.pid);
        const ec = cpuSpent(c0, c1);
        const pc = cpuSpent(c1, c2);
        console.log(
          `round ${r + 1} (load ${loadAverage()}): engine ${e.rate.toFixed(0)} attempts/s, CPU s bench ${f(ec.bench)} (main thread ${f(ec.main)}) target ${f(ec.target)} PostgreSQL ${f(ec.pg)}; ` +
            `${as} ${p.rate.toFixed(0)} attempts/s, CPU s bench ${f(pc.bench)} (main thread ${f(pc.main)}) target ${f(pc.target)} PostgreSQL ${f(pc.pg)}; ${p.phases}`,
        );
        if (p.results !== e.results)
          console.log(`warning: platform stored ${p.results} findings, engine reported ${e.results}`);
        eng.push(e.rate);
        (threads ? plat : proc).push(p.rate);
        engCpu.push(ec);
        if (threads) servCpu.push(pc);
      }
    }
    await closeEngineThreads();
    const best = (xs: number[]) => Math.max(...xs);
    const rounds = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(`engine (vigil scan):      ${best(eng).toFixed(0)} attempts/s (rounds: ${rounds(eng)})`);
    if (plat.length > 0)
      console.log(
        `platform (vigil serve):   ${best(plat).toFixed(0)} attempts/s incl. queueing, findings and logs (rounds: ${rounds(plat)})`,
      );
    if (proc.length > 0)
      console.log(`platform (vigil worker):  ${best(proc).toFixed(0)} attempts/s (rounds: ${rounds(proc)})`);
    const ratios = [
      plat.length > 0 ? `${(best(plat) / best(eng)).toFixed(2)} as vigil serve runs it` : '',
      proc.length > 0 ? `${(best(proc) / best(eng)).toFixed(2)} as a vigil worker process does` : '',
    ];
    console.log(`ratio platform/engine: ${ratios.filter(Boolean).join(', ')} (goal >= 0.9)`);
    out.set('engine_attempts_s', best(eng));
    if (plat.length > 0) {
      out.set('platform_attempts_s', best(plat));
      out.set('platform_engine_ratio', best(plat) / best(eng));
    }
    if (proc.length > 0) out.set('worker_process_engine_ratio', best(proc) / best(eng));
    // Where the platform's CPU goes beside the engine's (medians of the rounds). Both sides keep the two
    // cores busy, so the attempts per second follow the CPU per attempt of all sides together: the ratio
    // of CPU is what the throughput ratio comes to on a machine with nothing else running.
    if (servCpu.length > 0) {
      const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
      const side = (xs: Spent[], k: keyof Spent) => med(xs.map((x) => x[k]));
      const total = (xs: Spent[]) => med(xs.map((x) => x.bench + x.target + x.pg));
      console.log(
        `CPU per scan, medians: engine: engine thread ${f(side(engCpu, 'main'))} s, its process in all ${f(side(engCpu, 'bench'))} s, ` +
          `target ${f(side(engCpu, 'target'))} s (all sides ${f(total(engCpu))} s); platform (vigil serve): main thread ` +
          `(API, results, writes) ${f(side(servCpu, 'main'))} s, its process in all (engine threads too) ${f(side(servCpu, 'bench'))} s, ` +
          `target ${f(side(servCpu, 'target'))} s, PostgreSQL ${f(side(servCpu, 'pg'))} s (all sides ${f(total(servCpu))} s)`,
      );
      out.set('platform_engine_cpu_ratio', total(engCpu) / total(servCpu));
    }

    if (RESCANS > 0) await findingsAfterRescans(store.db, teamId, targets, texts, server.pid);
    if (LOG_ROWS > 0) await exportMemory(ctx, app, key, teamId);
    if (SCANS > 0) await listLatency(ctx, app, key, teamId);
  } finally {
    await stopAll();
    await closeClients();
    await store.drop();
    server.stop();
  }
  out.print();
}

await main();
