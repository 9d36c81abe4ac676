// Template search facets are counted in each process over a copy of every team's facet values
// (facet-index.ts). Another team's private templates must never show through them: not in totals, not as
// bucket values (a private tag or author is data of its own), whatever the scope or query asked for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { createTeamWithOwner, issueKey } from '../../src/platform/auth/service.ts';
import { changeVersion } from '../../src/platform/templates/store.ts';
import { facetIndexVersion, loadFacetIndex } from '../../src/platform/templates/facet-index.ts';
import { templateText } from '../platform/templates/fixtures.ts';

describe.each(dbKinds())("another team's private templates in search facets on %s", (kind) => {
  let t: TestApp;
  let otherKey: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const other = await createTeamWithOwner(t.ctx.db, 'attacker@localhost', 'Attackers');
    otherKey = await issueKey(t.ctx.db, other.userId);
    for (const id of ['secret-one', 'secret-two']) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/template',
        payload: {
          template: templateText({
            id,
            severity: 'critical',
            tags: ['xss', 'projectcodename'],
            author: 'Insider Name',
            vendor: 'secretvendor',
          }),
        },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    await t.request({
      method: 'POST',
      url: '/v1/template',
      key: otherKey,
      payload: { template: templateText({ id: 'attacker-own', tags: ['xss'], author: 'mallory' }) },
    });
    await loadFacetIndex(t.ctx.db);
    expect(facetIndexVersion(t.ctx.db)).toBe(String(await changeVersion(t.ctx.db)));
  });
  afterAll(async () => {
    await t.close();
  });

  const search = async (key: string | undefined, query: string) => {
    const res = await t.request({ method: 'GET', url: `/v2/template/search?${query}&facet_size=1000`, key });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { total: number; facets: Record<string, { buckets: Record<string, number>; total: number }> };
  };

  it('counts them for their own team only', async () => {
    for (const scope of ['public_private', 'private', 'public']) {
      for (const q of [
        'xss',
        'tags:projectcodename',
        'author:"insider name"',
        'vendor:secretvendor',
        'severity:critical',
      ]) {
        const body = await search(otherKey, `scope=${scope}&q=${encodeURIComponent(q)}`);
        const text = JSON.stringify(body.facets);
        expect(text, `${scope} ${q}`).not.toContain('projectcodename');
        expect(text).not.toContain('Insider Name');
        expect(text).not.toContain('secretvendor');
        expect(body.total).toBe(q === 'xss' && scope !== 'public' ? 1 : 0);
      }
    }
    const own = await search(undefined, 'scope=private&q=xss');
    expect(own.total).toBe(2);
    expect(own.facets.tags!.buckets).toEqual({ projectcodename: 2, xss: 2 });
    expect(own.facets.author!.buckets).toEqual({ 'Insider Name': 2 });
    // With the cache on, a second search by the other team is not answered from the owner's counts.
    const again = await search(otherKey, 'scope=public_private&q=xss');
    expect(again.total).toBe(1);
    expect(again.facets.tags!.buckets).toEqual({ xss: 1 });
  });
});
