// A scan's progress follows finished target x template attempts, not only finished chunks: a scan of one
// target (one chunk) no longer sits at 0 until it ends. Its finding count follows its findings the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';
import { waitFor } from '../../helpers/wait.ts';

const tpl = (i: number) => ({
  name: `t${i}.yaml`,
  contents: `id: slow-${i}\ninfo:\n  name: slow ${i}\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/t${i}"]\n    matchers:\n      - type: word\n        words: [never-there]\n`,
});

describe('scan progress', () => {
  let t: ScanTestApp;
  let slow: TestServer;
  beforeAll(async () => {
    t = await createScanApp('pglite');
    // Template i answers after i x 300 ms: attempts finish one after another.
    slow = await startHttpServer(async (q, res) => {
      const i = Number(q.url!.slice(2));
      await new Promise((r) => setTimeout(r, i * 300));
      res.end('nothing');
    });
  });
  let release: () => void = () => {};
  let held: TestServer;
  afterAll(async () => {
    release();
    await t?.close();
    await slow?.close();
    await held?.close();
  });

  it('moves while the only chunk runs', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [slow.url], private_templates: Array.from({ length: 12 }, (_, i) => tpl(i)) },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const seen = new Set<number>();
    for (let i = 0; i < 200; i++) {
      const s = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      seen.add(s.progress);
      if (s.status === 'finished') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.has(100)).toBe(true);
    expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);
  }, 60_000);

  it('counts only attempts: templates that cannot run do not push it to 99% while the others still run', async () => {
    // 8 unsigned code templates are refused at load (each leaves a "template not run" log record and is
    // taken out of the totals); of the 4 that run, 1 answers at once and 3 wait for the test. Counting the
    // refusal records as attempts made this scan read 99% with 3 of its 4 attempts still running.
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => (open = r));
    const prev = release;
    release = () => {
      prev();
      open();
    };
    const waiting = await startHttpServer(async (q, res) => {
      if (q.url !== '/w0') await gate;
      res.end('nothing');
    });
    const httpTpl = (i: number) => ({
      name: `w${i}.yaml`,
      contents: `id: wait-${i}\ninfo:\n  name: wait ${i}\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/w${i}"]\n    matchers:\n      - type: word\n        words: [never-there]\n`,
    });
    const codeTpl = (i: number) => ({
      name: `c${i}.yaml`,
      contents: `id: unsigned-code-${i}\ninfo:\n  name: code ${i}\n  author: vigil\n  severity: info\ncode:\n  - engine: [sh]\n    source: echo ${i}\n`,
    });
    try {
      const res = await t.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets: [waiting.url],
          private_templates: [
            ...Array.from({ length: 4 }, (_, i) => httpTpl(i)),
            ...Array.from({ length: 8 }, (_, i) => codeTpl(i)),
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().id;
      const scan = async () => (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
      // The refusals and the one answered attempt are written (the sink flushes every 2 s).
      await waitFor(async () => (await scan()).progress > 0, 20_000);
      const running = await scan();
      expect(running.status).toBe('running');
      expect(running.total_scan).toBe(4);
      expect(running.progress).toBe(25);
      release();
      await waitFor(async () => (await scan()).status === 'finished', 20_000);
      expect((await scan()).progress).toBe(100);
    } finally {
      release();
      await waiting.close();
    }
  }, 60_000);

  it('counts findings while the chunk still runs', async () => {
    const gate = new Promise<void>((r) => (release = r));
    // /found answers at once with the marker; /held waits until the test has seen the count.
    held = await startHttpServer(async (q, res) => {
      if (q.url === '/held') await gate;
      res.end(q.url === '/found' ? 'LIVE-MARKER' : 'nothing');
    });
    const matcher = (id: string, path: string) => ({
      name: `${id}.yaml`,
      contents: `id: ${id}\ninfo:\n  name: ${id}\n  author: vigil\n  severity: high\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}${path}"]\n    matchers:\n      - type: word\n        words: [LIVE-MARKER]\n`,
    });
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: {
        targets: [held.url],
        private_templates: [matcher('live-found', '/found'), matcher('live-held', '/held')],
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const scan = async () => (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
    await waitFor(async () => (await scan()).total_result === 1, 20_000);
    const running = await scan();
    expect(running.status).toBe('running');
    expect(running.severity).toMatchObject({ high: 1 });
    release();
    await waitFor(async () => (await scan()).status === 'finished', 20_000);
    expect((await scan()).total_result).toBe(1);
  }, 60_000);
});
