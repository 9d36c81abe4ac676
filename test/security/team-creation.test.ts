// Who may create a team (and so become Owner of a workspace where they upload templates and run scans) is
// the instance's decision, not every user's: VIGIL_TEAM_CREATION=owner|allowed|everyone, default
// `allowed` (the instance owner, the first account, and the users that owner allowed through
// /v1/instance/team-creators or `vigil users allow-teams`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.ts';
import { createTeamWithOwner, issueKey } from '../../src/platform/auth/service.ts';
import { TASKS } from '../../src/platform/admin/tasks.ts';

type Role = 'ADMIN' | 'MEMBER' | 'VIEWER' | 'GUEST';
const ROLES: Role[] = ['ADMIN', 'MEMBER', 'VIEWER', 'GUEST'];

async function withUsers(config: Record<string, unknown> = {}) {
  const t = await createTestApp('pglite', config);
  const users = {} as Record<Role, TestUser>;
  for (const r of ROLES) users[r] = await t.addUser(`${r.toLowerCase()}@example.com`, r);
  return { t, users };
}

const create = (t: TestApp, key: string, name = 'Mine') =>
  t.request({ method: 'POST', url: '/v1/user/team', key, payload: { name } });

describe('team creation', () => {
  let t: TestApp;
  let users: Record<Role, TestUser>;
  const others: TestApp[] = [];
  beforeAll(async () => {
    ({ t, users } = await withUsers());
  });
  afterAll(async () => {
    await t?.close();
    for (const o of others) await o.close();
  });

  it('by default a Viewer, Guest, Member or Admin gets 403; the instance owner creates teams', async () => {
    for (const r of ROLES) {
      const res = await create(t, users[r].key);
      expect(res.statusCode, r).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', message: expect.stringMatching(/instance owner/) });
      expect((await t.request({ method: 'GET', url: '/v1/user', key: users[r].key })).json().can_create_team, r).toBe(
        false,
      );
    }
    expect((await t.ctx.db.query('SELECT count(*)::int AS n FROM teams')).rows[0]).toEqual({ n: 1 });
    expect((await t.request({ method: 'GET', url: '/v1/user' })).json()).toMatchObject({
      can_create_team: true,
      is_instance_owner: true,
    });
    expect((await create(t, t.owner.key)).statusCode).toBe(200);
  });

  it("a team's Owner is not the instance owner: no teams, no grants", async () => {
    const made = await createTeamWithOwner(t.ctx.db, 'other-owner@example.com', 'Other');
    const key = await issueKey(t.ctx.db, made.userId);
    expect((await create(t, key)).statusCode).toBe(403);
    const grant = await t.request({
      method: 'POST',
      url: '/v1/instance/team-creators',
      key,
      payload: { email: users.VIEWER.email },
    });
    expect(grant.statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/v1/instance/team-creators', key })).statusCode).toBe(403);
  });

  it('the instance owner allows a user (API), who may then create teams, until revoked', async () => {
    const viewer = users.VIEWER;
    const grant = await t.request({
      method: 'POST',
      url: '/v1/instance/team-creators',
      payload: { email: viewer.email },
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const list = (await t.request({ method: 'GET', url: '/v1/instance/team-creators' })).json();
    expect(list).toMatchObject({ mode: 'allowed', users: [{ email: viewer.email }] });
    expect((await t.request({ method: 'GET', url: '/v1/user', key: viewer.key })).json().can_create_team).toBe(true);
    const made = await create(t, viewer.key, 'Viewer workspace');
    expect(made.statusCode, made.body).toBe(200);
    expect(
      (
        await t.request({
          method: 'GET',
          url: '/v1/user',
          key: viewer.key,
          headers: { 'x-team-id': made.json().team_id },
        })
      ).json().role,
    ).toBe('OWNER');
    // The Guest is still refused.
    expect((await create(t, users.GUEST.key)).statusCode).toBe(403);
    const revoke = await t.request({
      method: 'DELETE',
      url: '/v1/instance/team-creators',
      payload: { email: viewer.email },
    });
    expect(revoke.statusCode).toBe(200);
    expect((await create(t, viewer.key)).statusCode).toBe(403);
    const unknown = await t.request({
      method: 'POST',
      url: '/v1/instance/team-creators',
      payload: { email: 'nobody@example.com' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().param).toBe('email');
  });

  it('the operator allows a user with `vigil users allow-teams` (the admin task)', async () => {
    const out: string[] = [];
    const io = { out: (s: string) => void out.push(s), err: (s: string) => void out.push(s), tty: false };
    await TASKS['users allow-teams'](t.ctx.db, { email: users.GUEST.email }, io);
    expect((await create(t, users.GUEST.key)).statusCode).toBe(200);
    await TASKS['users deny-teams'](t.ctx.db, { email: users.GUEST.email }, io);
    expect((await create(t, users.GUEST.key)).statusCode).toBe(403);
    expect(out.join('')).toMatch(/guest@example.com/);
  });

  it('VIGIL_TEAM_CREATION=everyone lets any user create one; =owner only the instance owner, grants or not', async () => {
    const open = await withUsers({ teamCreation: 'everyone' });
    others.push(open.t);
    for (const r of ROLES) expect((await create(open.t, open.users[r].key)).statusCode, r).toBe(200);
    const closed = await withUsers({ teamCreation: 'owner' });
    others.push(closed.t);
    expect(
      (
        await closed.t.request({
          method: 'POST',
          url: '/v1/instance/team-creators',
          payload: { email: closed.users.ADMIN.email },
        })
      ).statusCode,
    ).toBe(200);
    expect((await create(closed.t, closed.users.ADMIN.key)).statusCode).toBe(403);
    expect((await create(closed.t, closed.t.owner.key)).statusCode).toBe(200);
  });
});
