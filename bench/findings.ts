// The console's findings list with many findings: imports N nuclei results (default 100,000) through the
// import API, then times the requests the Findings and Overview pages make (first page, a deep page, each
// filter, the Overview's counts). Each is timed on a 1,000-finding team in the same run as the baseline,
// and the ratio is printed: server-side pagination and filtering keep it near 1 when the queries scale.
// `npm run bench:findings` (PGlite in memory; DATABASE_URL=postgres://... for PostgreSQL).
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { connect, type Db } from '../src/db/connection.ts';
import { migrate } from '../src/db/migrate.ts';
import { buildApp } from '../src/platform/app.ts';
import { configFromEnv } from '../src/platform/shared/config.ts';
import { bootstrapOwner, createTeamWithOwner, issueKey } from '../src/platform/auth/service.ts';
import { figures } from './figures.ts';

const N = Number(process.env.BENCH_FINDINGS ?? 100_000);
const BASELINE = 1_000;
const BATCH = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'];

async function openDb(): Promise<{ db: Db; drop(): Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    const db = await connect({ dataDir: 'memory://' });
    return { db, drop: () => db.close() };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  const db = await connect({ databaseUrl: url, schema, poolSize: 10 });
  return {
    db,
    async drop() {
      await db.close();
      const admin = await connect({ databaseUrl: url });
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.close();
    },
  };
}

/** nuclei JSON lines: 500 hosts x 200 templates, severities and tags spread over them. */
function lines(from: number, count: number): string {
  let out = '';
  for (let i = from; i < from + count; i++) {
    const host = `http://10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i % 500}:8080`;
    const t = i % 200;
    const sev = SEVERITIES[t % 5]!;
    out +=
      JSON.stringify({
        'template-id': `bench-template-${t}`,
        'template-path': `http/bench/bench-template-${t}.yaml`,
        info: { name: `Bench template ${t}`, severity: sev, tags: [`tag${t % 10}`, 'bench'], author: ['bench'] },
        type: 'http',
        host,
        'matched-at': `${host}/path/${i}`,
        port: '8080',
        timestamp: new Date().toISOString(),
        request: `GET /path/${i} HTTP/1.1\r\nHost: x\r\n\r\n`,
        response: `HTTP/1.1 200 OK\r\n\r\nbody ${i}`,
        'matcher-status': true,
      }) + '\n';
  }
  return out;
}

async function main(): Promise<void> {
  const store = await openDb();
  const log = pino({ level: 'silent' });
  try {
    await migrate(store.db);
    const app = await buildApp({ db: store.db, config: { ...configFromEnv({}), rateLimitPerMinute: 0 }, log });
    await app.ready();
    const big = (await bootstrapOwner(store.db, 'bench@localhost')).apiKey!;
    const small = await createTeamWithOwner(store.db, 'small@localhost', 'Small');
    const smallKey = await issueKey(store.db, small.userId);

    const load = async (key: string, total: number) => {
      let scanId = '';
      for (let done = 0; done < total; done += BATCH) {
        const body = lines(done, Math.min(BATCH, total - done));
        const res = await app.inject({
          method: scanId ? 'PATCH' : 'POST',
          url: scanId ? `/v1/scans/${scanId}/import` : '/v1/scans/import?name=bench',
          headers: { 'x-api-key': key, 'content-type': 'application/x-ndjson' },
          payload: body,
        });
        if (res.statusCode !== 200) throw new Error(`import answered ${res.statusCode}: ${res.body}`);
        scanId ||= res.json().id;
      }
    };
    const started = performance.now();
    await load(big, N);
    await load(smallKey, BASELINE);
    console.log(
      `findings: ${N} imported in ${((performance.now() - started) / 1000).toFixed(1)} s (${store.db.kind}); baseline team ${BASELINE}`,
    );

    const queries: [string, string][] = [
      ['first page (50, newest first)', 'limit=50&sort_desc=created_at'],
      ['page 100 (offset 4950)', 'limit=50&offset=4950&sort_desc=created_at'],
      ['severity=high', 'limit=50&severity=high'],
      ['host filter', 'limit=50&host=http://10.0.1.7:8080'],
      ['template filter', 'limit=50&templates=bench-template-42'],
      ['tags filter', 'limit=50&tags=tag3'],
      ['time=last_week', 'limit=50&time=last_week'],
      ['text search', 'limit=50&search=bench-template-7'],
      ['overview count (severity, limit=1)', 'limit=1&severity=critical'],
      ['overview sample (1000 newest)', 'limit=1000&sort_desc=created_at'],
    ];
    const time = async (key: string, q: string) => {
      const ms: number[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        const t0 = performance.now();
        const res = await app.inject({ method: 'GET', url: `/v1/scans/results?${q}`, headers: { 'x-api-key': key } });
        ms.push(performance.now() - t0);
        if (res.statusCode !== 200) throw new Error(`${q}: ${res.statusCode} ${res.body}`);
      }
      ms.sort((a, b) => a - b);
      if (key === big) p95.set(labelOf(q), ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!);
      return ms[Math.floor(ms.length / 2)]!;
    };
    const p95 = new Map<string, number>();
    const labelOf = (q: string) => queries.find(([, x]) => x === q)![0];
    const out = figures('findings');
    out.set('findings', N);
    console.log(`${'request'.padEnd(38)} ${String(N).padStart(9)} ${String(BASELINE).padStart(9)}   ratio`);
    for (const [label, q] of queries) {
      await time(big, q); // warm
      const a = await time(big, q);
      const b = await time(smallKey, q);
      console.log(
        `${label.padEnd(38)} ${a.toFixed(1).padStart(7)}ms ${b.toFixed(1).padStart(7)}ms ${(a / b).toFixed(1).padStart(7)}x`,
      );
    }
    // Figures for the table: every request's p95 at N findings (the goal is on p95) and the slowest of them.
    for (const [l] of queries)
      out.set(
        `${l
          .split(' (')[0]!
          .replace(/[^a-z0-9]+/gi, '_')
          .toLowerCase()}_p95_ms`,
        p95.get(l)!,
      );
    out.set('slowest_request_p95_ms', Math.max(...p95.values()));
    await triage(app, big, out);
    out.print();
    await app.close();
  } finally {
    await store.drop();
  }
}

/**
 * Working findings at N: bulk status changes (50 ids; a template's 500 findings through a filter), labels,
 * the status and label filters, changelogs, the audit log and an export's start, each request's p95 over
 * 4 x ROUNDS.
 */
async function triage(app: Awaited<ReturnType<typeof buildApp>>, key: string, out: ReturnType<typeof figures>) {
  const call = async (method: string, url: string, payload?: unknown) => {
    const t0 = performance.now();
    const res = await app.inject({
      method: method as 'GET',
      url,
      payload: payload as object,
      headers: { 'x-api-key': key },
    });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200 && res.statusCode !== 201)
      throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
    return { ms, body: res.json() };
  };
  const page = (await call('GET', '/v1/scans/results?limit=50&sort_desc=created_at')).body.data as {
    vuln_id: string;
  }[];
  const ids = page.map((r) => r.vuln_id);
  const steps: [string, (i: number) => [string, string, unknown?]][] = [
    [
      'status of 50 ids',
      (i) => ['PATCH', '/v1/scans/vulns', { vuln_ids: ids, vuln_status: i % 2 ? 'open' : 'triaged' }],
    ],
    [
      'status by filter (500)',
      (i) => [
        'PATCH',
        '/v1/scans/vulns',
        { template: ['bench-template-42'], vuln_status: i % 2 ? 'open' : 'accepted_risk' },
      ],
    ],
    ['labels of 50 ids', (i) => ['PATCH', '/v1/scans/vulns/labels', { ids, labels: i % 2 ? [] : ['bench', `l${i}`] }]],
    ['status filter', () => ['GET', '/v1/scans/results?limit=50&vuln_status=triaged,accepted_risk']],
    ['labels filter', () => ['GET', '/v1/scans/results?limit=50&labels=bench']],
    ['team changelogs', () => ['GET', '/v1/scans/vuln/changelogs?limit=50']],
    ['finding changelog', () => ['GET', `/v1/scans/vuln/${ids[0]}/changelogs`]],
    ['audit log', () => ['GET', '/v1/team/audit_log?limit=50']],
    ['audit search', () => ['GET', '/v1/team/audit_log/search?q=labels&limit=50']],
    // Last: each start builds its file in this process afterwards (no job queue here), a template's 500.
    [
      'export start (async, filter)',
      () => ['POST', '/v1/scans/results/export?async=true&type=csv', { template: ['bench-template-42'] }],
    ],
  ];
  console.log(`\n${'triage request'.padEnd(38)} ${'p50'.padStart(9)} ${'p95'.padStart(9)}`);
  let slowest = 0;
  for (const [label, make] of steps) {
    const ms: number[] = [];
    for (let i = 0; i < ROUNDS * 4 + 1; i++) {
      const [method, url, body] = make(i);
      const r = await call(method, url, body);
      if (i > 0) ms.push(r.ms); // the first is a warm-up
    }
    ms.sort((a, b) => a - b);
    const p50 = ms[Math.floor(ms.length / 2)]!;
    const p95 = ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!;
    slowest = Math.max(slowest, p95);
    console.log(`${label.padEnd(38)} ${p50.toFixed(1).padStart(7)}ms ${p95.toFixed(1).padStart(7)}ms`);
    out.set(
      `triage_${label
        .split(' (')[0]!
        .replace(/[^a-z0-9]+/gi, '_')
        .toLowerCase()}_p95_ms`,
      p95,
    );
  }
  out.set('triage_slowest_p95_ms', slowest);
}

await main();
