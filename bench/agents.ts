// Agents benchmark (npm run bench:agents). Prints figures, asserts nothing.
// The same scan (BENCH_TARGETS local targets x BENCH_TEMPLATES templates, 50,000 attempts by default)
// run twice with real processes: on `vigil serve`'s in-process worker, then on `vigil serve --no-worker`
// with two `vigil agent` processes (BENCH_AGENT_CONCURRENCY chunks each). Goal: agents / workers >= 0.8.
// Uses DATABASE_URL (a fresh schema per run, dropped at the end) when set, else a PGlite data folder.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnVigil, type VigilProcess } from '../test/helpers/process.ts';
import { figures } from './figures.ts';

const TARGETS = Number(process.env.BENCH_TARGETS ?? 1000);
const TEMPLATES = Number(process.env.BENCH_TEMPLATES ?? 50);
const AGENT_CONCURRENCY = Number(process.env.BENCH_AGENT_CONCURRENCY ?? 2);
const out = figures('agents');

const SERVER = `
const http = require('node:http');
const body = Buffer.from('<html><body>vigil bench page ok</body></html>');
const s = http.createServer({ keepAliveTimeout: 30000 }, (req, res) => { res.setHeader('Content-Type', 'text/html'); res.end(body); });
s.listen(0, '127.0.0.1', () => process.send(s.address().port));
`;

function templateTexts(): { name: string; contents: string }[] {
  return Array.from({ length: TEMPLATES }, (_, i) => ({
    name: `bench-${i}.yaml`,
    contents: `id: bench-${i}\ninfo:\n  name: bench ${i}\n  author: vigil\n  severity: ${i % 10 === 0 ? 'medium' : 'info'}\nhttp:\n  - method: GET\n    path:\n      - "{{BaseURL}}/b${i}"\n    matchers:\n      - type: word\n        words:\n          - "${i % 10 === 0 ? 'bench page ok' : 'never-in-the-page'}"\n`,
  }));
}

interface Setup {
  env: Record<string, string>;
  args: string[];
  dir: string;
  cleanup(): Promise<void>;
}

async function setup(): Promise<Setup> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-bench-agents-'));
  const env: Record<string, string> = {
    VIGIL_SCAN_RATE_LIMIT: '0',
    VIGIL_SCAN_CONCURRENCY: '25',
    VIGIL_SCAN_BULK_SIZE: '25',
    VIGIL_DATA_DIR: dir,
  };
  const url = process.env.DATABASE_URL;
  if (!url)
    return { env, args: ['--data-dir', dir], dir, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
  const schema = `bench_agents_${randomBytes(4).toString('hex')}`;
  Object.assign(env, { DATABASE_URL: url, VIGIL_DB_SCHEMA: schema });
  return {
    env,
    args: [],
    dir,
    async cleanup() {
      const { dropSchema } = await import('../test/helpers/db.ts');
      await dropSchema(url, schema).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function timedScan(base: string, key: string, targets: string[], routing: Record<string, unknown>) {
  const headers = { 'x-api-key': key, 'content-type': 'application/json' };
  const started = performance.now();
  const res = await fetch(`${base}/v1/scans`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ targets, private_templates: templateTexts(), ...routing }),
  });
  if (res.status !== 200) throw new Error(`scan create: ${res.status} ${await res.text()}`);
  const id = (await res.json()).id;
  for (;;) {
    const s = await (await fetch(`${base}/v1/scans/${id}`, { headers })).json();
    if (s.status === 'finished') return { seconds: (performance.now() - started) / 1000, results: s.total_result };
    if (s.status === 'failed') throw new Error(`scan failed: ${s.failure_reason}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(kind: 'workers' | 'agents', targets: string[]) {
  const s = await setup();
  const procs: VigilProcess[] = [];
  try {
    const serve = spawnVigil(['serve', '--port', '0', ...s.args, ...(kind === 'agents' ? ['--no-worker'] : [])], s.env);
    procs.push(serve);
    const base = await serve.listening(180_000);
    const key = readFileSync(path.join(s.dir, 'owner-api-key'), 'utf8').trim();
    let routing = {};
    if (kind === 'agents') {
      for (const name of ['bench-a', 'bench-b']) {
        const a = spawnVigil(
          [
            'agent',
            '--server',
            base,
            '--key',
            key,
            '--name',
            name,
            '--tags',
            'bench',
            '--concurrency',
            String(AGENT_CONCURRENCY),
          ],
          { VIGIL_LOG_LEVEL: 'warn' },
        );
        procs.push(a);
        await a.waitFor(/agent ready/, 120_000);
      }
      routing = { agent_tags: ['bench'] };
    }
    return await timedScan(base, key, targets, routing);
  } finally {
    for (const p of procs) await p.kill('SIGKILL');
    await s.cleanup();
  }
}

const target = fork('-e', [SERVER], { execArgv: ['-e', SERVER], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
const port = await new Promise<number>((resolve) => target.once('message', (m) => resolve(Number(m))));
try {
  const targets = Array.from({ length: TARGETS }, (_, i) => `http://127.0.0.1:${port}/t${i}`);
  const attempts = TARGETS * TEMPLATES;
  console.log(
    `agents bench: ${attempts} attempts (${TARGETS} targets x ${TEMPLATES} templates), ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}`,
  );
  const w = await run('workers', targets);
  console.log(
    `  workers (vigil serve, in-process worker): ${w.seconds.toFixed(1)} s, ${(attempts / w.seconds).toFixed(0)} attempts/s, ${w.results} results`,
  );
  const a = await run('agents', targets);
  console.log(
    `  agents (serve --no-worker + 2 agents x ${AGENT_CONCURRENCY}): ${a.seconds.toFixed(1)} s, ${(attempts / a.seconds).toFixed(0)} attempts/s, ${a.results} results`,
  );
  console.log(`  agents / workers throughput: ${(w.seconds / a.seconds).toFixed(2)} (goal >= 0.8)`);
  out.set('workers_attempts_per_s', attempts / w.seconds);
  out.set('agents_attempts_per_s', attempts / a.seconds);
  out.set('agents_workers_ratio', w.seconds / a.seconds);
} finally {
  target.kill();
}
out.print();
