// The facet counts table (maintained by triggers on every write) must always give the same facets as
// counting the templates themselves. A search without q reads the table; `-severity:zzz` matches the same
// templates but counts them row by row, so the two answers are compared after each kind of write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { searchTemplates, type Scope } from '../../../src/platform/templates/search.ts';
import { createPrivate, deletePrivate, updatePrivate } from '../../../src/platform/templates/service.ts';
import { createTeamWithOwner } from '../../../src/platform/auth/service.ts';
import { countMatches, countsByComplement, matchLowerBound } from '../../../src/platform/templates/facet-store.ts';
import { assembleFacets } from '../../../src/platform/templates/facets.ts';
import { makeCatalogue, SMALL, templateText, type Catalogue } from './fixtures.ts';

describe.each(dbKinds())('facet counts table on %s', (kind) => {
  let t: TestDb;
  let cat: Catalogue;
  let teamA: string;
  let teamB: string;

  beforeAll(async () => {
    // These are the database's counts; the process's copy (facet-index.ts) would answer whenever it is
    // current, and facet-index.test.ts compares that one with a plain count.
    process.env.VIGIL_FACET_INDEX = 'off';
    t = await freshDb(kind);
    cat = makeCatalogue(SMALL);
    teamA = (await createTeamWithOwner(t.db, 'a@localhost', 'A')).teamId;
    teamB = (await createTeamWithOwner(t.db, 'b@localhost', 'B')).teamId;
  });
  afterAll(async () => {
    delete process.env.VIGIL_FACET_INDEX;
    cat.cleanup();
    await t.drop();
  });

  /** Facets from the table and from counting rows agree for every scope, team and several facet sizes. */
  async function expectAgreement(): Promise<void> {
    for (const team of [teamA, teamB]) {
      for (const scope of ['public', 'private', 'public_private'] as Scope[]) {
        for (const size of [1, 2, 3, 1000]) {
          const fromTable = await searchTemplates(t.db, team, { scope, facet_size: size, limit: 0 });
          const counted = await searchTemplates(t.db, team, { scope, q: '-severity:zzz', facet_size: size, limit: 0 });
          expect(fromTable.total, `${scope} ${size}`).toBe(counted.total);
          expect(fromTable.facets, `${scope} size ${size}`).toEqual(counted.facets);
        }
      }
    }
    // Large filtered sets: the counts table minus the templates outside the match, against counting the match.
    const scopes: [string, string][] = [
      ['team_id IS NULL', ''],
      ['team_id = $1', teamA],
    ];
    const conds = [
      "severity <> 'critical'",
      "NOT (tags && '{wordpress}')",
      'is_new',
      'vendor IS NULL',
      "dir = 'http'",
      'true',
    ];
    for (const [scopeSql, owner] of scopes) {
      const values = scopeSql.includes('$1') ? [teamA] : [];
      for (const cond of conds) {
        for (const size of [1, 3, 1000]) {
          const direct = await countMatches(t.db, `templates WHERE ${scopeSql} AND ${cond}`, values, size);
          const byComplement = await countsByComplement(t.db, owner, scopeSql, cond, values, size);
          expect(assembleFacets(byComplement, size), `${scopeSql} ${cond} ${size}`).toEqual(
            assembleFacets(direct, size),
          );
        }
      }
    }
    const zero = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM template_facet_counts WHERE n <= 0');
    expect(zero.rows[0]!.n).toBe(0);
  }

  it('agrees after an import', async () => {
    await importCatalogue(t.db, cat.dir);
    const body = await searchTemplates(t.db, teamA, { scope: 'public' });
    expect(body.total).toBe(Object.keys(SMALL).length);
    expect(body.facets.severity.buckets.critical).toBe(2);
    await expectAgreement();
  });

  it('agrees after private templates are created and changed (the team can reorder the top values)', async () => {
    // Public tags: wordpress 3, cve 2, rce 2, xss 1. Team A's templates move xss (1 public) to the top.
    const a1 = await createPrivate(t.db, teamA, {
      template: templateText({ id: 'p1', severity: 'low', tags: ['xss', 'rce'], author: 'Alice' }),
    });
    await createPrivate(t.db, teamA, {
      template: templateText({ id: 'p2', severity: 'low', tags: ['xss'], author: 'Zed', protocol: 'dns' }),
    });
    const a3 = await createPrivate(t.db, teamA, {
      template: templateText({ id: 'p3', tags: ['xss'], author: 'alice', vendor: 'acme', product: 'anvil' }),
    });
    await createPrivate(t.db, teamB, { template: templateText({ id: 'b1', severity: 'critical', tags: ['cve'] }) });
    const top = await searchTemplates(t.db, teamA, { facet_size: 2, limit: 0 });
    expect(top.facets.tags.buckets).toEqual({ xss: 4, rce: 3 }); // rce ties wordpress at 3: C order
    expect(top.facets.severity.buckets.low).toBe(4);
    await expectAgreement();

    await updatePrivate(t.db, teamA, a1.template_id as string, {
      template: templateText({ id: 'p1', severity: 'high', tags: ['ssl'], author: 'Bob' }),
    });
    await expectAgreement();
    await deletePrivate(t.db, teamA, a3.template_id as string);
    await expectAgreement();
  });

  it('agrees after a re-import that changes, adds and removes catalogue templates', async () => {
    cat.write('http/misc/dos-check.yaml', {
      id: 'slowloris-dos',
      severity: 'critical',
      tags: ['dos', 'xss'],
      author: 'erin,Frank',
    });
    cat.remove('dns/caa-fingerprint.yaml');
    cat.write('http/new/added.yaml', { id: 'added-one', severity: 'medium', tags: ['new'], vendor: 'acme' });
    const s = await importCatalogue(t.db, cat.dir);
    expect(s).toMatchObject({ added: 1, updated: 1, removed: 1 });
    const body = await searchTemplates(t.db, teamB, { scope: 'public', q: '', limit: 0 });
    expect(body.facets.is_new.buckets).toEqual({ false: Object.keys(SMALL).length - 1, true: 1 });
    await expectAgreement();
  });

  it('agrees after direct SQL writes, including created_at moves and deletes', async () => {
    await t.db.query(
      `UPDATE templates SET created_at = now() - interval '100 days' WHERE id IN ('backup-files', 'p2')`,
    );
    await t.db.query(
      `UPDATE templates SET created_at = now() - interval '900 days', is_early = true WHERE id = 'redis-unauth'`,
    );
    await t.db.query(`DELETE FROM templates WHERE id = 'wordpress-detect'`);
    const body = await searchTemplates(t.db, teamA, { limit: 0 });
    expect(body.facets.creation_stats.buckets).toMatchObject({ last_year: 2, older: 1 });
    expect(body.facets.is_early.buckets.true).toBe(1);
    await expectAgreement();
  });

  it('is emptied by TRUNCATE', async () => {
    await t.db.query('TRUNCATE templates');
    const body = await searchTemplates(t.db, teamA, { limit: 0 });
    expect(body.total).toBe(0);
    expect(body.facets.tags).toEqual({ buckets: {}, missing: 0, other: 0, total: 0 });
    await expectAgreement();
  });

  it('answers the author: filter through the lower-case GIN index', async () => {
    await importCatalogue(t.db, cat.dir);
    await createPrivate(t.db, teamA, { template: templateText({ id: 'mixed-case', author: 'MiXeD Person' }) });
    const found = await searchTemplates(t.db, teamA, { q: 'author:"mixed person"', fields: 'id' });
    expect(found.results).toEqual([{ id: 'mixed-case' }]);
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const res = await tx.query<Record<string, string>>(
        "EXPLAIN SELECT id FROM templates WHERE templates_lower(author) && '{alice}'::text[]",
      );
      return res.rows.map((r) => Object.values(r)[0]).join('\n');
    });
    expect(plan).toContain('templates_author_lower');
  });

  it('bounds the number of matches from the counts table', async () => {
    const owners = [''];
    // Counted from the templates themselves (the earlier tests changed the catalogue).
    const count = async (where: string) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM templates WHERE team_id IS NULL AND ${where}`))
        .rows[0]!.n;
    const all = await count('true');
    const critical = await count("severity = 'critical'");
    expect(critical).toBeGreaterThan(0);
    expect(await matchLowerBound(t.db, owners, [{ facet: 'severity', values: ['critical'], negate: false }])).toEqual({
      bound: critical,
      total: all,
      owners: [''],
    });
    expect(
      await matchLowerBound(t.db, owners, [{ facet: 'severity', values: ['critical'], negate: true }]),
    ).toMatchObject({ bound: all - critical, total: all });
    // Two filters: |A and B| >= |A| + |B| - total; a filter without a bound counts as 0.
    const both = await matchLowerBound(t.db, owners, [
      { facet: 'severity', values: ['critical'], negate: true },
      { facet: 'is_new', values: ['true'], negate: false },
      null,
    ]);
    const isNew = await count('is_new');
    expect(both).toMatchObject({ bound: Math.max(0, all - critical + isNew - 2 * all), total: all });
    // Owners without templates are left out; a team with private templates is listed.
    expect((await matchLowerBound(t.db, ['', teamB], [])).owners).toEqual(['']);
    expect((await matchLowerBound(t.db, ['', teamA], [])).owners).toEqual(['', teamA].sort());
  });
});
