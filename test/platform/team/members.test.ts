// Every rule of the spec's "Update team member" section, plus add / remove / list, over the real API.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';
import * as store from '../../../src/platform/auth/store.ts';

describe.each(dbKinds())('team members on %s', (kind) => {
  let t: TestApp;
  let n = 0;
  const email = (base: string) => `${base}${++n}@example.com`;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t.close());

  const patch = (key: string, payload: object) =>
    t.request({ method: 'PATCH', url: '/v1/user/team/member', key, payload });
  const roleOf = async (who: string) => {
    const res = await t.request({ method: 'GET', url: '/v1/user/team/member' });
    return (res.json().members as { email: string; role: string }[]).find((m) => m.email === who)?.role;
  };

  it('rule 1: only an Admin or the Owner may change roles', async () => {
    const target = await t.addUser(email('target'), 'member');
    for (const role of ['member', 'viewer', 'guest']) {
      const caller = await t.addUser(email(role), role);
      const res = await patch(caller.key, { email: target.email, role: 'viewer' });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ message: expect.stringMatching(/may not/), code: 'forbidden', status: 403 });
    }
    expect(await roleOf(target.email)).toBe('MEMBER');
    const admin = await t.addUser(email('admin'), 'admin');
    expect((await patch(admin.key, { email: target.email, role: 'viewer' })).statusCode).toBe(200);
    expect(await roleOf(target.email)).toBe('VIEWER');
  });

  it('rule 2: the Owner can update any member, Admins included', async () => {
    const admin = await t.addUser(email('admin'), 'ADMIN');
    const member = await t.addUser(email('member'), 'MEMBER');
    const a = await patch(t.owner.key, { email: admin.email, role: 'guest' });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ message: `${admin.email} is now GUEST` });
    expect((await patch(t.owner.key, { email: member.email, role: 'admin' })).statusCode).toBe(200);
    expect(await roleOf(admin.email)).toBe('GUEST');
    expect(await roleOf(member.email)).toBe('ADMIN');
  });

  it("rule 3: an Admin cannot change the Owner's role", async () => {
    const admin = await t.addUser(email('admin'), 'admin');
    for (const role of ['member', 'admin', 'viewer']) {
      const res = await patch(admin.key, { email: t.owner.email, role });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/Admin cannot change the Owner/);
    }
    expect(await roleOf(t.owner.email)).toBe('OWNER');
  });

  it('rule 4: the Owner role is neither taken nor given through this endpoint', async () => {
    const self = await patch(t.owner.key, { email: t.owner.email, role: 'admin' });
    expect(self.statusCode).toBe(403);
    expect(self.json().message).toMatch(/ownership transfer/);
    const member = await t.addUser(email('member'), 'member');
    for (const [key, role] of [
      [t.owner.key, 'OWNER'],
      [t.owner.key, 'owner'],
      [(await t.addUser(email('admin'), 'admin')).key, 'Owner'],
    ] as const) {
      const res = await patch(key, { email: member.email, role });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ param: 'role', code: 'invalid_request', status: 400 });
    }
    expect(await roleOf(member.email)).toBe('MEMBER');
    expect(await roleOf(t.owner.email)).toBe('OWNER');
  });

  it('rule 5: one Owner per team, enforced by the API and by the database', async () => {
    const add = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: email('new'), role: 'owner' },
    });
    expect(add.statusCode).toBe(400);
    expect(add.json().param).toBe('role');
    const members = (await t.request({ method: 'GET', url: '/v1/user/team/member' })).json().members as {
      role: string;
    }[];
    expect(members.filter((m) => m.role === 'OWNER')).toHaveLength(1);
    const user = await store.insertUser(t.ctx.db, email('sneaky'), t.owner.teamId);
    await expect(store.insertMember(t.ctx.db, t.owner.teamId, user.id, 'OWNER', true)).rejects.toThrow();
  });

  it('rule 6: a downgrade takes effect on the very next request; an upgrade keeps Member permissions', async () => {
    const admin = await t.addUser(email('admin'), 'admin');
    const add = (key: string) =>
      t.request({ method: 'POST', url: '/v1/user/team/member', key, payload: { email: email('invitee') } });
    expect((await add(admin.key)).statusCode).toBe(200);
    expect((await patch(t.owner.key, { email: admin.email, role: 'member' })).statusCode).toBe(200);
    const denied = await add(admin.key);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'forbidden', status: 403 });
    expect((await t.request({ method: 'GET', url: '/v1/user/team/member', key: admin.key })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/user', key: admin.key })).json()).toMatchObject({
      role: 'MEMBER',
      is_read_only: true,
    });

    expect((await patch(t.owner.key, { email: admin.email, role: 'admin' })).statusCode).toBe(200);
    expect((await add(admin.key)).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/v1/user/team/member', key: admin.key })).statusCode).toBe(200);
  });

  it('roles in any letter case are accepted and returned in upper case; unknown roles are refused', async () => {
    const member = await t.addUser(email('member'), 'member');
    expect((await patch(t.owner.key, { email: member.email, role: 'vIeWeR' })).json()).toEqual({
      message: `${member.email} is now VIEWER`,
    });
    expect(await roleOf(member.email)).toBe('VIEWER');
    const bad = await patch(t.owner.key, { email: member.email, role: 'superuser' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ param: 'role', message: expect.stringMatching(/unknown role "superuser"/) });
  });

  it('names the problem: unknown member 404, malformed email 400, missing email 400', async () => {
    const missing = await patch(t.owner.key, { email: 'nobody@example.com', role: 'admin' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ param: 'email', code: 'not_found', status: 404 });
    const malformed = await patch(t.owner.key, { email: 'not-an-email', role: 'admin' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ param: 'email', status: 400 });
    const noEmail = await patch(t.owner.key, { role: 'admin' });
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json()).toMatchObject({ param: 'email', message: 'email is required' });
  });

  it("without a role, accepts the caller's own invite; another member needs a role", async () => {
    const invitee = email('invitee');
    expect(
      (await t.request({ method: 'POST', url: '/v1/user/team/member', payload: { email: invitee, role: 'Viewer' } }))
        .statusCode,
    ).toBe(200);
    const listed = (await t.request({ method: 'GET', url: '/v1/user/team/member' }))
      .json()
      .members.find((m: { email: string }) => m.email === invitee);
    expect(listed).toMatchObject({ status: 'INVITED', role: 'VIEWER' });
    const user = (await store.findUserByEmail(t.ctx.db, invitee))!;
    const key = await issueKey(t.ctx.db, user.id);
    const res = await patch(key, { email: invitee.toUpperCase() });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toMatch(/invite accepted; your role is VIEWER/);
    const after = (await t.request({ method: 'GET', url: '/v1/user/team/member' }))
      .json()
      .members.find((m: { email: string }) => m.email === invitee);
    expect(after).toMatchObject({ status: 'ACCEPTED', accepted_at: expect.any(String) });
    const other = await patch(t.owner.key, { email: invitee });
    expect(other.statusCode).toBe(400);
    expect(other.json().param).toBe('role');
  });

  it('add: 409 for an existing member, 403 for a Member caller; remove: never the Owner, and a removed user loses access', async () => {
    const member = await t.addUser(email('member'), 'member');
    const dup = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: member.email.toUpperCase() },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'conflict', param: 'email' });
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/user/team/member',
          key: member.key,
          payload: { email: email('x') },
        })
      ).statusCode,
    ).toBe(403);

    const admin = await t.addUser(email('admin'), 'admin');
    const owner = await t.request({
      method: 'DELETE',
      url: '/v1/user/team/member',
      key: admin.key,
      payload: { email: t.owner.email },
    });
    expect(owner.statusCode).toBe(403);
    const gone = await t.request({
      method: 'DELETE',
      url: '/v1/user/team/member',
      key: admin.key,
      payload: { email: member.email },
    });
    expect(gone.statusCode).toBe(200);
    expect(await roleOf(member.email)).toBeUndefined();
    const after = await t.request({ method: 'GET', url: '/v1/user', key: member.key });
    expect(after.statusCode).toBe(403);
    expect(after.json()).toMatchObject({ code: 'forbidden', status: 403 });
  });
});
