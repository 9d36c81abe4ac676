// Two real `vigil worker` processes share a scan on PostgreSQL; one is killed with SIGKILL in the middle of
// a chunk. The chunk is retried by the other worker and every finding is stored exactly once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { MARKER_TEMPLATE, HEADER_TEMPLATE } from './fixtures.ts';
import '../../../src/platform/scans/jobs.ts';

const url = process.env.TEST_DATABASE_URL;
const TARGETS = 48;

describe.skipIf(!url)('scan workers on PostgreSQL', () => {
  let t: TestApp;
  let server: TestServer;
  const workers: VigilProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    // Each request takes a while, so a chunk of 4 targets runs for a few seconds.
    server = await startHttpServer(async (req, res) => {
      await new Promise((r) => setTimeout(r, 700));
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
    const env = {
      DATABASE_URL: url,
      VIGIL_DB_SCHEMA: t.testDb.schema,
      VIGIL_SCAN_CHUNK_TIMEOUT: '10',
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
    await server?.close();
  });

  it('finishes the scan after a worker dies mid-chunk, storing each finding once', async () => {
    process.env.VIGIL_SCAN_CHUNK_TARGETS = '4';
    let id: string;
    try {
      const targets = Array.from({ length: TARGETS }, (_, i) => `${server.url}/t${i}`);
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets,
          private_templates: [
            { name: 'm.yaml', contents: MARKER_TEMPLATE },
            { name: 'h.yaml', contents: HEADER_TEMPLATE },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      id = res.json().id;
    } finally {
      delete process.env.VIGIL_SCAN_CHUNK_TARGETS;
    }
    const victim = workers[0]!;
    const victimName = `:${victim.proc.pid}`;
    // Kill the first worker while it is inside a chunk.
    const hit = await waitFor(
      async () => {
        const { rows } = await t.ctx.db.query<{ idx: number }>(
          `SELECT idx FROM scan_chunks WHERE scan_id = $1 AND status = 'running' AND worker LIKE '%' || $2`,
          [id, victimName],
        );
        return rows[0];
      },
      60_000,
      50,
    );
    victim.proc.kill('SIGKILL');
    expect(await victim.exited).toBe('SIGKILL');

    const scan = await waitFor(
      async () => {
        const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
        return ['finished', 'failed'].includes(s.status) && s;
      },
      150_000,
      500,
    );
    expect(scan).toMatchObject({ status: 'finished', progress: 100, total_result: TARGETS });

    const chunk = await t.ctx.db.query<{ attempts: number; status: string; worker: string }>(
      'SELECT attempts, status, worker FROM scan_chunks WHERE scan_id = $1 AND idx = $2',
      [id, hit.idx],
    );
    expect(chunk.rows[0]!.status).toBe('done');
    expect(chunk.rows[0]!.attempts).toBeGreaterThanOrEqual(2);
    expect(chunk.rows[0]!.worker).toContain(`:${workers[1]!.proc.pid}`);

    const findings = await t.ctx.db.query<{ n: number; hashes: number; hosts: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT vuln_hash)::int AS hashes, count(DISTINCT host)::int AS hosts FROM scan_results WHERE scan_id = $1',
      [id],
    );
    expect(findings.rows[0]).toEqual({ n: TARGETS, hashes: TARGETS, hosts: TARGETS });
    const logs = await t.ctx.db.query<{ n: number; matched: number }>(
      'SELECT count(*)::int AS n, count(*) FILTER (WHERE matched)::int AS matched FROM scan_log_records WHERE scan_id = $1',
      [id],
    );
    expect(logs.rows[0]).toEqual({ n: TARGETS * 2, matched: TARGETS });
  }, 240_000);
});
