import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { createTeamWithOwner, issueKey } from '../../../src/platform/auth/service.ts';
import { digestOf } from '../../../src/platform/templates/record.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

describe.each(dbKinds())('private templates /v1/template on %s', (kind) => {
  let t: TestApp;
  let cat: Catalogue;
  let member: TestUser;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    cat = makeCatalogue({ 'http/cves/2021/CVE-2021-44228.yaml': SMALL['http/cves/2021/CVE-2021-44228.yaml']! });
    await importCatalogue(t.ctx.db, cat.dir);
    member = await t.addUser('member@localhost', 'member');
    const other = await createTeamWithOwner(t.ctx.db, 'other@localhost', 'Other');
    otherKey = await issueKey(t.ctx.db, other.userId);
  });
  afterAll(async () => {
    cat.cleanup();
    await t.close();
  });

  const v1 = {
    id: 'my-panel-check',
    name: 'My Panel Check',
    severity: 'medium',
    tags: ['panel', 'Internal'],
    author: 'me',
    description: 'Finds our panel.',
  };

  it('creates, lists, reads, updates and deletes a private template', async () => {
    const text = templateText(v1);
    const created = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: text, filename: 'panel.yaml', dir: 'custom/panels' },
    });
    expect(created.statusCode, created.body).toBe(200);
    const c = created.json();
    expect(c.template_name).toBe('My Panel Check');
    expect(c.template).toMatchObject({
      id: 'my-panel-check',
      template_id: c.template_id,
      uri: c.template_id,
      name: 'My Panel Check',
      severity: 'medium',
      tags: ['panel', 'internal'],
      author: ['me'],
      type: 'http',
      dir: 'custom/panels',
      filename: 'panel.yaml',
      template_type: 'user',
      raw: text,
      digest: digestOf(text),
      description: 'Finds our panel.',
      is_svcteam: false,
      is_new: false,
      is_early: false,
      is_draft: false,
      is_github: false,
    });

    const list = await t.request({ method: 'GET', url: '/v1/template' });
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ count: 1, total: 1, message: expect.any(String) });
    expect(list.json().results[0].template_id).toBe(c.template_id);
    const some = await t.request({ method: 'GET', url: '/v1/template?fields=template_id,name' });
    expect(some.json().results[0]).toEqual({ template_id: c.template_id, name: 'My Panel Check' });

    const got = await t.request({ method: 'GET', url: `/v1/template/${c.template_id}` });
    expect(got.statusCode).toBe(200);
    expect(got.json().template).toMatchObject({ template_id: c.template_id, raw: text });

    const text2 = templateText({ ...v1, name: 'Renamed Panel Check', severity: 'high' });
    const patched = await t.request({
      method: 'PATCH',
      url: '/v1/template',
      payload: { template: text2, template_id: c.template_id },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      template_id: c.template_id,
      template_name: 'Renamed Panel Check',
      status: true,
      template: {
        severity: 'high',
        raw: text2,
        digest: digestOf(text2),
        dir: 'custom/panels',
        filename: 'panel.yaml',
        created_at: c.template.created_at,
      },
    });
    expect(typeof patched.json().message).toBe('string');
    // The search index follows the new content.
    const found = await t.request({ method: 'GET', url: '/v2/template/search?scope=private&q=renamed' });
    expect(found.json().total).toBe(1);

    const del = await t.request({ method: 'DELETE', url: `/v1/template/${c.template_id}` });
    expect(del.statusCode).toBe(200);
    expect(del.json()).toMatchObject({ status: true });
    expect((await t.request({ method: 'GET', url: `/v1/template/${c.template_id}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/template/${c.template_id}` })).statusCode).toBe(404);
  });

  it('accepts filename and dir as query parameters too; defaults the filename from the id', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/template?filename=q.yaml&dir=qdir',
      payload: { template: templateText({ id: 'query-params' }) },
    });
    expect(res.json().template).toMatchObject({ filename: 'q.yaml', dir: 'qdir' });
    const plain = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: { template: templateText({ id: 'no-name' }) },
    });
    expect(plain.json().template.filename).toBe('no-name.yaml');
    expect(plain.json().template.dir).toBeUndefined();
  });

  it('rejects invalid content with the validator message (create and update), keeping the stored version', async () => {
    const bad = 'id: bad-one\ninfo:\n  name: Bad\n  author: me\nhttp:\n  - method: FETCH\n    path: ["{{BaseURL}}"]\n';
    let res = await t.request({ method: 'POST', url: '/v1/template', payload: { template: bad } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ param: 'template' });
    expect(res.json().message).toMatch(/http\[0\]\.method/);
    res = await t.request({ method: 'POST', url: '/v1/template', payload: { template: 'just: [a, list' } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/YAML/i);
    res = await t.request({ method: 'POST', url: '/v1/template', payload: { template: '' } });
    expect(res.statusCode).toBe(400);
    res = await t.request({ method: 'POST', url: '/v1/template', payload: {} });
    expect(res.json()).toMatchObject({ status: 400, param: 'template' });

    const good = templateText({ id: 'keep-me', name: 'Keep Me' });
    const id = (await t.request({ method: 'POST', url: '/v1/template', payload: { template: good } })).json()
      .template_id;
    res = await t.request({ method: 'PATCH', url: '/v1/template', payload: { template: bad, template_id: id } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/http\[0\]\.method/);
    expect((await t.request({ method: 'GET', url: `/v1/template/${id}` })).json().template.raw).toBe(good);
  });

  it('PATCH needs template and template_id, and only changes private templates of the caller team', async () => {
    const text = templateText({ id: 'x-1' });
    let res = await t.request({ method: 'PATCH', url: '/v1/template', payload: { template: text } });
    expect(res.json()).toMatchObject({ status: 400, param: 'template_id' });
    res = await t.request({ method: 'PATCH', url: '/v1/template', payload: { template_id: 'abc' } });
    expect(res.json()).toMatchObject({ status: 400, param: 'template' });
    res = await t.request({
      method: 'PATCH',
      url: '/v1/template',
      payload: { template: text, template_id: 'no-such-id' },
    });
    expect(res.statusCode).toBe(404);
    res = await t.request({
      method: 'PATCH',
      url: '/v1/template',
      payload: { template: text, template_id: 'CVE-2021-44228' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toMatch(/public/);

    const theirs = (
      await t.request({
        method: 'POST',
        url: '/v1/template',
        key: otherKey,
        payload: { template: templateText({ id: 'theirs' }) },
      })
    ).json().template_id;
    expect(
      (await t.request({ method: 'PATCH', url: '/v1/template', payload: { template: text, template_id: theirs } }))
        .statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: `/v1/template/${theirs}` })).statusCode).toBe(404);
    expect((await t.request({ method: 'DELETE', url: `/v1/template/${theirs}` })).statusCode).toBe(404);
    const mine = (await t.request({ method: 'GET', url: '/v1/template?limit=1000', key: otherKey })).json();
    expect(mine.results.map((r: { id: string }) => r.id)).toEqual(['theirs']);
  });

  it('members can read but not create, update or delete', async () => {
    const id = (
      await t.request({ method: 'POST', url: '/v1/template', payload: { template: templateText({ id: 'owned' }) } })
    ).json().template_id;
    const text = templateText({ id: 'member-made' });
    expect(
      (await t.request({ method: 'POST', url: '/v1/template', key: member.key, payload: { template: text } }))
        .statusCode,
    ).toBe(403);
    expect(
      (
        await t.request({
          method: 'PATCH',
          url: '/v1/template',
          key: member.key,
          payload: { template: text, template_id: id },
        })
      ).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: `/v1/template/${id}`, key: member.key })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: `/v1/template/${id}`, key: member.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/template', key: member.key })).statusCode).toBe(200);
    const admin = await t.addUser('admin@localhost', 'admin');
    expect(
      (await t.request({ method: 'POST', url: '/v1/template', key: admin.key, payload: { template: text } }))
        .statusCode,
    ).toBe(200);
  });

  it('pages the list with offset and limit', async () => {
    const all = (await t.request({ method: 'GET', url: '/v1/template?limit=1000' })).json();
    expect(all.total).toBeGreaterThan(3);
    const page = (await t.request({ method: 'GET', url: '/v1/template?offset=1&limit=2' })).json();
    expect(page).toMatchObject({ count: 2, total: all.total });
    expect(page.results.map((r: { template_id: string }) => r.template_id)).toEqual(
      all.results.slice(1, 3).map((r: { template_id: string }) => r.template_id),
    );
  });

  it('serves public catalogue templates by id', async () => {
    const res = await t.request({
      method: 'GET',
      url: '/v1/template/public/CVE-2021-44228?fields=id,uri,template_type',
    });
    expect(res.json().template).toEqual({
      id: 'CVE-2021-44228',
      uri: 'http/cves/2021/CVE-2021-44228.yaml',
      template_type: 'public',
    });
    expect((await t.request({ method: 'GET', url: '/v1/template/public/nope' })).statusCode).toBe(404);
  });
});
