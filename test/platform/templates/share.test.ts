// Sharing a private template by link (/v1/template/share): the owner team shares, lists, extends and
// revokes; anyone with the link reads the template read-only. Every answer is held to the hosted
// platform's schemas.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';
import { createTeamWithOwner, issueKey } from '../../../src/platform/auth/service.ts';
import { templateText } from './fixtures.ts';

describe.each(dbKinds())('template sharing on %s', (kind) => {
  let t: TestApp;
  let viewer: TestUser;
  let otherKey: string;
  let templateId: string;
  const text = templateText({ id: 'shared-panel', name: 'Shared Panel', severity: 'low', tags: ['panel'] });

  /** Sends a request and checks its answer, success or error, against the hosted platform's schema. */
  async function call(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    opts: { payload?: object; key?: string | null } = {},
  ) {
    const res = await t.request({ method, url, ...opts });
    if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, res.statusCode, res.json());
    return res;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    viewer = await t.addUser('viewer@localhost', 'viewer');
    const other = await createTeamWithOwner(t.ctx.db, 'other@localhost', 'Other');
    otherKey = await issueKey(t.ctx.db, other.userId);
    const created = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: text, filename: 'panel.yaml' },
    });
    templateId = created.json().template_id;
  });
  afterAll(async () => {
    await t.close();
  });

  it('shares a private template by link; another team reads it through the link, read-only', async () => {
    const shared = await call('POST', '/v1/template/share', {
      payload: { template_id: templateId, share_type: 'unlisted', ttl: '2d' },
    });
    expect(shared.statusCode, shared.body).toBe(200);
    const result = shared.json().result;
    expect(result).toMatchObject({
      template_id: templateId,
      share_type: 'unlisted',
      ttl: '2d',
      share_token: expect.stringMatching(/^vts_[\w-]{43}$/),
    });
    expect(result.share_path).toBe(`/v1/template/share/${result.share_token}`);
    const expires = Date.parse(result.expires_at) - Date.now();
    expect(expires).toBeGreaterThan(47 * 3600_000);
    expect(expires).toBeLessThanOrEqual(48 * 3600_000);

    const read = await call('GET', result.share_path, { key: otherKey });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().result).toMatchObject({
      template_id: templateId,
      name: 'Shared Panel',
      raw: text,
      template_type: 'shared',
      share_type: 'unlisted',
      ttl: '2d',
      expires_at: result.expires_at,
    });
    // The link alone is enough, as in the hosted platform; fields narrows the record.
    const some = await call('GET', `${result.share_path}?fields=name,severity`, { key: null });
    expect(some.statusCode).toBe(200);
    expect(some.json().result).toEqual({
      name: 'Shared Panel',
      severity: 'low',
      share_type: 'unlisted',
      ttl: '2d',
      expires_at: result.expires_at,
    });

    // The other team cannot change, revoke or re-share it, nor read it as one of its own.
    expect(
      (await call('PATCH', `/v1/template/share/${templateId}`, { key: otherKey, payload: { ttl: '30d' } })).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/v1/template/share/${templateId}`, { key: otherKey })).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/v1/template/share', {
          key: otherKey,
          payload: { template_id: templateId, share_type: 'unlisted' },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: '/v1/template',
          key: otherKey,
          payload: { template_id: templateId, template: text },
        })
      ).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/template/${templateId}`, key: otherKey })).statusCode).toBe(
      404,
    );
    expect((await t.request({ method: 'GET', url: `/v1/template/${templateId}`, key: otherKey })).statusCode).toBe(404);
    expect((await call('GET', result.share_path, { key: otherKey })).json().result.raw).toBe(text);

    // The owner team lists its shares (a viewer too), extends the link (same token), then revokes it.
    const list = await call('GET', '/v1/template/share', { key: viewer.key });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, total: 1 });
    expect(list.json().results[0]).toMatchObject({
      template_id: templateId,
      share_type: 'unlisted',
      ttl: '2d',
      name: 'Shared Panel',
    });
    const sorted = await call('GET', '/v1/template/share?sort_asc=name&fields=template_id', { key: viewer.key });
    expect(sorted.json().results).toEqual([
      { template_id: templateId, share_type: 'unlisted', ttl: '2d', expires_at: result.expires_at },
    ]);

    const patched = await call('PATCH', `/v1/template/share/${templateId}`, { payload: { ttl: '30d' } });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().result).toMatchObject({ template_id: templateId, ttl: '30d', share_type: 'unlisted' });
    expect(Date.parse(patched.json().result.expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    expect((await call('GET', result.share_path, { key: null })).json().result.ttl).toBe('30d');

    const revoked = await call('DELETE', `/v1/template/share/${templateId}`);
    expect(revoked.statusCode).toBe(200);
    expect((await call('GET', result.share_path, { key: otherKey })).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/template/share/${templateId}`)).statusCode).toBe(404);
    expect((await call('GET', '/v1/template/share')).json()).toMatchObject({ count: 0, total: 0, results: [] });
    // The template itself stays.
    expect((await t.request({ method: 'GET', url: `/v1/template/${templateId}` })).statusCode).toBe(200);
  });

  it('sharing again replaces the link; deleting the template revokes it', async () => {
    const first = (
      await call('POST', '/v1/template/share', { payload: { template_id: templateId, share_type: 'unlisted' } })
    ).json().result;
    expect(first.ttl).toBe('7d');
    const second = (
      await call('POST', '/v1/template/share', {
        payload: { template_id: templateId, share_type: 'unlisted', ttl: '1h' },
      })
    ).json().result;
    expect(second.share_token).not.toBe(first.share_token);
    expect((await call('GET', first.share_path, { key: null })).statusCode).toBe(404);
    expect((await call('GET', second.share_path, { key: null })).statusCode).toBe(200);
    expect((await call('GET', '/v1/template/share')).json().total).toBe(1);

    const other = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: templateText({ id: 'short-lived' }) },
    });
    const otherId = other.json().template_id;
    const link = (
      await call('POST', '/v1/template/share', { payload: { template_id: otherId, share_type: 'unlisted' } })
    ).json().result.share_path;
    expect((await t.request({ method: 'DELETE', url: `/v1/template/${otherId}` })).statusCode).toBe(200);
    expect((await call('GET', link, { key: null })).statusCode).toBe(404);
  });

  it('refuses what it cannot do with the error body naming the problem', async () => {
    const bad = async (payload: object, param: string) => {
      const res = await call('POST', '/v1/template/share', { payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().message).toMatch(new RegExp(param));
    };
    await bad({ template_id: templateId, share_type: 'users', emails: ['a@example.com'] }, 'share_type');
    await bad({ template_id: templateId, share_type: 'unlisted', ttl: 'forever' }, 'ttl');
    await bad({ template_id: templateId, share_type: 'unlisted', ttl: '0d' }, 'ttl');
    await bad({ template_id: templateId, share_type: 'unlisted', ttl: '400d' }, 'ttl');
    await bad({ share_type: 'unlisted' }, 'template_id');
    expect(
      (
        await call('POST', '/v1/template/share', {
          payload: { template_id: 'no-such-template', share_type: 'unlisted' },
        })
      ).statusCode,
    ).toBe(404);
    expect((await call('PATCH', `/v1/template/share/${templateId}`, { payload: {} })).statusCode).toBe(400);
    expect((await call('GET', '/v1/template/share?sort_desc=raw')).statusCode).toBe(400);
    expect((await call('GET', '/v1/template/share?fields=nope')).statusCode).toBe(400);
  });

  it('lets a viewer read the share list but not share, change or revoke', async () => {
    expect((await call('GET', '/v1/template/share', { key: viewer.key })).statusCode).toBe(200);
    expect(
      (
        await call('POST', '/v1/template/share', {
          key: viewer.key,
          payload: { template_id: templateId, share_type: 'unlisted' },
        })
      ).statusCode,
    ).toBe(403);
    expect(
      (await call('PATCH', `/v1/template/share/${templateId}`, { key: viewer.key, payload: { ttl: '1d' } })).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/v1/template/share/${templateId}`, { key: viewer.key })).statusCode).toBe(403);
    expect((await call('GET', '/v1/template/share', { key: null })).statusCode).toBe(401);
  });
});
