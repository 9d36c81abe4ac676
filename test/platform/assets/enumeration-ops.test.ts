// Bulk delete, the launch configuration read and changed on its own, and the history of runs; answers held
// to the hosted platform's OpenAPI schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { getJobHandler, type JobContext } from '../../../src/platform/worker/registry.ts';
import { ENUMERATE_JOB, createAssetApp, otherTeamUser, type AssetTestApp } from './fixtures.ts';
import { isoDuration } from '../../../src/platform/assets/enumeration-ops.ts';

const pdcp = (method: string, url: string, status: number, body: unknown) => {
  if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, status, body);
};

describe('enumeration config, history and bulk delete', () => {
  let t: AssetTestApp;
  let web: TestServer;
  const call = async (method: string, url: string, payload?: unknown, key?: string) => {
    const res = await t.request({ method: method as 'GET', url, payload: payload as object, key });
    return { status: res.statusCode, body: res.body ? res.json() : undefined };
  };
  const runJob = async (enumerationId: string, run: number) => {
    const ctx: JobContext = { ...t.ctx, queue: t.boss, signal: new AbortController().signal };
    await getJobHandler(ENUMERATE_JOB)!.handler(
      { id: `j${run}`, name: ENUMERATE_JOB, data: { enumerationId, run }, retryCount: 0, retryLimit: 1 },
      ctx,
    );
  };
  beforeAll(async () => {
    t = await createAssetApp('pglite', { worker: false });
    web = await startHttpServer((_req, res) => res.end('<title>Ops</title>'), { host: '127.0.0.9' });
  });
  afterAll(async () => {
    await t?.close();
    await web?.close();
  });

  it('reads and changes the launch configuration (append and replace)', async () => {
    const made = await call('POST', '/v1/asset/enumerate', {
      name: 'cfg',
      root_domains: ['127.0.0.9'],
      enumeration_ports: String(web.port),
      steps: ['port_scan'],
      enumeration_config: { timeout: 3, provider_config: 'shodan: [secret-key]' },
    });
    const id = made.body.id;
    const cfg = await call('GET', `/v1/asset/enumerate/${id}/config`);
    expect(cfg.status).toBe(200);
    pdcp('GET', `/v1/asset/enumerate/${id}/config`, 200, cfg.body);
    expect(cfg.body).toMatchObject({
      name: 'cfg',
      root_domains: ['127.0.0.9'],
      steps: ['port_scan'],
      enum_ports: String(web.port),
      enumeration_config: { timeout: 3, provider_config: '****' },
    });
    expect(JSON.stringify(cfg.body)).not.toContain('secret-key');

    const appended = await call('PATCH', `/v1/asset/enumerate/${id}/config`, {
      steps: ['http_probe'],
      exclusions: ['127.0.0.10'],
      enumeration_config: { concurrency: 5 },
    });
    expect(appended.status, JSON.stringify(appended.body)).toBe(200);
    pdcp('PATCH', `/v1/asset/enumerate/${id}/config`, 200, appended.body);
    const after = (await call('GET', `/v1/asset/enumerate/${id}/config`)).body;
    expect(after.steps).toEqual(['port_scan', 'http_probe']);
    expect(after.exclusions).toEqual(['127.0.0.10']);
    expect(after.enumeration_config).toMatchObject({ timeout: 3, concurrency: 5, provider_config: '****' });
    const replaced = await call('PATCH', `/v1/asset/enumerate/${id}/config?update_type=replace`, {
      steps: ['port_scan', 'http_probe'],
      enumeration_config: { timeout: 2 },
    });
    expect(replaced.status).toBe(200);
    expect((await call('GET', `/v1/asset/enumerate/${id}/config`)).body.enumeration_config).toEqual({ timeout: 2 });

    const bad = await call('PATCH', `/v1/asset/enumerate/${id}/config`, { enum_ports: '70000' });
    expect(bad).toMatchObject({ status: 400, body: { param: 'enumeration_ports' } });
    pdcp('PATCH', `/v1/asset/enumerate/${id}/config`, 400, bad.body);
    const missing = await call('GET', '/v1/asset/enumerate/nope/config');
    expect(missing.status).toBe(404);
    pdcp('GET', '/v1/asset/enumerate/nope/config', 404, missing.body);
  });

  it('lists the runs of an enumeration, newest first', async () => {
    const made = await call('POST', '/v1/asset/enumerate', {
      root_domains: ['127.0.0.9'],
      enumeration_ports: String(web.port),
      steps: ['port_scan', 'http_probe'],
    });
    const id = made.body.id;
    await runJob(id, 1);
    expect((await call('POST', `/v1/asset/enumerate/${id}/rescan`)).status).toBe(200);
    await runJob(id, 2);
    const h = await call('GET', `/v1/asset/enumerate/${id}/history`);
    expect(h.status).toBe(200);
    pdcp('GET', `/v1/asset/enumerate/${id}/history`, 200, h.body);
    expect(h.body.data.map((r: any) => [r.run, r.status, r.new_assets_discovered, r.total_targets_processed])).toEqual([
      [2, 'finished', 0, 1],
      [1, 'finished', 1, 1],
    ]);
    expect(h.body.total_results).toBe(2);
    const bad = await call('GET', `/v1/asset/enumerate/${id}/history?time_range=forever`);
    expect(bad).toMatchObject({ status: 400, body: { param: 'time_range' } });
    expect(isoDuration(65_000)).toBe('PT1M5S');
    expect(isoDuration(0)).toBe('PT0S');
    expect(isoDuration(3_600_000)).toBe('PT1H');
  });

  it('deletes enumerations and single assets in bulk, all or nothing', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const made = await call('POST', '/v1/asset/enumerate', {
        root_domains: ['127.0.0.9'],
        enumeration_ports: String(web.port),
        steps: ['port_scan', 'http_probe'],
      });
      ids.push(made.body.id);
      await runJob(made.body.id, 1);
    }
    const asset = (await call('GET', `/v1/asset/enumerate/${ids[1]}/contents`)).body.data[0];
    const other = await otherTeamUser(t, 'bulk-other@localhost');
    const theirs = await call('POST', '/v1/asset/enumerate', { root_domains: ['127.0.0.9'] }, other.key);

    const refused = await call('DELETE', '/v1/asset/enumerate', { asset_ids: [ids[0], theirs.body.id] });
    expect(refused).toMatchObject({ status: 404, body: { param: 'asset_ids[1]' } });
    pdcp('DELETE', '/v1/asset/enumerate', 404, refused.body);
    expect((await call('GET', `/v1/asset/enumerate/${ids[0]}`)).status).toBe(200);

    const done = await call('DELETE', '/v1/asset/enumerate', { asset_ids: [ids[0], String(asset.id)] });
    expect(done).toEqual({ status: 200, body: { message: '1 enumeration and 1 asset deleted' } });
    pdcp('DELETE', '/v1/asset/enumerate', 200, done.body);
    expect((await call('GET', `/v1/asset/enumerate/${ids[0]}`)).status).toBe(404);
    expect((await call('GET', `/v1/asset/enumerate/${ids[1]}/contents`)).body.total_results).toBe(0);
    expect((await call('GET', `/v1/asset/enumerate/${theirs.body.id}`, undefined, other.key)).status).toBe(200);
  });
});
