// Authentication (X-API-Key / X-PDCP-Key), team selection (X-Team-Id), key hashing and rotation,
// first-start bootstrap, and the permission table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds, freshDb } from '../../helpers/db.ts';
import { bootstrapOwner, createTeamWithOwner, issueKey } from '../../../src/platform/auth/service.ts';
import { hashApiKey } from '../../../src/platform/auth/keys.ts';
import * as store from '../../../src/platform/auth/store.ts';
import { ACTIONS, ROLES, can, parseRole } from '../../../src/platform/auth/permissions.ts';

describe.each(dbKinds())('authentication on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t.close());

  it('401 with the error body for a missing, empty or unknown key; X-PDCP-Key works too', async () => {
    for (const headers of [{}, { 'x-api-key': '' }, { 'x-api-key': 'vgl_unknown' }, { 'x-pdcp-key': 'nope' }]) {
      const res = await t.request({ method: 'GET', url: '/v1/user', key: null, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: expect.any(String), code: 'unauthorized', status: 401 });
    }
    const pdcp = await t.request({ method: 'GET', url: '/v1/user', key: null, headers: { 'x-pdcp-key': t.owner.key } });
    expect(pdcp.statusCode).toBe(200);
    expect(pdcp.json()).toMatchObject({ email: 'owner@localhost', team_id: t.owner.teamId, role: 'OWNER' });
    // nuclei's key check reads name and email; the header name is case-insensitive (X-Api-Key).
    const nuclei = await t.request({
      method: 'GET',
      url: '/v1/user',
      key: null,
      headers: { 'X-Api-Key': t.owner.key },
    });
    expect(nuclei.json()).toMatchObject({ email: 'owner@localhost', name: 'owner' });
  });

  it('X-Team-Id picks the team; without it the default team; a team the user is not in: 403', async () => {
    const member = await t.addUser('two-teams@example.com', 'viewer');
    const other = await createTeamWithOwner(t.ctx.db, 'other-owner@example.com', 'Other team');
    const outsider = await createTeamWithOwner(t.ctx.db, 'outsider@example.com', 'Not yours');
    await store.insertMember(t.ctx.db, other.teamId, member.userId, 'ADMIN', true);

    const byDefault = await t.request({ method: 'GET', url: '/v1/user', key: member.key });
    expect(byDefault.json()).toMatchObject({ team_id: t.owner.teamId, role: 'VIEWER' });
    const picked = await t.request({
      method: 'GET',
      url: '/v1/user',
      key: member.key,
      headers: { 'x-team-id': other.teamId },
    });
    expect(picked.json()).toMatchObject({ team_id: other.teamId, role: 'ADMIN', team_name: 'Other team' });
    // The role is per team: Admin there may add members, Viewer here may not.
    const addThere = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      key: member.key,
      headers: { 'x-team-id': other.teamId },
      payload: { email: 'x1@example.com' },
    });
    expect(addThere.statusCode).toBe(200);
    const addHere = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      key: member.key,
      payload: { email: 'x2@example.com' },
    });
    expect(addHere.statusCode).toBe(403);
    // Data is team-scoped: the other team's member list is not this one's.
    const listThere = await t.request({
      method: 'GET',
      url: '/v1/user/team/member',
      key: member.key,
      headers: { 'x-team-id': other.teamId },
    });
    expect(
      listThere
        .json()
        .members.map((m: { email: string }) => m.email)
        .sort(),
    ).toEqual(['other-owner@example.com', 'two-teams@example.com', 'x1@example.com']);

    for (const team of [outsider.teamId, 'no-such-team']) {
      const res = await t.request({
        method: 'GET',
        url: '/v1/user/team/member',
        key: member.key,
        headers: { 'x-team-id': team },
      });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: `not a member of team ${team}`, code: 'forbidden', status: 403 });
    }
    const teams = await t.request({ method: 'GET', url: '/v1/user/team', key: member.key });
    expect(
      teams
        .json()
        .workspaces.map((w: { name: string }) => w.name)
        .sort(),
    ).toEqual(['Default team', 'Other team']);

    // Removed from the default team, the user falls back to a team they are still in.
    await store.deleteMember(t.ctx.db, t.owner.teamId, member.userId);
    const fallback = await t.request({ method: 'GET', url: '/v1/user', key: member.key });
    expect(fallback.json()).toMatchObject({ team_id: other.teamId, role: 'ADMIN' });
  });

  it('stores only a SHA-256 hash of each key', async () => {
    const user = await t.addUser('hashed@example.com', 'member');
    const { rows } = await t.ctx.db.query<{ key_hash: string; key_prefix: string }>(
      'SELECT key_hash, key_prefix FROM api_keys WHERE user_id = $1',
      [user.userId],
    );
    // The shown prefix carries no character of the key itself, only of its hash.
    expect(rows).toEqual([{ key_hash: hashApiKey(user.key), key_prefix: `vgl_…${hashApiKey(user.key).slice(0, 4)}` }]);
    expect(rows[0]!.key_prefix).not.toContain(user.key.slice(4, 8));
    expect(rows[0]!.key_hash).toMatch(/^[0-9a-f]{64}$/);
    const all = await t.ctx.db.query('SELECT * FROM api_keys');
    expect(JSON.stringify(all.rows)).not.toContain(user.key);
    expect(JSON.stringify(all.rows)).not.toContain(t.owner.key);
  });

  it('rotation returns a new key; the old one stops working at once', async () => {
    const user = await t.addUser('rotate@example.com', 'guest');
    const res = await t.request({ method: 'POST', url: '/v1/user/apikey/rotate', key: user.key });
    expect(res.statusCode).toBe(200);
    const { api_key: fresh, message } = res.json();
    expect(message).toEqual(expect.any(String));
    expect(fresh).toMatch(/^vgl_/);
    expect(fresh).not.toBe(user.key);
    expect((await t.request({ method: 'GET', url: '/v1/user', key: user.key })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/user', key: fresh })).json().email).toBe('rotate@example.com');
    const stored = await t.ctx.db.query('SELECT key_hash FROM api_keys WHERE user_id = $1', [user.userId]);
    expect(stored.rows).toEqual([{ key_hash: hashApiKey(fresh) }]);
  });
});

describe.each(dbKinds())('first-start bootstrap on %s', (kind) => {
  it('two bootstraps at once create one team and one owner; only the first returns a key', async () => {
    const testDb = await freshDb(kind);
    try {
      const results = await Promise.all([
        bootstrapOwner(testDb.db, 'boss@example.com'),
        bootstrapOwner(testDb.db, 'boss@example.com'),
      ]);
      const keys = results.map((r) => r.apiKey).filter(Boolean) as string[];
      expect(keys).toHaveLength(1);
      expect((await testDb.db.query('SELECT * FROM teams')).rowCount).toBe(1);
      const owners = await testDb.db.query<{ email: string }>(
        "SELECT u.email FROM team_members m JOIN users u ON u.id = m.user_id WHERE m.role = 'OWNER'",
      );
      expect(owners.rows).toEqual([{ email: 'boss@example.com' }]);
      expect((await store.findUserByKeyHash(testDb.db, hashApiKey(keys[0]!)))!.email).toBe('boss@example.com');
      // VIGIL_BOOTSTRAP_API_KEY on a later start changes nothing: the owner keeps the key it has.
      const again = await bootstrapOwner(testDb.db, 'boss@example.com', 'vgl_given_0123456789');
      expect(again.apiKey).toBeUndefined();
      expect(await store.findUserByKeyHash(testDb.db, hashApiKey('vgl_given_0123456789'))).toBeUndefined();
      expect(await store.findUserByKeyHash(testDb.db, hashApiKey(keys[0]!))).toBeDefined();
      // issueKey with no given value makes a fresh random key each time.
      const owner = (await store.findUserByEmail(testDb.db, 'BOSS@example.com'))!;
      expect(await issueKey(testDb.db, owner.id)).not.toBe(await issueKey(testDb.db, owner.id));
    } finally {
      await testDb.drop();
    }
  }, 120_000);
});

describe('the permission table', () => {
  it('follows the spec role table', () => {
    for (const a of ACTIONS) expect(can('OWNER', a)).toBe(true);
    expect(can('ADMIN', 'team:delete')).toBe(false);
    expect(can('ADMIN', 'billing:manage')).toBe(false);
    for (const a of [
      'team:manage_members',
      'team:manage_settings',
      'integrations:manage',
      'scans:manage',
      'assets:manage',
    ] as const) {
      expect(can('ADMIN', a)).toBe(true);
    }
    for (const role of ['MEMBER', 'VIEWER', 'GUEST'] as const) {
      expect(can(role, 'scans:view')).toBe(true);
      expect(can(role, 'results:view')).toBe(true);
      for (const a of ACTIONS.filter((x) => !x.endsWith(':view'))) expect(can(role, a)).toBe(false);
    }
  });

  it('parses roles in any letter case', () => {
    expect(ROLES.map((r) => parseRole(r.toLowerCase()))).toEqual([...ROLES]);
    expect(parseRole(' Admin ')).toBe('ADMIN');
    expect(parseRole('root')).toBeUndefined();
  });
});
