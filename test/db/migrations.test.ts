// The migrations run from nothing on both backends, are recorded once (a second run applies none), and
// 015's index is the one the enumeration changelog query uses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { migrate } from '../../src/db/migrate.ts';
import { dbKinds, freshDb, type TestDb } from '../helpers/db.ts';
import { repoRoot } from '../helpers/process.ts';

const files = readdirSync(path.join(repoRoot, 'src/db/migrations'))
  .filter((f) => f.endsWith('.sql'))
  .sort();

describe.each(dbKinds())('migrations on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind, { migrate: false });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('apply every file in order once; a second run applies nothing', async () => {
    expect(await migrate(t.db)).toEqual(files);
    expect(files).toContain('015_asset_changelogs_enumeration.sql');
    const { rows } = await t.db.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
    expect(rows.map((r) => r.name)).toEqual(files);
    expect(await migrate(t.db)).toEqual([]);
  }, 120_000);

  it('index asset_changelogs by enumeration and run, and the changelog query uses it', async () => {
    const { rows } = await t.db.query<{ indexdef: string }>(
      `SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'asset_changelogs' AND indexname = 'asset_changelogs_enumeration'`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.indexdef).toMatch(/\(enumeration_id, run DESC, id\)/);
    // The planner's choice on an empty table is a sequential scan whatever the indexes; with that ruled
    // out, the plan shows whether an index fits the query's filter and order at all.
    const plan = await t.db.transaction(async (tx) => {
      await tx.query('SET LOCAL enable_seqscan = off');
      const out = await tx.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id FROM asset_changelogs WHERE team_id = 'team' AND enumeration_id = 'enum' AND run = 2
         ORDER BY run DESC, asset_changelogs.id ASC LIMIT 100`,
      );
      return out.rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index Scan using asset_changelogs_enumeration/);
  }, 60_000);
});
