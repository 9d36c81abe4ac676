// Facets counted in the process (facet-index.ts) must equal counting the matching templates one by one:
// every facet of several searches (words, filters, negations, scopes, two teams with private templates,
// facet sizes) is compared with a plain count over the search's own results, with the copy current, after
// writes from another connection (the copy is then stale and the database counts), and with it off.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../../src/db/connection.ts';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { searchTemplates, type Scope, type SearchParams } from '../../../src/platform/templates/search.ts';
import { createPrivate } from '../../../src/platform/templates/service.ts';
import { changeVersion } from '../../../src/platform/templates/store.ts';
import { facetIndexVersion, loadFacetIndex } from '../../../src/platform/templates/facet-index.ts';
import { createTeamWithOwner } from '../../../src/platform/auth/service.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

const DAY = 86_400_000;

/** The ten facets of a set of Template records, counted one record at a time. */
function plainFacets(records: Record<string, unknown>[], size: number): Record<string, unknown> {
  const total = records.length;
  const out: Record<string, unknown> = {};
  const valueFacet = (
    key: string,
    valuesOf: (r: Record<string, unknown>) => string[],
    missingOf: (r: Record<string, unknown>) => boolean,
  ) => {
    const counts = new Map<string, number>();
    let valued = 0;
    let missing = 0;
    for (const r of records) {
      const values = valuesOf(r);
      if (missingOf(r)) missing++;
      valued += values.length;
      for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    }
    const top = [...counts].sort((a, b) => b[1] - a[1] || Buffer.compare(Buffer.from(a[0]), Buffer.from(b[0])));
    const buckets = Object.fromEntries(top.slice(0, size));
    const shown = Object.values(buckets).reduce((x, y) => x + y, 0);
    out[key] = { buckets, missing, other: valued - shown, total };
  };
  for (const key of ['severity', 'type', 'dir', 'vendor', 'product']) {
    const value = (r: Record<string, unknown>) =>
      typeof r[key] === 'string' && r[key] !== '' ? [r[key] as string] : [];
    valueFacet(key, value, (r) => value(r).length === 0);
  }
  for (const key of ['tags', 'author'])
    valueFacet(
      key,
      (r) => r[key] as string[],
      (r) => (r[key] as string[]).length === 0,
    );
  for (const flag of ['is_new', 'is_early']) {
    const n = records.filter((r) => r[flag] === true).length;
    const buckets = Object.fromEntries(
      (
        [
          ['true', n],
          ['false', total - n],
        ] as [string, number][]
      )
        .filter(([, c]) => c > 0)
        .sort((a, b) => b[1] - a[1])
        .slice(0, size),
    );
    out[flag] = { buckets, missing: 0, other: total - Object.values(buckets).reduce((x, y) => x + y, 0), total };
  }
  const age = (r: Record<string, unknown>) => Date.now() - Date.parse(r.created_at as string);
  const ages = { last_week: 0, last_month: 0, last_year: 0, older: 0 };
  for (const r of records) {
    const a = age(r);
    ages[a <= 7 * DAY ? 'last_week' : a <= 30 * DAY ? 'last_month' : a <= 365 * DAY ? 'last_year' : 'older']++;
  }
  out.creation_stats = { buckets: ages, missing: 0, other: 0, total };
  return out;
}

const QUERIES = [
  '', // no q: the whole scope
  'wordpress',
  'cve',
  'severity:critical,high',
  '-severity:info',
  'tags:xss',
  'tags:wordpress -tags:tech',
  'author:alice',
  'dir:http',
  'is_new:true',
  'type:dns,ssl is_early:false',
  '-vendor:acme -tags:rce',
  'product:log4j,wordpress',
  'rce severity:critical',
  'nothing-matches-this',
];

describe.each(dbKinds())('facets counted in the process on %s', (kind) => {
  let t: TestDb;
  let cat: Catalogue;
  let writer: Db;
  const teams: string[] = [];

  beforeAll(async () => {
    t = await freshDb(kind);
    cat = makeCatalogue(SMALL);
    await importCatalogue(t.db, cat.dir);
    for (const name of ['A', 'B']) teams.push((await createTeamWithOwner(t.db, `${name}@localhost`, name)).teamId);
    // Team A's private templates outnumber the public xss and alice values; team B's are its own.
    for (const [i, tags] of [['xss', 'rce'], ['xss'], ['xss', 'ünïcode', 'Zeta']].entries())
      await createPrivate(t.db, teams[0]!, {
        template: templateText({ id: `a${i}`, severity: 'low', tags, author: i ? 'Alice' : 'alice', vendor: 'acme' }),
      });
    await createPrivate(t.db, teams[1]!, { template: templateText({ id: 'b0', severity: 'critical', tags: ['cve'] }) });
    await t.db.query(
      `UPDATE templates SET created_at = now() - interval '100 days' WHERE id IN ('backup-files', 'a1')`,
    );
    await t.db.query(`UPDATE templates SET created_at = now() - interval '900 days', is_early = true WHERE id = 'b0'`);
    await t.db.query(`UPDATE templates SET created_at = now() - interval '20 days' WHERE id = 'redis-unauth'`);
    writer = kind === 'postgres' ? await connect({ databaseUrl: t.url!, schema: t.schema!, poolSize: 1 }) : t.db;
  });
  afterEach(() => {
    delete process.env.VIGIL_FACET_INDEX;
  });
  afterAll(async () => {
    cat.cleanup();
    if (writer !== t.db) await writer.close();
    await t.drop();
  });

  /** Every query, scope, team and size: the answer's facets equal the plain count of its own results. */
  async function expectPlainCounts(): Promise<number> {
    let compared = 0;
    for (const team of teams)
      for (const scope of ['public', 'private', 'public_private'] as Scope[])
        for (const q of QUERIES)
          for (const facet_size of [1, 2, 1000]) {
            const params: SearchParams = { scope, q, facet_size, limit: 1000 };
            const answer = await searchTemplates(t.db, team, params);
            expect(answer.total, `${scope} ${q}`).toBe(answer.results.length);
            expect(answer.facets, `${team} ${scope} "${q}" size ${facet_size}`).toEqual(
              plainFacets(answer.results, facet_size),
            );
            compared++;
          }
    return compared;
  }

  it('counts exactly what the database counts, from a current copy', async () => {
    process.env.VIGIL_FACET_CACHE = 'off';
    try {
      await loadFacetIndex(t.db);
      expect(facetIndexVersion(t.db)).toBe(String(await changeVersion(t.db)));
      expect(await expectPlainCounts()).toBe(2 * 3 * QUERIES.length * 3);
      // The same answers with the copy switched off (the database's aggregate queries).
      process.env.VIGIL_FACET_INDEX = 'off';
      await expectPlainCounts();
    } finally {
      delete process.env.VIGIL_FACET_CACHE;
    }
  });

  it('never counts from a copy older than the table: a write elsewhere is counted in the next search', async () => {
    process.env.VIGIL_FACET_CACHE = 'off';
    try {
      await loadFacetIndex(t.db);
      const before = await searchTemplates(t.db, teams[0]!, { q: 'tags:xss' });
      expect(before.facets.severity.buckets).toEqual({ low: 3, medium: 1 });
      await writer.query(`UPDATE templates SET severity = 'critical', tags = '{xss,new}' WHERE id = 'a0'`);
      await writer.query(`DELETE FROM templates WHERE id = 'a1'`);
      expect(facetIndexVersion(t.db)).not.toBe(String(await changeVersion(t.db)));
      const after = await searchTemplates(t.db, teams[0]!, { q: 'tags:xss' });
      expect(after.facets.severity.buckets).toEqual({ critical: 1, low: 1, medium: 1 });
      expect(after.facets.tags.buckets).toMatchObject({ xss: 3, new: 1 });
      await expectPlainCounts();
      // Reloaded: current again, and the same counts.
      await loadFacetIndex(t.db);
      expect(facetIndexVersion(t.db)).toBe(String(await changeVersion(t.db)));
      expect((await searchTemplates(t.db, teams[0]!, { q: 'tags:xss' })).facets).toEqual(after.facets);
      await expectPlainCounts();
    } finally {
      delete process.env.VIGIL_FACET_CACHE;
    }
  });

  it("never keeps a copy read inside a transaction that wrote (its version could be another write's after a rollback)", async () => {
    await loadFacetIndex(t.db);
    const loaded = facetIndexVersion(t.db);
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`UPDATE templates SET tags = '{rolledback}' WHERE id = 'a2'`);
        await loadFacetIndex(tx);
        expect(facetIndexVersion(t.db)).toBe(loaded);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    // A committed write now takes the counter to the value the rolled-back transaction had.
    await writer.query(`UPDATE templates SET severity = 'high' WHERE id = 'a2'`);
    const answer = await searchTemplates(t.db, teams[0]!, { q: 'tags:rolledback', limit: 0 });
    expect(answer.total).toBe(0);
    expect(answer.facets.tags.buckets).toEqual({});
    await expectPlainCounts();
  });

  it('counts an emptied table', async () => {
    await writer.query('TRUNCATE templates');
    await loadFacetIndex(t.db);
    expect(facetIndexVersion(t.db)).toBe(String(await changeVersion(t.db)));
    const body = await searchTemplates(t.db, teams[0]!, { q: 'xss', limit: 0 });
    expect(body.total).toBe(0);
    expect(body.facets.tags).toEqual({ buckets: {}, missing: 0, other: 0, total: 0 });
  });
});
