// Enumerations cannot freeze the API or fill its heap: the work of an enumeration (address-port pairs,
// brute-forced names) is bounded and refused arithmetically at create, update and rescan; a run's steps
// (range expansion, port scanning, probing, fingerprint templates) run off the API's event loop.
import net from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { waitFor } from '../helpers/queue.ts';
import { ENUMERATE_JOB, createAssetApp, type AssetTestApp } from '../platform/assets/fixtures.ts';
import { getJobHandler, type JobContext } from '../../src/platform/worker/registry.ts';
import { stageFound } from '../../src/platform/assets/store.ts';
import { factsOf } from '../../src/platform/assets/run.ts';
import { closeEngineThreads, useEngineThreads } from '../../src/platform/scans/engine-pool.ts';

/** n distinct /16 ranges: 11.0.0.0/16, 11.1.0.0/16 ... (never run: the app that takes them has no worker). */
const sixteens = (n: number) => Array.from({ length: n }, (_, i) => `${11 + (i >> 8)}.${i & 255}.0.0/16`);

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

const percentile = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;

describe('enumeration limits', () => {
  let t: AssetTestApp;
  beforeAll(async () => {
    t = await createAssetApp('pglite', { worker: false });
  });
  afterAll(async () => t?.close());

  it('refuses 1,000 /16 roots with every port in under a second, naming the limit and the field', async () => {
    const roots = sixteens(1000);
    expect(new Set(roots).size).toBe(1000);
    // The route's first request compiles its schemas and code: warmed with a small refused request first.
    const cold = performance.now();
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/asset/enumerate',
          payload: { root_domains: ['10.0.0.0/16', '10.1.0.0/16'], enumeration_ports: 'full' },
        })
      ).statusCode,
    ).toBe(400);
    console.log(`first (cold) refusal of 2 x /16 with full ports: ${(performance.now() - cold).toFixed(0)} ms`);
    const started = performance.now();
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: roots, enumeration_ports: 'full' },
    });
    const ms = performance.now() - started;
    console.log(`1,000 x /16 with full ports: ${res.statusCode} in ${ms.toFixed(0)} ms: ${res.json().message}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_request', status: 400, param: 'root_domains' });
    expect(res.json().message).toMatch(
      /would probe 4,294,901,760,000 address-port pairs; the limit is 16,777,216 \(VIGIL_MAX_ENUMERATION_PROBES\)/,
    );
    expect(ms).toBeLessThan(1000);
    expect((await t.request({ method: 'GET', url: '/v1/asset/enumerate' })).json().total_results).toBe(0);
  });

  it('counts after exclusions and overlaps: a /24 excluded from a /16 leaves 65,280 addresses', async () => {
    // 65,280 x 257 ports = 16,776,960 pairs: within the limit; without the exclusion 16,842,752 are not.
    const ports = '1-257';
    const over = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: ['10.9.0.0/16', '10.9.3.0/24'], enumeration_ports: ports },
    });
    expect(over.statusCode, over.body).toBe(400);
    expect(over.json()).toMatchObject({ param: 'enumeration_ports' });
    expect(over.json().message).toMatch(/16,842,752 address-port pairs/);
    const ok = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: ['10.9.0.0/16'], exclusions: ['10.9.3.0/24'], enumeration_ports: ports },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${ok.json().id}` });
  });

  it('bounds brute-forced names, updates and stored enumerations run later', async () => {
    const words = Array.from({ length: 100_000 }, (_, i) => `w${i}`);
    const roots = Array.from({ length: 20 }, (_, i) => `example${i}.test`);
    const names = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: roots, steps: ['dns_bruteforce'], enumeration_config: { wordlist: words } },
    });
    expect(names.statusCode, names.body).toBe(400);
    expect(names.json()).toMatchObject({ param: 'enumeration_config.wordlist' });
    expect(names.json().message).toMatch(
      /would try 2,000,000 names; the limit is 1,000,000 \(VIGIL_MAX_ENUMERATION_NAMES\)/,
    );

    const made = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: ['10.8.0.0/24'], enumeration_ports: '80' },
    });
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().id;
    const patch = await t.request({
      method: 'PATCH',
      url: `/v1/asset/enumerate/${id}`,
      payload: { root_domains: sixteens(1000), enumeration_ports: 'full' },
    });
    expect(patch.statusCode, patch.body).toBe(400);
    expect(patch.json().message).toMatch(/VIGIL_MAX_ENUMERATION_PROBES/);
    // A stored enumeration over a limit lowered since is refused when it is run again.
    const saved = t.ctx.config.maxEnumerationProbes;
    t.ctx.config.maxEnumerationProbes = 100;
    try {
      await t.ctx.db.query(`UPDATE asset_enumerations SET status = 'finished', done_run = run WHERE id = $1`, [id]);
      const rescan = await t.request({ method: 'POST', url: `/v1/asset/enumerate/${id}/rescan` });
      expect(rescan.statusCode, rescan.body).toBe(400);
      expect(rescan.json().message).toMatch(
        /would probe 256 address-port pairs; the limit is 100 \(VIGIL_MAX_ENUMERATION_PROBES\)/,
      );
      // A run of it already queued is refused when it starts (not retried), and leaves nothing staged.
      await t.ctx.db.query(`UPDATE asset_enumerations SET status = 'queued', done_run = 0 WHERE id = $1`, [id]);
      await stageFound(t.ctx.db, id, 1, 'crashed-attempt', [
        factsOf({ host: '10.8.0.1', port: 80, ip: ['10.8.0.1'], cname: [], sources: ['root'] }),
      ]);
      const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
      const out = await getJobHandler(ENUMERATE_JOB)!.handler(
        { id: 'test', name: ENUMERATE_JOB, data: { enumerationId: id, run: 1 }, retryCount: 0, retryLimit: 2 },
        ctx,
      );
      expect(out).toEqual({ outcome: 'refused' });
      const data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
      expect(data).toMatchObject({ status: 'failed', total_assets: 0 });
      expect(data.failure_reason).toMatch(
        /^the run was refused: enumeration would probe 256 address-port pairs; the limit is 100/,
      );
      expect((await t.ctx.db.query('SELECT count(*)::int AS n FROM enumeration_found')).rows[0]).toEqual({ n: 0 });
    } finally {
      t.ctx.config.maxEnumerationProbes = saved;
    }
    await t.request({ method: 'DELETE', url: `/v1/asset/enumerate/${id}` });
  });
});

describe('enumeration runs off the API thread', () => {
  // The largest enumeration this app allows: 127.0.0.0/16 x 2 ports, one of them open on 127.0.0.1.
  const LIMIT = 65_536 * 2;
  let t: AssetTestApp;
  let web: TestServer;
  beforeAll(async () => {
    useEngineThreads(1);
    t = await createAssetApp('pglite', { config: { maxEnumerationProbes: LIMIT } });
    web = await startHttpServer((_q, res) => res.end('<title>heavy!!!</title>'));
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
    await closeEngineThreads();
  });

  /** Requests GET /v1/user (one at a time) until the enumeration's run 1 ends; latencies, loop gap, heap. */
  async function measureUntilDone(id: string, timeoutMs: number) {
    const latencies: number[] = [];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const heapBefore = process.memoryUsage().heapUsed;
    let heapMax = heapBefore;
    let data: Record<string, any> = {};
    const end = Date.now() + timeoutMs;
    try {
      for (;;) {
        const started = performance.now();
        const res = await t.request({ method: 'GET', url: '/v1/user' });
        latencies.push(performance.now() - started);
        expect(res.statusCode).toBe(200);
        heapMax = Math.max(heapMax, process.memoryUsage().heapUsed);
        if (latencies.length % 10 === 0) {
          data = (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` })).json().data;
          if (data.status === 'finished' || data.status === 'failed') break;
        }
        if (Date.now() > end) throw new Error(`the enumeration did not finish within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    } finally {
      loop.disable();
    }
    return { latencies, maxGapMs: loop.max / 1e6, heapGrowthMb: (heapMax - heapBefore) / 2 ** 20, data };
  }

  it('the largest allowed enumeration (127.0.0.0/16 x 2 ports) leaves GET /v1/user answering, p99 under 200 ms', async () => {
    const ports = `${web.port},${await closedPort()}`;
    const over = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: { root_domains: ['127.0.0.0/16', '127.1.0.0/31'], enumeration_ports: ports },
    });
    expect(over.statusCode, over.body).toBe(400);
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        root_domains: ['127.0.0.0/16'],
        enumeration_ports: ports,
        enumeration_config: { concurrency: 200, timeout: 2, technology_templates: [] },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const m = await measureUntilDone(id, 600_000);
    const p99 = percentile(m.latencies, 99);
    console.log(
      `127.0.0.0/16 x 2 ports (${LIMIT.toLocaleString('en-US')} probes): ${m.latencies.length} GET /v1/user, p50 ${percentile(m.latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${Math.max(...m.latencies).toFixed(1)} ms; largest event-loop delay ${m.maxGapMs.toFixed(0)} ms; API heap growth ${m.heapGrowthMb.toFixed(0)} MB; run ${m.data.enumeration_time_elapsed}`,
    );
    expect(m.data.status, m.data.failure_reason).toBe('finished');
    const found = (
      await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents?port=${web.port}` })
    ).json();
    expect(found.data.map((a: any) => a.name)).toContain(`http://127.0.0.1:${web.port}/`);
    expect(m.latencies.length).toBeGreaterThan(50);
    expect(p99).toBeLessThan(200);
    // The addresses are walked on the discovery thread, never listed on the API's (1.6 s and 199 MB when they were).
    expect(m.maxGapMs).toBeLessThan(1000);
    expect(m.heapGrowthMb).toBeLessThan(100);
  }, 660_000);

  it('a private technology template of 300 heavy DSL matchers does not stall the API', async () => {
    // Each matcher hashes an 8 MB string: seconds of CPU for the one web asset.
    const heavy = `id: heavy-tech
info:
  name: heavy tech
  author: vigil
  severity: info
  tags: tech
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers-condition: and
    matchers:
${Array.from({ length: 300 }, (_, i) => `      - type: dsl\n        dsl: ['len(sha256(repeat(body, 400000)) + "${i}") > 0']`).join('\n')}
      - type: word
        name: heavycms
        words: ["heavy!!!"]
`;
    const tpl = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: heavy, filename: 'heavy-tech.yaml' },
    });
    expect(tpl.statusCode, tpl.body).toBe(200);
    const res = await t.request({
      method: 'POST',
      url: '/v1/asset/enumerate',
      payload: {
        root_domains: ['127.0.0.1'],
        enumeration_ports: String(web.port),
        enumeration_config: { technology_templates: ['heavy-tech'], timeout: 60 },
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().id;
    const m = await measureUntilDone(id, 300_000);
    console.log(
      `heavy technology template: largest event-loop delay ${m.maxGapMs.toFixed(0)} ms, slowest GET /v1/user ${Math.max(...m.latencies).toFixed(0)} ms over ${m.latencies.length} requests`,
    );
    expect(m.data.status, m.data.failure_reason).toBe('finished');
    const asset = await waitFor(
      async () => (await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}/contents` })).json().data[0],
    );
    // The template did run: its matcher named the technology.
    expect(asset.technologies).toContain('heavycms');
    expect(m.maxGapMs).toBeLessThan(700);
  }, 360_000);
});
