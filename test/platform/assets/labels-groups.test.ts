// Labels by hand (by filter and on one asset) and by policy, found again by the labels filter; asset groups
// (by filter and static) that a scan targets through `assets`. Answers are held to the hosted platform's
// OpenAPI schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds } from '../../helpers/db.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, type AssetTestApp } from './fixtures.ts';

const pdcp = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, status, body);
};

describe.each(dbKinds())('asset labels and groups on %s', (kind) => {
  let t: AssetTestApp;
  let shop: TestServer;
  let admin: TestServer;
  let enumId = '';
  const call = async (method: string, url: string, payload?: unknown, key?: string) => {
    const res = await t.request({ method: method as 'GET', url, payload: payload as object, key });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const hosts = async (query: string) =>
    ((await call('GET', `/v1/asset/enumerate/contents?limit=1000&${query}`)).body.data as any[])
      .map((a) => `${a.host}${a.port ? ':' + a.port : ''}`)
      .sort();

  beforeAll(async () => {
    t = await createAssetApp(kind, { worker: false });
    shop = await startHttpServer((_req, res) => res.end('<title>Shop</title>'), { host: '127.0.0.5' });
    admin = await startHttpServer((_req, res) => res.end('<title>Admin</title>'), { host: '127.0.0.6' });
    const made = await call('POST', '/v1/asset/enumerate', {
      root_domains: ['127.0.0.5', '127.0.0.6'],
      enumeration_ports: `${shop.port},${admin.port}`,
      steps: ['port_scan', 'http_probe'],
    });
    expect(made.status).toBe(200);
    enumId = made.body.id;
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: 'j', name: ENUMERATE_JOB, data: { enumerationId: enumId, run: 1 }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([shop?.close(), admin?.close()]);
  });

  it('labels the assets a filter matches, and one asset by hand; the labels filter finds them', async () => {
    const all = await hosts('');
    expect(all).toEqual([`127.0.0.5:${shop.port}`, `127.0.0.6:${admin.port}`]);

    const byFilter = await call('PATCH', '/v1/asset/labels', { filters: { title: 'Shop' }, labels: ['prod', 'shop'] });
    expect(byFilter).toEqual({
      status: 200,
      body: { message: 'labels of 1 asset updated', asset_count: 1, async: false },
    });
    pdcp('PATCH', '/v1/asset/labels', 200, byFilter.body);
    expect(await hosts('labels=prod')).toEqual([`127.0.0.5:${shop.port}`]);

    const adminAsset = (await call('GET', `/v1/asset/enumerate/contents?title=Admin`)).body.data[0];
    const added = await call('POST', `/v1/asset/${adminAsset.id}/labels`, { labels: ['internal', 'prod'] });
    expect(added.status).toBe(200);
    pdcp('POST', `/v1/asset/${adminAsset.id}/labels`, 200, added.body);
    expect(await hosts('labels=prod')).toEqual(all);
    expect(await hosts('labels=internal')).toEqual([`127.0.0.6:${admin.port}`]);

    const removed = await call('PATCH', `/v1/asset/${adminAsset.id}/labels?update_type=delete`, { labels: ['prod'] });
    expect(removed.status).toBe(200);
    pdcp('PATCH', `/v1/asset/${adminAsset.id}/labels`, 200, removed.body);
    expect(await hosts('labels=prod')).toEqual([`127.0.0.5:${shop.port}`]);
    const replaced = await call('PATCH', `/v1/asset/${adminAsset.id}/labels?update_type=replace`, {
      labels: ['a', 'b'],
    });
    expect(replaced.status).toBe(200);
    expect((await call('GET', `/v1/asset/enumerate/contents?title=Admin`)).body.data[0].labels.sort()).toEqual([
      'a',
      'b',
    ]);
    const cleared = await call('DELETE', `/v1/asset/${adminAsset.id}/labels`);
    expect(cleared.status).toBe(200);
    pdcp('DELETE', `/v1/asset/${adminAsset.id}/labels`, 200, cleared.body);
    expect((await call('GET', `/v1/asset/enumerate/contents?title=Admin`)).body.data[0].labels).toEqual([]);

    // A policy labels by a filter that itself uses a label.
    const policy = await call('POST', '/v1/asset/policy', {
      name: 'tag prod shop',
      policy_type: 'set_label',
      policies: { labels: 'shop' },
      labels: ['pci'],
      apply_to_existing: true,
    });
    expect(policy.status, JSON.stringify(policy.body)).toBe(200);
    await t.waitRun(enumId, 1);
    const rescan = await call('POST', `/v1/asset/enumerate/${enumId}/rescan`);
    expect(rescan.status).toBe(200);
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: 'j2', name: ENUMERATE_JOB, data: { enumerationId: enumId, run: 2 }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
    expect(await hosts('labels=pci')).toEqual([`127.0.0.5:${shop.port}`]);

    // Errors in the platform's error schema.
    const bad = await call('PATCH', '/v1/asset/labels', { filters: {}, labels: ['a,b'] });
    expect(bad.status).toBe(400);
    expect(bad.body.param).toBe('labels[0]');
    pdcp('PATCH', '/v1/asset/labels', 400, bad.body);
    const missing = await call('POST', '/v1/asset/999999/labels', { labels: ['x'] });
    expect(missing.status).toBe(404);
    pdcp('POST', '/v1/asset/999999/labels', 404, missing.body);
  });

  it('groups assets by filter and statically; a scan targets a group by its id', async () => {
    const dynamic = await call('POST', '/v1/asset/enumerate/group', { name: 'shop', filters: { labels: 'shop' } });
    expect(dynamic.status).toBe(200);
    pdcp('POST', '/v1/asset/enumerate/group', 200, dynamic.body);
    const fixed = await call('POST', '/v1/asset/enumerate/group', {
      name: 'admin now',
      filters: { title: 'Admin' },
      static: true,
    });
    expect(fixed.status).toBe(200);
    const listed = await call('GET', '/v1/asset/enumerate/group');
    expect(listed.body.data.map((g: any) => [g.name, g.static, g.total_assets])).toEqual([
      ['admin now', true, 1],
      ['shop', false, undefined],
    ]);

    const scan = async (assets: string[]) => {
      const res = await call('POST', '/v1/scans', {
        assets,
        private_templates: [{ name: 'a.yaml', contents: TEMPLATE }],
        schedule_only: true,
      });
      return res;
    };
    const s1 = await scan([dynamic.body.id]);
    expect(s1.status, JSON.stringify(s1.body)).toBe(200);
    const cfg = (await call('GET', `/v1/scans/${s1.body.id}/config`)).body;
    expect(cfg.targets).toEqual([`http://127.0.0.5:${shop.port}`]);
    expect(cfg.assets_lists).toEqual([dynamic.body.id]);

    // append widens the filter; the static group keeps its members, replace recomputes them.
    const patched = await call('PATCH', `/v1/asset/enumerate/group/${dynamic.body.id}`, {
      filters: { labels: 'internal,a' },
    });
    expect(patched.status).toBe(200);
    pdcp('PATCH', `/v1/asset/enumerate/group/${dynamic.body.id}`, 200, patched.body);
    const s2 = await scan([dynamic.body.id, fixed.body.id]);
    expect((await call('GET', `/v1/scans/${s2.body.id}/config`)).body.targets.sort()).toEqual([
      `http://127.0.0.5:${shop.port}`,
      `http://127.0.0.6:${admin.port}`,
    ]);
    const replaced = await call('PATCH', `/v1/asset/enumerate/group/${fixed.body.id}?update_type=replace`, {
      filters: { title: 'Nothing here' },
    });
    expect(replaced.status).toBe(200);
    const s3 = await scan([fixed.body.id]);
    expect(s3.status).toBe(400);
    expect(s3.body.param).toBe('targets');

    const unknown = await scan(['grp_nope']);
    expect(unknown).toMatchObject({ status: 400, body: { param: 'assets[0]' } });
    const del = await call('DELETE', `/v1/asset/enumerate/group/${fixed.body.id}`);
    expect(del.status).toBe(200);
    pdcp('DELETE', `/v1/asset/enumerate/group/${fixed.body.id}`, 200, del.body);
    const again = await call('DELETE', `/v1/asset/enumerate/group/${fixed.body.id}`);
    expect(again.status).toBe(404);
    pdcp('DELETE', `/v1/asset/enumerate/group/${fixed.body.id}`, 404, again.body);
  });
});

const TEMPLATE = `id: a
info: {name: a, severity: info, author: t}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers: [{type: word, words: ["Shop"]}]
`;
