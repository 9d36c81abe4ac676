import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { createTeamWithOwner, issueKey } from '../../../src/platform/auth/service.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue, type TplSpec } from './fixtures.ts';

const specs = Object.values(SMALL);
const ids = (body: { results: { id?: string }[] }) => body.results.map((r) => r.id).sort();
/** Expected ids computed from the fixture specs, not from the store. */
const where = (pred: (s: TplSpec) => boolean) =>
  specs
    .filter(pred)
    .map((s) => s.id)
    .sort();

describe.each(dbKinds())('GET /v2/template/search on %s', (kind) => {
  let t: TestApp;
  let cat: Catalogue;
  let privateId: string;
  let otherKey: string;

  const search = async (query: Record<string, string | number | boolean>, key?: string) => {
    const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
    return t.request({ method: 'GET', url: `/v2/template/search?${qs}`, key });
  };
  const ok = async (query: Record<string, string | number | boolean>) => {
    const res = await search(query);
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    cat = makeCatalogue(SMALL);
    await importCatalogue(t.ctx.db, cat.dir);
    const created = await t.request({
      method: 'POST',
      url: '/v1/template',
      payload: {
        template: templateText({
          id: 'team-secret-check',
          name: 'Internal Admin Panel',
          severity: 'high',
          tags: ['internal', 'panel'],
          author: 'owner',
        }),
      },
    });
    expect(created.statusCode, created.body).toBe(200);
    privateId = created.json().template_id;
    // A second team with its own private template, which the first team must never see.
    const other = await createTeamWithOwner(t.ctx.db, 'other@localhost', 'Other');
    otherKey = await issueKey(t.ctx.db, other.userId);
    const res = await t.request({
      method: 'POST',
      url: '/v1/template',
      key: otherKey,
      payload: { template: templateText({ id: 'other-team-only', severity: 'low' }) },
    });
    expect(res.statusCode).toBe(200);
  });
  afterAll(async () => {
    cat.cleanup();
    await t.close();
  });

  it('answers {results, total, count, facets, message} with the ten facets and default scope public_private', async () => {
    const body = await ok({});
    expect(body.total).toBe(specs.length + 1);
    expect(body.count).toBe(body.results.length);
    expect(Object.keys(body.facets).sort()).toEqual([
      'author',
      'creation_stats',
      'dir',
      'is_early',
      'is_new',
      'product',
      'severity',
      'tags',
      'type',
      'vendor',
    ]);
    expect(body.message).toBeTypeOf('string');
    expect(ids(body)).toContain('team-secret-check');
    expect(ids(body)).not.toContain('other-team-only');
    const rec = body.results.find((r: { id: string }) => r.id === 'CVE-2021-44228');
    for (const f of [
      'uri',
      'template_id',
      'name',
      'author',
      'tags',
      'severity',
      'type',
      'dir',
      'vendor',
      'product',
      'classification',
      'digest',
      'raw',
      'description',
      'filename',
      'created_at',
      'updated_at',
      'template_type',
      'is_draft',
      'is_github',
      'is_new',
      'is_early',
      'is_svcteam',
    ]) {
      expect(rec, f).toHaveProperty(f);
    }
  });

  it('scopes: public, private (own team only)', async () => {
    expect((await ok({ scope: 'public' })).total).toBe(specs.length);
    const priv = await ok({ scope: 'private' });
    expect(ids(priv)).toEqual(['team-secret-check']);
    expect(priv.results[0].template_id).toBe(privateId);
    expect(priv.results[0].template_type).toBe('user');
    const theirs = await search({ scope: 'private' }, otherKey);
    expect(ids(theirs.json())).toEqual(['other-team-only']);
    expect((await search({ scope: 'everything' })).json()).toMatchObject({ param: 'scope' });
  });

  it('matches free words over id, name, description, tags, author, vendor, product (prefixes too)', async () => {
    const has = (s: TplSpec, w: string) =>
      [s.id, s.name, s.description, ...(s.tags ?? []), s.author, s.vendor, s.product].some((v) =>
        v?.toLowerCase().includes(w),
      );
    expect(ids(await ok({ q: 'wordpress', scope: 'public' }))).toEqual(where((s) => has(s, 'wordpress')));
    expect(ids(await ok({ q: 'log4', scope: 'public' }))).toEqual(['CVE-2021-44228']);
    expect(ids(await ok({ q: 'JNDI', scope: 'public' }))).toEqual(['CVE-2021-44228']); // description
    expect(ids(await ok({ q: 'frank', scope: 'public' }))).toEqual(['redis-unauth']); // author
    expect(ids(await ok({ q: '44228' }))).toEqual(['CVE-2021-44228']); // substring of an id
    expect(ids(await ok({ q: 'wordpress xss' }))).toEqual(['wordpress-plugin-xss']); // words are ANDed
    expect(ids(await ok({ q: 'internal' }))).toEqual(['team-secret-check']);
    expect((await ok({ q: 'zzznothing' })).total).toBe(0);
  });

  it('applies field:value filters (comma = any of, - = not) combined with AND', async () => {
    expect(ids(await ok({ q: 'severity:critical', scope: 'public' }))).toEqual(where((s) => s.severity === 'critical'));
    expect(ids(await ok({ q: 'severity:critical,high', scope: 'public' }))).toEqual(
      where((s) => s.severity === 'critical' || s.severity === 'high'),
    );
    expect(ids(await ok({ q: 'tags:rce' }))).toEqual(where((s) => !!s.tags?.includes('rce')));
    expect(ids(await ok({ q: 'tags:wordpress -tags:tech' }))).toEqual(
      where((s) => !!s.tags?.includes('wordpress') && !s.tags.includes('tech')),
    );
    expect(ids(await ok({ q: 'author:ALICE', scope: 'public' }))).toEqual(
      where((s) => (s.author ?? 'alice').split(',').includes('alice')),
    );
    expect(ids(await ok({ q: 'type:dns' }))).toEqual(['caa-fingerprint']);
    expect(ids(await ok({ q: 'type:tcp dir:network' }))).toEqual(['redis-unauth']);
    expect(ids(await ok({ q: 'vendor:apache product:log4j' }))).toEqual(['CVE-2021-44228']);
    expect(ids(await ok({ q: 'cve:cve-2022-1388' }))).toEqual(['CVE-2022-1388']);
    expect(ids(await ok({ q: 'template_type:user' }))).toEqual(['team-secret-check']);
    expect((await ok({ q: 'is_new:true', scope: 'public' })).total).toBe(specs.length);
    expect((await ok({ q: 'is_early:true' })).total).toBe(0);
    expect(ids(await ok({ q: 'wordpress severity:medium' }))).toEqual(['wordpress-plugin-xss']);
    expect(ids(await ok({ q: 'author:"alice" severity:"medium"' }))).toEqual(['wordpress-plugin-xss']);
  });

  it('rejects unknown filters, sort fields and fields with a 400 naming them', async () => {
    let res = await search({ q: 'colour:red' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ param: 'q' });
    expect(res.json().message).toContain('colour');
    res = await search({ sort_asc: 'popularity' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ param: 'sort_asc' });
    expect(res.json().message).toContain('popularity');
    res = await search({ sort_desc: 'name,bogus' });
    expect(res.json()).toMatchObject({ status: 400, param: 'sort_desc' });
    res = await search({ fields: 'id,colour' });
    expect(res.json()).toMatchObject({ status: 400, param: 'fields' });
    res = await search({ q: 'is_new:maybe' });
    expect(res.json()).toMatchObject({ status: 400, param: 'q' });
    res = await search({ limit: -1 });
    expect(res.statusCode).toBe(400);
  });

  it('sorts, pages and selects fields', async () => {
    const rank = ['unknown', 'info', 'low', 'medium', 'high', 'critical'];
    const bySev = await ok({ scope: 'public', sort_desc: 'severity', fields: 'id,severity', limit: 100 });
    const sev = bySev.results.map((r: { severity: string }) => rank.indexOf(r.severity));
    expect(sev).toEqual([...sev].sort((a: number, b: number) => b - a));
    expect(Object.keys(bySev.results[0]).sort()).toEqual(['id', 'severity']);

    const byName = await ok({ scope: 'public', sort_asc: 'name', fields: 'name' });
    const names = byName.results.map((r: { name: string }) => r.name.toLowerCase());
    expect(names).toEqual([...names].sort());

    const page1 = await ok({ scope: 'public', sort_asc: 'id', limit: 4, offset: 0, fields: 'id' });
    const page3 = await ok({ scope: 'public', sort_asc: 'id', limit: 4, offset: 8, fields: 'id' });
    expect(page1).toMatchObject({ count: 4, total: specs.length });
    expect(page3).toMatchObject({ count: specs.length - 8, total: specs.length });
    const all = specs.map((s) => s.id).sort();
    expect(page1.results.map((r: { id: string }) => r.id)).toEqual(all.slice(0, 4));
    expect(page3.results.map((r: { id: string }) => r.id)).toEqual(all.slice(8));
  });

  it('highlights matched words in name and description', async () => {
    const body = await ok({ q: 'wordpress', highlight: true, scope: 'public', sort_asc: 'id' });
    const xss = body.results.find((r: { id: string }) => r.id === 'wordpress-plugin-xss');
    expect(xss.name).toBe('<em>WordPress</em> Plugin Reflected XSS');
    expect(xss.description).toBe('A <em>WordPress</em> plugin reflects the search parameter.');
    const plain = await ok({ q: 'wordpress', scope: 'public' });
    expect(plain.results.every((r: { name: string }) => !r.name.includes('<em>'))).toBe(true);
    const prefix = await ok({ q: 'log4', highlight: true });
    expect(prefix.results[0].description).toContain('<em>Log4j2</em>');
  });

  it('computes facets over the matching templates: top facet_size buckets, missing, other, total', async () => {
    const body = await ok({ scope: 'public', facet_size: 2 });
    const f = body.facets;
    const count = (vals: (string | undefined)[]) => {
      const m = new Map<string, number>();
      for (const v of vals) if (v) m.set(v, (m.get(v) ?? 0) + 1);
      return m;
    };
    const sev = count(specs.map((s) => s.severity ?? 'unknown'));
    expect(f.severity.total).toBe(specs.length);
    expect(Object.keys(f.severity.buckets)).toHaveLength(2);
    for (const [k, v] of Object.entries(f.severity.buckets)) expect(sev.get(k)).toBe(v);
    const top = [...sev.values()].sort((a, b) => b - a);
    expect(Object.values(f.severity.buckets)).toEqual(top.slice(0, 2));
    expect(f.severity.other).toBe(top.slice(2).reduce((a, b) => a + b, 0));
    expect(f.severity.missing).toBe(0);

    const tags = count(specs.flatMap((s) => s.tags ?? []));
    const tagTop = [...tags.values()].sort((a, b) => b - a);
    expect(Object.values(f.tags.buckets)).toEqual(tagTop.slice(0, 2));
    expect(f.tags.buckets.wordpress).toBe(tags.get('wordpress'));
    expect(f.tags.other).toBe(tagTop.slice(2).reduce((a, b) => a + b, 0));
    expect(f.vendor.missing).toBe(specs.filter((s) => !s.vendor).length);
    expect(f.is_new.buckets).toEqual({ true: specs.length });

    // A filter matching most templates: facets come from the counts table minus the few outside the match.
    const most = await ok({ scope: 'public', q: '-tags:dos -severity:critical', facet_size: 3 });
    const kept = specs.filter((s) => !s.tags?.includes('dos') && s.severity !== 'critical');
    expect(most.total).toBe(kept.length);
    const keptTags = count(kept.flatMap((s) => s.tags ?? []));
    const keptTop = [...keptTags.values()].sort((a, b) => b - a);
    expect(Object.values(most.facets.tags.buckets)).toEqual(keptTop.slice(0, 3));
    for (const [k, v] of Object.entries(most.facets.tags.buckets)) expect(keptTags.get(k)).toBe(v);
    expect(most.facets.tags.other).toBe(keptTop.slice(3).reduce((a, b) => a + b, 0));
    expect(most.facets.severity.buckets.critical).toBeUndefined();
    expect(most.facets.vendor.missing).toBe(kept.filter((s) => !s.vendor).length);

    const filtered = await ok({ q: 'tags:cve' });
    expect(filtered.facets.vendor.buckets).toEqual({ apache: 1, f5: 1 });
    expect(filtered.facets.type).toMatchObject({ buckets: { http: 2 }, total: 2, other: 0, missing: 0 });
  });

  it('buckets templates by age in creation_stats', async () => {
    await t.ctx.db.query(`UPDATE templates SET created_at = now() - interval '40 days' WHERE id = 'CVE-2022-1388'`);
    await t.ctx.db.query(
      `UPDATE templates SET created_at = now() - interval '800 days' WHERE id IN ('backup-files', 'redis-unauth')`,
    );
    await t.ctx.db.query(`UPDATE templates SET created_at = now() - interval '10 days' WHERE id = 'slowloris-dos'`);
    const body = await ok({ scope: 'public' });
    expect(body.facets.creation_stats).toMatchObject({
      buckets: { last_week: specs.length - 4, last_month: 1, last_year: 1, older: 2 },
      total: specs.length,
      missing: 0,
    });
    // Without a sort, newest first.
    expect(body.results.at(-1).id).toMatch(/backup-files|redis-unauth/);
  });

  it('documents the endpoints and the reference parameter names in /openapi.json', async () => {
    const doc = (await t.request({ method: 'GET', url: '/openapi.json', key: null })).json();
    const params = doc.paths['/v2/template/search'].get.parameters.map((p: { name: string }) => p.name).sort();
    expect(params).toEqual([
      'facet_size',
      'fields',
      'highlight',
      'limit',
      'offset',
      'q',
      'scope',
      'sort_asc',
      'sort_desc',
    ]);
    expect(Object.keys(doc.paths['/v1/template']).sort()).toEqual(['get', 'patch', 'post']);
    expect(Object.keys(doc.paths['/v1/template/{template_id}']).sort()).toEqual(['delete', 'get']);
  });

  it('needs an API key; every role can search', async () => {
    expect((await t.request({ method: 'GET', url: '/v2/template/search', key: null })).statusCode).toBe(401);
    const viewer = await t.addUser('viewer@localhost', 'viewer');
    expect((await search({ q: 'wordpress' }, viewer.key)).statusCode).toBe(200);
  });
});
