// 016 on a database from before it: the open invites get the kind that keeps them safe (the owner's
// first-start link still sets a password; an invite for an account with credentials or another team now
// needs that account's sign-in), and the oldest account becomes the instance owner.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { dbKinds, freshDb, type TestDb } from '../helpers/db.ts';
import { repoRoot } from '../helpers/process.ts';

const dir = path.join(repoRoot, 'src/db/migrations');
const before016 = readdirSync(dir)
  .filter((f) => f.endsWith('.sql') && f < '016')
  .sort();

describe.each(dbKinds())('migration 016 on %s', (kind) => {
  let t: TestDb;
  beforeAll(async () => {
    t = await freshDb(kind, { migrate: false });
    // The database as 015 left it, recorded as migrate() records it.
    await t.db.exec(
      'CREATE TABLE schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())',
    );
    for (const f of before016) {
      await t.db.exec(readFileSync(path.join(dir, f), 'utf8'));
      await t.db.query('INSERT INTO schema_migrations (name) VALUES ($1)', [f]);
    }
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  it('classifies the open invites and names the instance owner', async () => {
    const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params);
    await q(`INSERT INTO teams (id, name) VALUES ('a', 'A'), ('b', 'B')`);
    await q(`INSERT INTO users (id, email, default_team_id) VALUES (1, 'owner@localhost', 'a'), (2, 'new@x.test', 'a'),
             (3, 'haskey@x.test', 'a'), (4, 'pw@x.test', 'a'), (5, 'two-teams@x.test', 'a'), (6, 'used@x.test', 'a')`);
    await q(`UPDATE users SET password_hash = 'scrypt$1$1$1$x$y' WHERE id = 4`);
    await q(`INSERT INTO api_keys (user_id, key_hash, key_prefix) VALUES (1, 'h1', 'p'), (3, 'h3', 'p')`);
    await q(`INSERT INTO team_members (team_id, user_id, role, status) VALUES ('a', 1, 'OWNER', 'ACCEPTED'), ('b', 1, 'OWNER', 'ACCEPTED'),
             ('b', 2, 'GUEST', 'INVITED'), ('b', 3, 'GUEST', 'INVITED'), ('b', 4, 'GUEST', 'INVITED'),
             ('a', 5, 'GUEST', 'INVITED'), ('b', 5, 'GUEST', 'INVITED'), ('b', 6, 'GUEST', 'INVITED')`);
    const invite = (token: string, team: string, user: number, by: number, used = false) =>
      q(
        `INSERT INTO team_invites (token_hash, team_id, user_id, created_by, expires_at, used_at)
         VALUES ($1, $2, $3, $4, now() + interval '7 days', CASE WHEN $5::boolean THEN now() END)`,
        [token, team, user, by, used],
      );
    await invite('first-start', 'a', 1, 1);
    await invite('new', 'b', 2, 1);
    await invite('has-key', 'b', 3, 1);
    await invite('has-password', 'b', 4, 1);
    await invite('two-teams', 'b', 5, 1);
    await invite('used', 'b', 6, 1, true);
    // 016 comes first; later migrations follow it.
    expect((await migrate(t.db))[0]).toBe('016_account_safety.sql');
    const kinds = Object.fromEntries(
      (await q('SELECT token_hash, kind FROM team_invites')).rows.map((r) => [r.token_hash, r.kind]),
    );
    expect(kinds).toEqual({
      'first-start': 'first_password',
      new: 'account',
      'has-key': 'join',
      'has-password': 'join',
      'two-teams': 'join',
      used: 'join',
    });
    const owners = (await q('SELECT email FROM users WHERE is_instance_owner')).rows;
    expect(owners).toEqual([{ email: 'owner@localhost' }]);
    expect((await q('SELECT count(*)::int AS n FROM users WHERE may_create_teams')).rows[0]).toEqual({ n: 0 });
  }, 60_000);
});
