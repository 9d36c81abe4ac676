// Headless templates run only where Chromium is: two real `vigil worker` processes on PostgreSQL, one whose
// VIGIL_CHROMIUM names a missing file, one with Debian's chromium. Every chunk of a scan with a headless
// template goes to the second; once it has stopped, such a scan runs on the first with its headless
// templates skipped and the scan log saying why. A chunk queued for a Chromium worker that then dies is
// taken over by the other once no Chromium worker is left.
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { spawnVigil, type VigilProcess } from '../../helpers/process.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { MARKER_TEMPLATE } from './fixtures.ts';
import { queueSchemaFor } from '../../../src/db/queue.ts';
import { NO_BROWSER_NOTICE, STRANDED_NO_BROWSER_NOTICE } from '../../../src/platform/scans/dispatch.ts';
import '../../../src/platform/scans/jobs.ts';

const url = process.env.TEST_DATABASE_URL;
const CHROMIUM = '/usr/bin/chromium';

// The page's text exists only once its script ran: only a browser sees it.
const RENDERED_TEMPLATE = `id: test-rendered
info:
  name: Rendered by script
  author: vigil
  severity: medium
headless:
  - steps:
      - action: navigate
        args: { url: "{{BaseURL}}/app" }
      - action: waitload
    matchers:
      - type: word
        words: ["RENDERED-BY-SCRIPT"]
`;

describe.skipIf(!url || !existsSync(CHROMIUM))('headless chunks go to workers with Chromium', () => {
  let t: TestApp;
  let server: TestServer;
  let plain: VigilProcess;
  let browser: VigilProcess;
  let browser2: VigilProcess | undefined;
  const env = () => ({ DATABASE_URL: url, VIGIL_DB_SCHEMA: t.testDb.schema });

  beforeAll(async () => {
    t = await createTestApp('postgres');
    server = await startHttpServer((req, res) => {
      if (req.url?.endsWith('/app')) {
        res.setHeader('content-type', 'text/html');
        return res.end(`<html><body><p id="out">waiting</p>
<script>document.getElementById('out').textContent = ['RENDERED', 'BY', 'SCRIPT'].join('-')</script></body></html>`);
      }
      res.end(req.url?.endsWith('/vuln') ? 'VULNERABLE-MARKER' : 'plain');
    });
    // One target per chunk (read where the scan is dispatched: this process).
    process.env.VIGIL_SCAN_CHUNK_TARGETS = '1';
    const env = { DATABASE_URL: url, VIGIL_DB_SCHEMA: t.testDb.schema };
    // It looks for stranded headless chunks every second instead of every ten.
    plain = spawnVigil(['worker', '--no-monitor'], {
      ...env,
      VIGIL_CHROMIUM: '/nonexistent/chromium',
      VIGIL_WORKER_STRAY_POLL: '1',
    });
    browser = spawnVigil(['worker', '--no-monitor'], { ...env, VIGIL_CHROMIUM: CHROMIUM });
    await Promise.all([plain.waitFor(/worker started/), browser.waitFor(/worker started/)]);
    // This process only sends jobs.
    t.ctx.queue = await startTestQueue(t.testDb);
  }, 120_000);

  afterAll(async () => {
    delete process.env.VIGIL_SCAN_CHUNK_TARGETS;
    await Promise.all([plain, browser, browser2].filter(Boolean).map((w) => w!.kill('SIGKILL')));
    await t?.ctx.queue?.stop({ graceful: false }).catch(() => {});
    await t?.close();
    await server?.close();
  });

  const scan = async (targets: string[]) => finish(await start(targets));

  const start = async (targets: string[]) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets,
        private_templates: [
          { name: 'm.yaml', contents: MARKER_TEMPLATE },
          { name: 'r.yaml', contents: RENDERED_TEMPLATE },
        ],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as string;
  };

  const finish = async (id: string) => {
    const done = await waitFor(
      async () => {
        const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
        return ['finished', 'failed'].includes(s.status) && s;
      },
      120_000,
      300,
    );
    const chunks = await t.ctx.db.query<{ worker: string }>('SELECT worker FROM scan_chunks WHERE scan_id = $1', [id]);
    const found = await t.ctx.db.query<{ template_id: string; n: number }>(
      'SELECT template_id, count(*)::int AS n FROM scan_results WHERE scan_id = $1 GROUP BY 1 ORDER BY 1',
      [id],
    );
    const notes = await t.ctx.db.query<{ error: string }>(
      `SELECT error FROM scan_log_records WHERE scan_id = $1 AND template_id = 'headless'`,
      [id],
    );
    return { done, chunks: chunks.rows.map((r) => r.worker), found: found.rows, notes: notes.rows.map((r) => r.error) };
  };

  it('each worker says whether it can run headless templates', async () => {
    const { rows } = await t.ctx.db.query<{ id: string; headless: boolean }>('SELECT id, headless FROM workers');
    const of = (p: VigilProcess) => rows.find((r) => r.id.includes(`:${p.proc.pid}:`))?.headless;
    expect(of(plain)).toBe(false);
    expect(of(browser)).toBe(true);
  });

  it('runs every chunk with a headless template on the worker that has Chromium', async () => {
    const targets = Array.from({ length: 6 }, (_, i) => `${server.url}/t${i}`);
    const r = await scan(targets);
    expect(r.done.status).toBe('finished');
    expect(r.chunks).toHaveLength(6);
    expect(r.chunks.every((w) => w.endsWith(`:${browser.proc.pid}`))).toBe(true);
    expect(r.found).toEqual([
      { template_id: 'test-marker', n: 6 },
      { template_id: 'test-rendered', n: 6 },
    ]);
    expect(r.notes).toEqual([]);
  }, 150_000);

  it('with no worker with Chromium running, the scan runs the rest and its log says why headless did not', async () => {
    browser.proc.kill('SIGTERM');
    await browser.exited;
    const { rows } = await t.ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workers WHERE headless');
    expect(rows[0]!.n).toBe(0);
    const r = await scan([`${server.url}/a`, `${server.url}/b`]);
    expect(r.done.status).toBe('finished');
    expect(r.chunks.every((w) => w.endsWith(`:${plain.proc.pid}`))).toBe(true);
    expect(r.found).toEqual([{ template_id: 'test-marker', n: 2 }]);
    expect(r.notes).toEqual([NO_BROWSER_NOTICE]);
  }, 150_000);

  it('a headless chunk queued for a Chromium worker that died is run by a worker without Chromium', async () => {
    browser2 = spawnVigil(['worker', '--no-monitor'], { ...env(), VIGIL_CHROMIUM: CHROMIUM });
    await browser2.waitFor(/worker started/);
    // Frozen, it still counts as running when the scan is dispatched, so the chunks go to the headless queue;
    // then it dies without taking its row back.
    browser2.proc.kill('SIGSTOP');
    const id = await start([`${server.url}/c`, `${server.url}/d`]);
    const queued = await t.ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM "${queueSchemaFor(t.testDb.schema)}".job
        WHERE name = 'scans.chunk.headless' AND data->>'scanId' = $1`,
      [id],
    );
    expect(queued.rows[0]!.n).toBe(2);
    await browser2.kill('SIGKILL');
    const row = `%:${browser2.proc.pid}:%`;
    const still = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM workers WHERE headless AND id LIKE $1',
      [row],
    );
    expect(still.rows[0]!.n).toBe(1);
    // Until its row is stale the chunks wait for it; the minute it takes is stood in for by ageing the row.
    await t.ctx.db.query(`UPDATE workers SET seen_at = now() - interval '2 minutes' WHERE id LIKE $1`, [row]);
    const r = await finish(id);
    expect(r.done.status).toBe('finished');
    expect(r.chunks.every((w) => w.endsWith(`:${plain.proc.pid}`))).toBe(true);
    expect(r.found).toEqual([{ template_id: 'test-marker', n: 2 }]);
    expect(r.notes).toEqual([STRANDED_NO_BROWSER_NOTICE]);
  }, 150_000);
});
