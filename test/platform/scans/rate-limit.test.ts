// A scan's rate limit holds across workers: two real `vigil worker` processes (each able to run 4 chunks
// at once) share one scan on PostgreSQL, and the target server sees no more than the scan's rate (plus
// the token bucket's one-second burst), while the scan still finishes with every finding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { MARKER_TEMPLATE, HEADER_TEMPLATE } from './fixtures.ts';
import '../../../src/platform/scans/jobs.ts';

const url = process.env.TEST_DATABASE_URL;
const RATE = 16;
const PARALLELISM = 4;
const TARGETS = 64;

/** Most requests seen in any window minus what rate r allows for its length: the burst actually used. */
function worstBurst(times: number[], r: number): number {
  let worst = 0;
  for (let i = 0; i < times.length; i++) {
    for (let j = i; j < times.length; j++) {
      worst = Math.max(worst, j - i + 1 - (r * (times[j]! - times[i]!)) / 1000);
    }
  }
  return worst;
}

describe.skipIf(!url)('scan rate limit across workers on PostgreSQL', () => {
  let t: TestApp;
  let server: TestServer;
  const workers: VigilProcess[] = [];

  beforeAll(async () => {
    t = await createTestApp('postgres');
    server = await startHttpServer((req, res) => {
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
    const env = {
      DATABASE_URL: url,
      VIGIL_DB_SCHEMA: t.testDb.schema,
      VIGIL_LOG_LEVEL: 'info',
      VIGIL_SCAN_SLOT_RETRY: '1',
    };
    for (let i = 0; i < 2; i++) workers.push(spawnVigil(['worker', '--concurrency', '4'], env));
    await Promise.all(workers.map((w) => w.waitFor(/worker started/)));
    t.ctx.queue = await startTestQueue(t.testDb);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(workers.map((w) => w.kill('SIGKILL')));
    await t?.ctx.queue?.stop({ graceful: false }).catch(() => {});
    await t?.close();
    await server?.close();
  });

  it('keeps the total request rate of one scan within its limit', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      VIGIL_SCAN_RATE_LIMIT: String(RATE),
      VIGIL_SCAN_CHUNK_PARALLELISM: String(PARALLELISM),
      VIGIL_SCAN_CHUNK_TARGETS: '8',
    });
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
      for (const k of ['VIGIL_SCAN_RATE_LIMIT', 'VIGIL_SCAN_CHUNK_PARALLELISM', 'VIGIL_SCAN_CHUNK_TARGETS']) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }

    // Chunks running at once, sampled while the scan runs: never more than its slots.
    let maxRunning = 0;
    const scan = await waitFor(
      async () => {
        const { rows } = await t.ctx.db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM scan_chunks WHERE scan_id = $1 AND status = 'running'`,
          [id],
        );
        maxRunning = Math.max(maxRunning, rows[0]!.n);
        const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
        return ['finished', 'failed'].includes(s.status) && s;
      },
      120_000,
      100,
    );
    expect(scan).toMatchObject({ status: 'finished', progress: 100, total_result: TARGETS });
    expect(maxRunning).toBeLessThanOrEqual(PARALLELISM);

    const findings = await t.ctx.db.query<{ n: number; hashes: number }>(
      'SELECT count(*)::int AS n, count(DISTINCT vuln_hash)::int AS hashes FROM scan_results WHERE scan_id = $1',
      [id],
    );
    expect(findings.rows[0]).toEqual({ n: TARGETS, hashes: TARGETS });
    // Both worker processes ran chunks of this scan.
    const ran = await t.ctx.db.query<{ n: number }>(
      'SELECT count(DISTINCT worker)::int AS n FROM scan_chunks WHERE scan_id = $1',
      [id],
    );
    expect(ran.rows[0]!.n).toBe(2);

    const times = server.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(times.length).toBeGreaterThanOrEqual(TARGETS * 2);
    // Token bucket conformance: in any window, at most RATE per second plus one second's burst (with a
    // little slack for timer and network jitter). Two workers at RATE each would exceed it within seconds.
    const burst = worstBurst(times, RATE);
    expect(burst).toBeLessThanOrEqual(RATE * 1.15 + 2);
    const secs = (times.at(-1)! - times[0]!) / 1000;
    expect(times.length / secs).toBeLessThanOrEqual(((RATE * times.length) / (times.length - RATE)) * 1.1);
    console.log(
      `rate test: ${times.length} requests in ${secs.toFixed(1)} s (${(times.length / secs).toFixed(1)}/s, limit ${RATE}/s), worst burst ${burst.toFixed(1)}, max chunks at once ${maxRunning}`,
    );
  }, 180_000);
});
