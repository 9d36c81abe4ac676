// Real `vigil` processes: serve on the embedded database, the CLI's users command, and several processes
// (two `vigil serve` started at once, a `vigil worker`) sharing one PostgreSQL database.
import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { spawnVigil, runVigil, type VigilProcess } from '../helpers/process.ts';
import { dropSchema } from '../helpers/db.ts';
import { startTestQueue, waitFor } from '../helpers/queue.ts';
import { connect } from '../../src/db/connection.ts';
import { openDatabase } from '../../src/platform/start.ts';
import { hashApiKey } from '../../src/platform/auth/keys.ts';
import { PING_JOB } from '../../src/platform/worker/builtin.ts';

describe('vigil serve on the embedded database (real process)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-cli-'));
  const procs: VigilProcess[] = [];
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('prints a key once, serves with it, refuses a second opener, exits on SIGTERM; users key replaces the key', async () => {
    const serve = spawnVigil(['serve', '--port', '0', '--data-dir', dir]);
    procs.push(serve);
    const url = await serve.listening(150_000);
    // Not a terminal: the key goes to a file only this user can read, never into the log stream.
    const keyFile = path.join(dir, 'owner-api-key');
    const key = readFileSync(keyFile, 'utf8').trim();
    expect(key).toMatch(/^vgl_/);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(serve.stdout + serve.stderr).not.toContain(key);
    expect(serve.stdout).toContain(keyFile);
    // The worker's idle loops (one per job and slot) share one stop signal without piling listeners on it.
    expect(serve.stderr).not.toMatch(/MaxListenersExceededWarning/);

    const ok = await fetch(`${url}/v1/user/team/member`, { headers: { 'X-API-Key': key } });
    expect(ok.status).toBe(200);
    expect((await ok.json()).members[0]).toMatchObject({ email: 'owner@localhost', role: 'OWNER' });
    for (const headers of [{}, { 'X-API-Key': 'vgl_wrong' }] as Record<string, string>[]) {
      const bad = await fetch(`${url}/v1/user/team/member`, { headers });
      expect(bad.status).toBe(401);
      expect(await bad.json()).toMatchObject({ message: expect.any(String), code: 'unauthorized', status: 401 });
    }

    const second = await runVigil(['serve', '--port', '0', '--data-dir', dir]);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/vigil serve` already running/);
    // Only the sentence: no JSON log line with a stack trace before it.
    expect(second.stdout).toBe('');
    expect(second.stderr.trim().split('\n')).toHaveLength(1);
    // While serve holds the folder, `users key` runs inside it (admin socket): the new key works at once.
    const whileRunning = await runVigil(['users', 'key', 'owner@localhost'], { VIGIL_DATA_DIR: dir });
    expect(whileRunning.code, whileRunning.stderr).toBe(0);
    const rotated = whileRunning.stdout.trim();
    expect((await fetch(`${url}/v1/user/team/member`, { headers: { 'X-API-Key': rotated } })).status).toBe(200);
    expect((await fetch(`${url}/v1/user/team/member`, { headers: { 'X-API-Key': key } })).status).toBe(401);

    expect(await serve.kill('SIGTERM')).toBe(0);
    expect(serve.stdout).toMatch(/"msg":"stopped"/);

    const issued = await runVigil(['users', 'key', 'owner@localhost'], { VIGIL_DATA_DIR: dir });
    expect(issued.code).toBe(0);
    const newKey = issued.stdout.trim();
    expect(newKey).toMatch(/^vgl_/);
    const unknown = await runVigil(['users', 'key', 'nobody@example.com'], { VIGIL_DATA_DIR: dir });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no user with email nobody@example.com/);

    const db = await openDatabase({ dataDir: dir });
    try {
      const { rows } = await db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys');
      expect(rows).toEqual([{ key_hash: hashApiKey(newKey) }]);
    } finally {
      await db.close();
    }
  }, 300_000);

  it('vigil worker refuses to run without DATABASE_URL', async () => {
    const res = await runVigil(['worker']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/needs DATABASE_URL/);
  }, 60_000);
});

describe.runIf(!!process.env.TEST_DATABASE_URL)('several vigil processes on one PostgreSQL database', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const procs: VigilProcess[] = [];
  const keyDir = mkdtempSync(path.join(tmpdir(), 'vigil-pg-'));
  const env = { DATABASE_URL: url, VIGIL_DB_SCHEMA: schema, VIGIL_SHUTDOWN_TIMEOUT: '5', VIGIL_DATA_DIR: keyDir };
  afterAll(async () => {
    for (const p of procs) await p.kill('SIGKILL');
    await dropSchema(url, schema);
    rmSync(keyDir, { recursive: true, force: true });
  });

  it('two `vigil serve` started at once: both run, migrations once, one owner, one printed key', async () => {
    const a = spawnVigil(['serve', '--port', '0', '--no-worker'], env);
    const b = spawnVigil(['serve', '--port', '0', '--no-worker'], env);
    procs.push(a, b);
    const [urlA, urlB] = await Promise.all([a.listening(150_000), b.listening(150_000)]);
    const logged = [a, b].filter((p) => p.stdout.includes('owner-api-key'));
    expect(logged).toHaveLength(1);
    expect(existsSync(path.join(keyDir, 'owner-api-key'))).toBe(true);
    const keys = [readFileSync(path.join(keyDir, 'owner-api-key'), 'utf8').trim()];

    const db = await connect({ databaseUrl: url, schema, poolSize: 1 });
    try {
      const owners = await db.query('SELECT * FROM team_members WHERE role = $1', ['OWNER']);
      expect(owners.rowCount).toBe(1);
      const migrations = await db.query<{ name: string; n: number }>(
        'SELECT name, count(*)::int AS n FROM schema_migrations GROUP BY name',
      );
      expect(migrations.rows.length).toBeGreaterThan(0);
      expect(migrations.rows.every((r) => r.n === 1)).toBe(true);
    } finally {
      await db.close();
    }
    for (const u of [urlA, urlB]) {
      const res = await fetch(`${u}/v1/user/team/member`, { headers: { 'X-API-Key': keys[0]! } });
      expect(res.status).toBe(200);
    }
  }, 240_000);

  it('a `vigil worker` process runs jobs sent to the shared queue, and exits on SIGTERM', async () => {
    const worker = spawnVigil(['worker'], env);
    procs.push(worker);
    await worker.waitFor(/worker started/, 120_000);
    const db = await connect({ databaseUrl: url, schema, poolSize: 1 });
    const boss = await startTestQueue({ db, kind: 'postgres', url, schema, drop: async () => {} });
    try {
      const id = (await boss.send(PING_JOB, { note: 'from the test' }))!;
      const job = await waitFor(async () => {
        const j = await boss.getJobById(PING_JOB, id);
        return j?.state === 'completed' && j;
      }, 30_000);
      expect(job.output).toEqual({ pong: 'from the test', pid: worker.proc.pid });
    } finally {
      await boss.stop({ graceful: false });
      await db.close();
    }
    expect(await worker.kill('SIGTERM')).toBe(0);
  }, 180_000);
});
