// vigil serve's in-process worker runs the engine on worker threads: a CPU-heavy scan leaves the API's
// event loop free, results arrive as usual, and a stop ends the chunk.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { createScanApp, type ScanTestApp } from './fixtures.ts';
import { closeEngineThreads, useEngineThreads } from '../../../src/platform/scans/engine-pool.ts';

// Each matcher hashes a 16 MiB string: seconds of CPU for one response, all on the engine thread.
const HEAVY = `id: cpu-heavy
info:
  name: CPU heavy
  author: vigil
  severity: medium
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers-condition: and
    matchers:
${Array.from({ length: 80 }, (_, i) => `      - type: dsl\n        dsl: ['len(sha256(repeat(body, 2000000)) + "${i}") > 0']`).join('\n')}
      - type: word
        words: [heavy]
`;

describe('engine threads for the in-process worker', () => {
  let t: ScanTestApp;
  let target: TestServer;
  beforeAll(async () => {
    useEngineThreads(1);
    t = await createScanApp('pglite');
    target = await startHttpServer((_q, res) => res.end('heavy!!!'));
  });
  afterAll(async () => {
    await t?.close();
    await target?.close();
    await closeEngineThreads();
  });

  it('runs a CPU-heavy scan off the API thread: the API keeps answering', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/scans',
      payload: { targets: [target.url], private_templates: [{ name: 'heavy.yaml', contents: HEAVY }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    let maxGap = 0;
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      maxGap = Math.max(maxGap, now - last);
      last = now;
    }, 20);
    const slowest: number[] = [];
    let scan: Record<string, any> = {};
    try {
      for (let i = 0; i < 600; i++) {
        const started = Date.now();
        const h = await t.request({ method: 'GET', url: '/healthz', key: null });
        slowest.push(Date.now() - started);
        expect(h.statusCode).toBe(200);
        scan = (await t.request({ method: 'GET', url: `/v1/scans/${id}` })).json();
        if (['finished', 'failed'].includes(scan.status)) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      clearInterval(timer);
    }
    expect(scan).toMatchObject({ status: 'finished', total_result: 1 });
    console.log(`engine thread: API max event-loop gap ${maxGap} ms, slowest health answer ${Math.max(...slowest)} ms`);
    expect(maxGap).toBeLessThan(700); // about 2 s when the engine shares the API thread
  }, 120_000);
});
