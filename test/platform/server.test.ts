// The whole process in this test process: startServer on a PGlite data folder, real HTTP, graceful stop.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { configFromEnv, type PlatformConfig } from '../../src/platform/shared/config.ts';
import { startServer, type RunningServer } from '../../src/platform/server.ts';
import { openDatabase } from '../../src/platform/start.ts';
import { enqueue, registerJobHandler } from '../../src/platform/worker/registry.ts';
import { hashApiKey } from '../../src/platform/auth/keys.ts';
import { waitFor } from '../helpers/queue.ts';

const SLOW_JOB = 'test.server.slow';
let slowStarted = false;
let slowFinished = false;
registerJobHandler(
  SLOW_JOB,
  async () => {
    slowStarted = true;
    await new Promise((r) => setTimeout(r, 1_000));
    slowFinished = true;
    return { slept: 1000 };
  },
  { retryLimit: 0 },
);

const silent = pino({ level: 'silent' });

describe('startServer on the embedded database', () => {
  const dirs: string[] = [];
  const config = (extra: Partial<PlatformConfig> = {}): PlatformConfig => {
    const dir = mkdtempSync(path.join(tmpdir(), 'vigil-server-'));
    dirs.push(dir);
    return { ...configFromEnv({}), port: 0, dataDir: dir, ...extra };
  };
  let first: PlatformConfig;
  let server: RunningServer;
  let key: string;

  beforeAll(async () => {
    first = config();
    server = await startServer({ config: first, log: silent, shutdownGraceMs: 10_000 });
    key = server.bootstrap.apiKey!;
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('creates the owner on first start and answers on a real port', async () => {
    expect(key).toMatch(/^vgl_/);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/v1/user/team/member`, { headers: { 'X-API-Key': key } });
    expect(res.status).toBe(200);
    expect((await res.json()).members).toEqual([expect.objectContaining({ email: 'owner@localhost', role: 'OWNER' })]);
    const none = await fetch(`${server.url}/v1/user/team/member`);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ message: expect.any(String), code: 'unauthorized', status: 401 });
    const health = await fetch(`${server.url}/healthz`);
    expect(await health.json()).toEqual({ status: 'ok', database: 'pglite' });
  });

  it('stores the key hashed, never in clear', async () => {
    const { rows } = await server.ctx.db.query<{ key_hash: string; key_prefix: string }>(
      'SELECT key_hash, key_prefix FROM api_keys',
    );
    expect(rows).toEqual([{ key_hash: hashApiKey(key), key_prefix: `vgl_…${hashApiKey(key).slice(0, 4)}` }]);
    expect(JSON.stringify(rows)).not.toContain(key);
  });

  it('a second opener of the same data folder is refused while the server holds it', async () => {
    await expect(openDatabase(first)).rejects.toThrow(/holds it.*vigil serve/s);
  });

  it('stop() finishes an in-flight request and a running job, then releases the folder', async () => {
    const jobId = (await enqueue(server.ctx, SLOW_JOB, {}))!;
    await waitFor(async () => slowStarted);
    // A request whose body is still arriving when the stop begins.
    const body = JSON.stringify({ email: 'late@example.com', role: 'viewer' });
    const port = new URL(server.url).port;
    // The server has parsed the request's head (it is in flight) before the stop begins.
    const arrived = new Promise<void>((resolve) => server.app.server.once('request', () => resolve()));
    let req!: http.ClientRequest;
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      req = http.request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/v1/user/team/member',
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'x-api-key': key },
        },
        (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve({ status: res.statusCode!, body: text }));
        },
      );
      req.on('error', reject);
      req.write(body.slice(0, 10));
    });
    await arrived;
    const stopped = server.stop();
    // The rest of the body arrives only once the server has stopped listening.
    await waitFor(async () => !server.app.server.listening, 10_000, 10);
    req.end(body.slice(10));
    const res = await response;
    expect(res.status).toBe(200);
    await stopped;
    expect(slowFinished).toBe(true);

    const db = await openDatabase(first); // the lock was released
    try {
      const job = await db.query<{ state: string; output: unknown }>(
        'SELECT state, output FROM pgboss.job WHERE id = $1',
        [jobId],
      );
      expect(job.rows[0]).toEqual({ state: 'completed', output: { slept: 1000 } });
      const member = await db.query<{ role: string }>(
        "SELECT m.role FROM team_members m JOIN users u ON u.id = m.user_id WHERE u.email = 'late@example.com'",
      );
      expect(member.rows).toEqual([{ role: 'VIEWER' }]);
    } finally {
      await db.close();
    }
  }, 60_000);

  it('a restart keeps the data and the key and prints no new key', async () => {
    server = await startServer({ config: first, log: silent });
    expect(server.bootstrap.apiKey).toBeUndefined();
    const res = await fetch(`${server.url}/v1/user`, { headers: { 'X-PDCP-Key': key } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ email: 'owner@localhost', role: 'OWNER' });
  }, 120_000);

  it('VIGIL_BOOTSTRAP_API_KEY on a restart does not replace the owner key (a rotated key stays rotated)', async () => {
    // The owner rotates its key, then the server restarts with a bootstrap key set.
    const rotated = await fetch(`${server.url}/v1/user/apikey/rotate`, {
      method: 'POST',
      headers: { 'X-API-Key': key },
    });
    const fresh = (await rotated.json()).api_key as string;
    await server.stop();
    const given = 'vgl_given-key-for-automation-0123456789';
    server = await startServer({ config: { ...first, bootstrapApiKey: given }, log: silent, worker: false });
    expect((await fetch(`${server.url}/v1/user`, { headers: { 'X-API-Key': given } })).status).toBe(401);
    expect((await fetch(`${server.url}/v1/user`, { headers: { 'X-API-Key': key } })).status).toBe(401);
    const res = await fetch(`${server.url}/v1/user`, { headers: { 'X-API-Key': fresh } });
    expect(await res.json()).toMatchObject({ email: 'owner@localhost', role: 'OWNER' });
  }, 120_000);
});
