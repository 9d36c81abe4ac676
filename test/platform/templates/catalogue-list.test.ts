// The public catalogue as a list (/v1/template/public), its early-access set (/v1/template/early), and the
// template operations only the hosted platform can answer (POST /v1/template/ai). Answers are held to the
// hosted platform's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { makeCatalogue, SMALL, type Catalogue } from './fixtures.ts';

describe('catalogue lists and hosted-only template operations', () => {
  let t: TestApp;
  let ga: Catalogue;
  let early: Catalogue;

  async function call(method: 'GET' | 'POST', url: string, opts: { payload?: object; key?: string | null } = {}) {
    const res = await t.request({ method, url, ...opts });
    if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, res.statusCode, res.json());
    return res;
  }

  beforeAll(async () => {
    t = await createTestApp('pglite');
    ga = makeCatalogue(SMALL);
    early = makeCatalogue({
      'http/cves/2026/CVE-2026-0001.yaml': {
        id: 'CVE-2026-0001',
        name: 'Early Bird',
        severity: 'critical',
        cve: 'CVE-2026-0001',
      },
    });
    await importCatalogue(t.ctx.db, ga.dir);
    await importCatalogue(t.ctx.db, early.dir, { early: true });
  });
  afterAll(async () => {
    ga.cleanup();
    early.cleanup();
    await t.close();
  });

  it('lists the public catalogue by path, paged, without the early-access set', async () => {
    const viewer = await t.addUser('viewer@localhost', 'viewer');
    const all = await call('GET', '/v1/template/public', { key: viewer.key });
    expect(all.statusCode, all.body).toBe(200);
    const uris = Object.keys(SMALL).sort();
    expect(all.json()).toMatchObject({ total: uris.length, count: uris.length, message: 'ok' });
    expect(all.json().results.map((r: { uri: string }) => r.uri)).toEqual(uris);
    expect(
      all
        .json()
        .results.every(
          (r: { is_early: boolean; template_type: string }) => !r.is_early && r.template_type === 'public',
        ),
    ).toBe(true);

    const page = await call('GET', '/v1/template/public?offset=2&limit=3&fields=uri,severity');
    expect(page.json()).toMatchObject({ total: uris.length, count: 3 });
    expect(page.json().results.map((r: { uri: string }) => r.uri)).toEqual(uris.slice(2, 5));
    expect(Object.keys(page.json().results[0]).sort()).toEqual(['severity', 'uri']);

    expect((await call('GET', '/v1/template/public?limit=5000')).statusCode).toBe(400);
    expect((await call('GET', '/v1/template/public?fields=password')).statusCode).toBe(400);
    expect((await call('GET', '/v1/template/public', { key: null })).statusCode).toBe(401);
  });

  it('lists and reads the early-access templates', async () => {
    const list = await call('GET', '/v1/template/early');
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toMatchObject({ total: 1, count: 1 });
    expect(list.json().results[0]).toMatchObject({
      id: 'CVE-2026-0001',
      uri: 'http/cves/2026/CVE-2026-0001.yaml',
      is_early: true,
      name: 'Early Bird',
    });

    const byId = await call('GET', '/v1/template/early/CVE-2026-0001');
    expect(byId.statusCode).toBe(200);
    expect(byId.json().template).toMatchObject({ id: 'CVE-2026-0001', is_early: true, severity: 'critical' });
    const byPath = await call(
      'GET',
      `/v1/template/early/${encodeURIComponent('http/cves/2026/CVE-2026-0001.yaml')}?fields=id`,
    );
    expect(byPath.json().template).toEqual({ id: 'CVE-2026-0001' });
    // A generally available template is not an early one.
    expect((await call('GET', '/v1/template/early/CVE-2021-44228')).statusCode).toBe(404);
  });

  it('answers AI generation with a clear hosted-only error, after the role check', async () => {
    const res = await call('POST', '/v1/template/ai', { payload: { prompt: 'detect an exposed panel' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'hosted_only',
      status: 404,
      message: expect.stringMatching(/hosted ProjectDiscovery platform/),
    });
    expect((await call('POST', '/v1/template/ai', { payload: {} })).statusCode).toBe(400);
    const viewer = await t.addUser('viewer2@localhost', 'viewer');
    expect((await call('POST', '/v1/template/ai', { key: viewer.key, payload: { prompt: 'x' } })).statusCode).toBe(403);
  });
});
