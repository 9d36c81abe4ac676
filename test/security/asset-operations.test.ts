// Attack tests of the asset operations of issue 27 (labels, groups, enumeration schedules, config and
// history, bulk delete, exports, insights) and the key and default-member operations: another team's ids
// reach nothing and change nothing, bad input is a 4xx naming the problem, and CSV exports neutralise
// spreadsheet formulas an attacker put in the inventory (page titles, labels).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { getJobHandler, type JobContext } from '../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, otherTeamUser, type AssetTestApp } from '../platform/assets/fixtures.ts';

const FORMULA_TITLE = `=cmd|' /C calc'!A0`;

describe('asset operations under attack', () => {
  let t: AssetTestApp;
  let web: TestServer;
  let b: { key: string; teamId: string };
  let enumId = '';
  let assetId = '';
  let groupId = '';
  let scanId = '';
  const call = async (method: string, url: string, payload?: unknown, key?: string) => {
    const res = await t.request({ method: method as 'GET', url, payload: payload as object, key });
    let body: any;
    try {
      body = res.json();
    } catch {
      body = res.body;
    }
    return { status: res.statusCode, body, raw: res.body };
  };
  const labelsOfA = async () => (await call('GET', `/v1/asset/enumerate/${enumId}/contents`)).body.data[0].labels;

  beforeAll(async () => {
    t = await createAssetApp('pglite', { worker: false });
    web = await startHttpServer((_req, res) => res.end(`<title>${FORMULA_TITLE}</title>`), { host: '127.0.0.16' });
    b = await otherTeamUser(t, 'attacker@localhost');
    const made = await call('POST', '/v1/asset/enumerate', {
      root_domains: ['127.0.0.16'],
      enumeration_ports: String(web.port),
      steps: ['port_scan', 'http_probe'],
      enumeration_config: { technology_templates: [] },
    });
    enumId = made.body.id;
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: 'j', name: ENUMERATE_JOB, data: { enumerationId: enumId, run: 1 }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
    assetId = String((await call('GET', `/v1/asset/enumerate/${enumId}/contents`)).body.data[0].id);
    expect((await call('POST', `/v1/asset/${assetId}/labels`, { labels: ['mine'] })).status).toBe(200);
    groupId = (await call('POST', '/v1/asset/enumerate/group', { name: 'a', filters: { labels: 'mine' } })).body.id;
    expect(
      (await call('POST', '/v1/enumeration/schedule', { enumeration_id: enumId, scan_frequency: 'daily' })).status,
    ).toBe(200);
    const scan = await call('POST', '/v1/scans', {
      assets: [groupId],
      private_templates: [
        {
          name: 'a.yaml',
          contents:
            'id: a\ninfo: {name: a, severity: info, author: t}\nhttp:\n  - path: ["{{BaseURL}}/"]\n    matchers: [{type: word, words: [zzz]}]\n',
        },
      ],
      schedule_only: true,
    });
    expect(scan.status, scan.raw).toBe(200);
    scanId = scan.body.id;
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it("another team's ids reach nothing and change nothing", async () => {
    const k = b.key;
    for (const [method, url, payload] of [
      ['POST', `/v1/asset/${assetId}/labels`, { labels: ['pwned'] }],
      ['PATCH', `/v1/asset/${assetId}/labels?update_type=replace`, { labels: ['pwned'] }],
      ['DELETE', `/v1/asset/${assetId}/labels`, undefined],
      ['PATCH', `/v1/asset/enumerate/group/${groupId}`, { filters: {} }],
      ['DELETE', `/v1/asset/enumerate/group/${groupId}`, undefined],
      ['GET', `/v1/asset/enumerate/group/${groupId}`, undefined],
      ['DELETE', `/v1/enumeration/schedule?enumeration_id=${enumId}`, undefined],
      ['GET', `/v1/asset/enumerate/${enumId}/config`, undefined],
      ['PATCH', `/v1/asset/enumerate/${enumId}/config?update_type=replace`, { root_domains: ['127.0.0.99'] }],
      ['GET', `/v1/asset/enumerate/${enumId}/history`, undefined],
      ['DELETE', '/v1/asset/enumerate', { asset_ids: [enumId] }],
      ['DELETE', '/v1/asset/enumerate', { asset_ids: [assetId] }],
      ['GET', `/v1/asset/enumerate/${enumId}/export?format=csv`, undefined],
      ['GET', `/v1/asset/enumerate/${enumId}/domains/export`, undefined],
      ['GET', `/v1/scans/${scanId}/asset/export`, undefined],
    ] as const) {
      const res = await call(method, url, payload, k);
      expect(res.status, `${method} ${url}: ${res.raw}`).toBe(404);
      expect(res.raw).not.toContain('127.0.0.16');
    }
    // Filters and scans of team B see only team B's inventory, even naming A's enumeration.
    const byFilter = await call(
      'PATCH',
      '/v1/asset/labels',
      { filters: { enumeration_ids: [enumId] }, labels: ['pwned'] },
      k,
    );
    expect(byFilter.body.asset_count).toBe(0);
    expect((await call('PATCH', '/v1/asset/labels', { filters: {}, labels: ['pwned'] }, k)).body.asset_count).toBe(0);
    const scanA = await call('POST', '/v1/scans', { assets: [groupId], templates: ['x'] }, k);
    expect(scanA).toMatchObject({ status: 400, body: { param: 'assets[0]' } });
    const theirGroup = await call(
      'POST',
      '/v1/asset/enumerate/group',
      { filters: { enumeration_ids: [enumId] }, static: true },
      k,
    );
    expect(theirGroup.status).toBe(200);
    expect(
      (await call('GET', `/v1/asset/enumerate/group/${theirGroup.body.id}`, undefined, k)).body.data.total_assets,
    ).toBe(0);
    const sched = await call(
      'POST',
      '/v1/enumeration/schedule',
      { enumeration_id: enumId, scan_frequency: 'hourly' },
      k,
    );
    expect(sched).toMatchObject({ status: 400, body: { param: 'enumeration_id' } });
    expect((await call('GET', '/v1/enumeration/schedule', undefined, k)).body.schedules).toEqual([]);
    expect((await call('GET', '/v1/asset/enumerate/export', undefined, k)).body).toEqual([]);
    expect((await call('GET', '/v1/asset/enumerate/misconfiguration', undefined, k)).body.total_results).toBe(0);
    expect((await call('GET', `/v1/asset/policy/suggestion?enumeration_id=${enumId}`, undefined, k)).status).toBe(400);

    // Team A still has all of it, unchanged.
    expect(await labelsOfA()).toEqual(['mine']);
    expect((await call('GET', `/v1/asset/enumerate/group/${groupId}`)).status).toBe(200);
    expect((await call('GET', '/v1/enumeration/schedule')).body.schedules).toHaveLength(1);
    expect((await call('GET', `/v1/asset/enumerate/${enumId}/config`)).body.root_domains).toEqual(['127.0.0.16']);
  });

  it('bad input is a 4xx naming the problem, and stores nothing', async () => {
    const cases: [string, string, unknown, RegExp | string][] = [
      ['POST', `/v1/asset/${assetId}/labels`, { labels: ['a,b'] }, 'labels[0]'],
      ['POST', `/v1/asset/${assetId}/labels`, { labels: ['x\u0000y'] }, 'labels[0]'],
      ['POST', `/v1/asset/${assetId}/labels`, { labels: ['   '] }, 'labels[0]'],
      ['POST', `/v1/asset/${assetId}/labels`, { labels: [] }, 'labels'],
      ['POST', `/v1/asset/${assetId}/labels`, { labels: ['x'.repeat(201)] }, /labels/],
      ['POST', `/v1/asset/${assetId}/labels`, { labels: Array.from({ length: 101 }, (_, i) => `l${i}`) }, /labels/],
      ['POST', '/v1/asset/abc/labels', { labels: ['x'] }, 'asset_id'],
      ['POST', '/v1/asset/1%20OR%201=1/labels', { labels: ['x'] }, 'asset_id'],
      ['PATCH', `/v1/asset/${assetId}/labels?update_type=drop`, { labels: ['x'] }, /update_type/],
      ['PATCH', '/v1/asset/labels', { filters: { custom_filter: 'host=*' }, labels: ['x'] }, 'filters.custom_filter'],
      ['PATCH', '/v1/asset/labels', { filters: { port: '1;DROP TABLE assets' }, labels: ['x'] }, 'filters.port'],
      ['PATCH', '/v1/asset/labels', { filters: { nope: 1 }, labels: ['x'] }, 'filters.nope'],
      ['POST', '/v1/asset/enumerate/group', { filters: {}, name: '  ' }, 'name'],
      ['POST', '/v1/asset/enumerate/group', { name: 'no filters' }, /filters/],
      ['PATCH', `/v1/asset/enumerate/group/${groupId}?update_type=merge`, { filters: {} }, /update_type/],
      [
        'POST',
        '/v1/enumeration/schedule',
        { enumeration_id: "x' OR '1'='1", scan_frequency: 'daily' },
        'enumeration_id',
      ],
      [
        'POST',
        '/v1/enumeration/schedule',
        { enumeration_id: enumId, scan_frequency: 'daily', custom_weekdays: [9] },
        'custom_weekdays',
      ],
      ['PATCH', `/v1/asset/enumerate/${enumId}/config`, { root_domains: ['169.254.169.254'] }, /root_domains/],
      ['PATCH', `/v1/asset/enumerate/${enumId}/config`, { enrichment_inputs: ['x'] }, /enrichment_inputs/],
      ['GET', `/v1/asset/enumerate/${enumId}/history?time_range=always`, undefined, 'time_range'],
      ['DELETE', '/v1/asset/enumerate', { asset_ids: [] }, 'asset_ids'],
      ['GET', '/v1/asset/enumerate/export?format=xlsx', undefined, 'format'],
      ['GET', '/v1/asset/enumerate/export?sort_asc=host;DROP', undefined, 'sort_asc'],
      ['GET', '/v1/asset/enumerate/misconfiguration?finding_type=all', undefined, 'finding_type'],
      ['GET', '/v1/asset/policy/suggestion?threshold=-5', undefined, /threshold/],
    ];
    for (const [method, url, payload, param] of cases) {
      const res = await call(method, url, payload);
      expect(res.status, `${method} ${url} ${JSON.stringify(payload)?.slice(0, 80)}: ${res.raw}`).toBe(400);
      expect(typeof res.body.message).toBe('string');
      if (typeof param === 'string') expect(res.body.param, `${method} ${url}`).toBe(param);
      else expect(JSON.stringify(res.body)).toMatch(param);
    }
    expect(await labelsOfA()).toEqual(['mine']);
    expect((await call('GET', `/v1/asset/enumerate/${enumId}/config`)).body.root_domains).toEqual(['127.0.0.16']);
    expect((await call('GET', '/v1/enumeration/schedule')).body.schedules[0].scan_frequency).toBe('daily');
  });

  it('CSV exports neutralise formulas from titles and labels; JSON keeps the text as it is', async () => {
    const labels = ['=1+1', '+SUM(A1)', '-2+3', '@cmd'];
    expect((await call('PATCH', `/v1/asset/${assetId}/labels?update_type=replace`, { labels })).status).toBe(200);
    const csv = await call('GET', `/v1/asset/enumerate/${enumId}/export?format=csv`);
    const [row] = parse(csv.raw, { columns: true }) as Record<string, string>[];
    expect(row!.title).toBe(`'${FORMULA_TITLE}`);
    // Lists are one cell ("; " between items): it starts with the first label, neutralised.
    expect(row!.labels.startsWith("'")).toBe(true);
    for (const cell of Object.values(row!)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    const json = (await call('GET', `/v1/asset/enumerate/${enumId}/export`)).body;
    expect(json[0].title).toBe(FORMULA_TITLE);
    expect([...json[0].labels].sort()).toEqual([...labels].sort());
    // Each label alone in a cell of its own is neutralised too (one label per asset).
    for (const l of labels) {
      await call('PATCH', `/v1/asset/${assetId}/labels?update_type=replace`, { labels: [l] });
      const [r] = parse((await call('GET', '/v1/asset/enumerate/export?format=csv')).raw, { columns: true }) as Record<
        string,
        string
      >[];
      expect(r!.labels).toBe(`'${l}`);
    }
  });

  it("revoking one's key leaves everyone else's working", async () => {
    const other = await t.addUser('bystander@localhost', 'member');
    const victim = await t.addUser('revoker@localhost', 'member');
    expect((await call('DELETE', '/v1/user/apikey', undefined, victim.key)).status).toBe(200);
    expect((await call('GET', '/v1/user', undefined, other.key)).status).toBe(200);
    expect((await call('GET', '/v1/user')).status).toBe(200);
    expect((await call('GET', '/v1/user', undefined, victim.key)).status).toBe(401);
    // Default members are the instance owner's to set: another team's owner may not.
    expect((await call('POST', '/v1/user/team/default-members', { members: [] }, b.key)).status).toBe(403);
  });
});
