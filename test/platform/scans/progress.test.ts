// A scan's progress follows finished target x template attempts, not only finished chunks: a scan of one
// target (one chunk) no longer sits at 0 until it ends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';

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
  afterAll(async () => {
    await t?.close();
    await slow?.close();
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
});
