// The facet cache must never serve counts older than the table: any write, from any connection or
// process, bumps template_changes and the next search recomputes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../../src/db/connection.ts';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import { importCatalogue } from '../../../src/platform/templates/catalogue.ts';
import { searchTemplates } from '../../../src/platform/templates/search.ts';
import { changeVersion } from '../../../src/platform/templates/store.ts';
import { makeCatalogue, SMALL, type Catalogue } from './fixtures.ts';

describe.each(dbKinds())('facet cache on %s', (kind) => {
  let t: TestDb;
  let cat: Catalogue;
  let writer: Db; // a second connection on PostgreSQL (another process would look the same); PGlite has one

  beforeAll(async () => {
    t = await freshDb(kind);
    cat = makeCatalogue(SMALL);
    await importCatalogue(t.db, cat.dir);
    writer = kind === 'postgres' ? await connect({ databaseUrl: t.url!, schema: t.schema!, poolSize: 1 }) : t.db;
  });
  afterAll(async () => {
    cat.cleanup();
    if (writer !== t.db) await writer.close();
    await t.drop();
  });

  it('sees writes made through another connection at once', async () => {
    const before = await searchTemplates(t.db, 'none', { scope: 'public' });
    expect(before.facets.severity.buckets.critical).toBe(2);
    const v0 = await changeVersion(t.db);
    await writer.query(`UPDATE templates SET severity = 'critical' WHERE id = 'backup-files'`);
    expect(await changeVersion(t.db)).toBeGreaterThan(v0);
    const after = await searchTemplates(t.db, 'none', { scope: 'public' });
    expect(after.facets.severity.buckets.critical).toBe(3);
    await writer.query(`DELETE FROM templates WHERE id = 'backup-files'`);
    const gone = await searchTemplates(t.db, 'none', { scope: 'public' });
    expect(gone.total).toBe(Object.keys(SMALL).length - 1);
    expect(gone.facets.severity.buckets.critical).toBe(2);
  });

  it('serves a repeated result page from memory, and a changed template in it from the next search', async () => {
    const q = { scope: 'public' as const, q: 'severity:critical' };
    const first = await searchTemplates(t.db, 'none', q);
    const again = await searchTemplates(t.db, 'none', q);
    expect(again.results).toBe(first.results); // the same page, not read again
    const id = first.results[0]!.id as string;
    await writer.query(`UPDATE templates SET name = 'Renamed elsewhere' WHERE id = $1`, [id]);
    const after = await searchTemplates(t.db, 'none', q);
    expect(after.results.find((r) => r.id === id)?.name).toBe('Renamed elsewhere');
  });

  it("never serves one team's cached page of private templates to another team", async () => {
    await writer.query(`INSERT INTO teams (id, name) VALUES ('team-a', 'A'), ('team-b', 'B') ON CONFLICT DO NOTHING`);
    await writer.query(`UPDATE templates SET team_id = 'team-a' WHERE id = 'redis-unauth'`);
    const q = { scope: 'public_private' as const, q: 'redis-unauth' };
    const ids = (r: { results: Record<string, unknown>[] }) => r.results.map((x) => x.id);
    const a1 = await searchTemplates(t.db, 'team-a', q);
    const a2 = await searchTemplates(t.db, 'team-a', q);
    expect(a2.results).toBe(a1.results); // cached for team A
    expect(ids(a1)).toContain('redis-unauth');
    const b = await searchTemplates(t.db, 'team-b', q);
    expect(ids(b)).not.toContain('redis-unauth');
    expect(b.facets.severity.buckets).toEqual(
      (await searchTemplates(t.db, 'team-b', { scope: 'public', q: 'redis-unauth' })).facets.severity.buckets,
    );
  });
});
