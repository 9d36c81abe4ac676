// Two real `vigil worker` processes on PostgreSQL; the one running an enumeration is killed with SIGKILL in
// the middle of its discovery. The job is retried by the other worker and every asset and history record
// is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import '../../../src/platform/assets/jobs.ts';

const url = process.env.TEST_DATABASE_URL;
const SERVERS = 6;

describe.skipIf(!url)('enumeration workers on PostgreSQL', () => {
  let t: TestApp;
  const servers: TestServer[] = [];
  const workers: VigilProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    // Each answer takes a while, so a run over these ports lasts several seconds.
    for (let i = 0; i < SERVERS; i++) {
      servers.push(
        await startHttpServer(
          async (_req, res) => {
            await new Promise((r) => setTimeout(r, 800));
            res.end(`<title>slow ${i}</title>`);
          },
          { host: '127.0.0.6' },
        ),
      );
    }
    // A run takes about 10 s (six answers of 0.8 s, each asked twice, one at a time) plus its discovery
    // thread's start (1-2 s from the TypeScript sources on a loaded machine): it must end before it expires.
    const env = {
      DATABASE_URL: url,
      VIGIL_DB_SCHEMA: t.testDb.schema,
      VIGIL_ENUMERATION_TIMEOUT: '20',
      VIGIL_LOG_LEVEL: 'info',
    };
    for (let i = 0; i < 2; i++) workers.push(spawnVigil(['worker', '--concurrency', '1'], env));
    await Promise.all(workers.map((w) => w.waitFor(/worker started/)));
    // This process only sends jobs (its pg-boss also runs maintenance, which retries expired jobs).
    t.ctx.queue = await startTestQueue(t.testDb, { supervise: true });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await t?.ctx.queue?.stop({ graceful: false }).catch(() => {});
    await t?.close();
    await Promise.all(servers.map((s) => s.close()));
  });

  it('finishes the run after a worker dies mid-discovery, storing each asset once', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        root_domains: ['127.0.0.6'],
        steps: ['port_scan', 'http_probe'],
        enumeration_ports: servers.map((s) => s.port).join(','),
        enumeration_config: { concurrency: 1, timeout: 5 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id as string;

    const running = await waitFor(
      async () => {
        const { rows } = await t.ctx.db.query<{ worker: string | null; status: string }>(
          'SELECT worker, status FROM asset_enumerations WHERE id = $1',
          [id],
        );
        return rows[0]?.status === 'running' && rows[0].worker ? rows[0] : undefined;
      },
      60_000,
      50,
    );
    const victim = workers.find((w) => running.worker!.endsWith(`:${w.proc.pid}`))!;
    expect(victim).toBeDefined();
    victim.proc.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');
    const survivor = workers.find((w) => w !== victim)!;

    const done = await waitFor(
      async () => {
        const d = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
        return ['finished', 'failed'].includes(d.status) && d;
      },
      150_000,
      500,
    );
    expect(done).toMatchObject({ status: 'finished', progress: 100, total_assets: SERVERS, new_assets: SERVERS });

    const row = await t.ctx.db.query<{ worker: string; attempts: number }>(
      'SELECT worker, attempts FROM asset_enumerations WHERE id = $1',
      [id],
    );
    expect(row.rows[0]!.attempts).toBeGreaterThanOrEqual(2);
    expect(row.rows[0]!.worker).toContain(`:${survivor.proc.pid}`);

    const counts = await t.ctx.db.query<{ assets: number; keys: number; logs: number }>(
      `SELECT (SELECT count(*)::int FROM assets WHERE enumeration_id = $1) AS assets,
              (SELECT count(DISTINCT asset_key)::int FROM assets WHERE enumeration_id = $1) AS keys,
              (SELECT count(*)::int FROM asset_changelogs WHERE enumeration_id = $1) AS logs`,
      [id],
    );
    expect(counts.rows[0]).toEqual({ assets: SERVERS, keys: SERVERS, logs: SERVERS });
    const contents = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json();
    expect(contents.data.map((a: any) => a.title).sort()).toEqual(servers.map((_, i) => `slow ${i}`).sort());
  }, 240_000);
});
