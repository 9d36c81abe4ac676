// Account takeover through invites. The inviter receives the invite token, so redeeming it must never set
// or change the credentials of an account that exists, nor hand out a key of one: an existing account
// joins by accepting while signed in as itself. Only an account the invite itself created gets its first
// password and key from it. Checked in the database (password hash, key hashes) and by signing in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, type TestUser } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';
import { createTeamWithOwner, issueKey } from '../../src/platform/auth/service.ts';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import * as store from '../../src/platform/auth/store.ts';

const OWNER_PASSWORD = 'the owners own passphrase';
const CHOSEN = 'attacker chosen passphrase';

describe.each(dbKinds())('invites and existing accounts on %s', (kind) => {
  let t: TestApp;
  let attacker: TestUser & { teamId: string };
  beforeAll(async () => {
    t = await createTestApp(kind);
    // An attacker who is Owner of a workspace of their own (however they came by it).
    const made = await createTeamWithOwner(t.ctx.db, 'attacker@example.com', 'Attacker workspace');
    attacker = {
      email: 'attacker@example.com',
      userId: made.userId,
      teamId: made.teamId,
      key: await issueKey(t.ctx.db, made.userId),
    };
  });
  afterAll(async () => t?.close());

  /** What identifies the victim's credentials: password hash and key hashes, straight from the database. */
  const credentials = async (userId: number) => ({
    password: await store.findPasswordHash(t.ctx.db, userId),
    keys: (
      await t.ctx.db.query<{ key_hash: string }>('SELECT key_hash FROM api_keys WHERE user_id = $1 ORDER BY id', [
        userId,
      ])
    ).rows.map((r) => r.key_hash),
  });
  const invite = async (email: string, by = attacker) => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      key: by.key,
      headers: { 'x-team-id': by.teamId },
      payload: { email, role: 'guest' },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().invite_token as string;
  };
  const accept = (payload: Record<string, unknown>, key: string | null = null, headers: Record<string, string> = {}) =>
    t.request({ method: 'POST', url: '/v1/user/invite/accept', key, headers, payload });
  const signIn = (email: string, password: string) =>
    t.request({ method: 'POST', url: '/v1/auth/sign-in', key: null, payload: { email, password } });
  const membership = (teamId: string, userId: number) => store.findMembership(t.ctx.db, teamId, userId);

  it('the takeover sequence fails: an invite for the owner sets no password and hands out no key', async () => {
    const before = await credentials(t.owner.userId);
    expect(before.password).toBeNull(); // a first start's owner has a key and no password yet
    const token = await invite('owner@localhost');
    const withPassword = await accept({ token, password: CHOSEN });
    expect(withPassword.statusCode, withPassword.body).toBe(401);
    expect(withPassword.json().message).toMatch(/sign in as owner@localhost/);
    expect(withPassword.headers['set-cookie']).toBeUndefined();
    const withoutPassword = await accept({ token });
    expect(withoutPassword.statusCode).toBe(401);
    expect(withoutPassword.json().api_key).toBeUndefined();
    expect((await signIn('owner@localhost', CHOSEN)).statusCode).toBe(401);
    expect(await credentials(t.owner.userId)).toEqual(before);
    expect((await membership(attacker.teamId, t.owner.userId))!.status).toBe('INVITED');
    // The owner's key still works, as the owner.
    expect((await t.request({ method: 'GET', url: '/v1/user' })).json()).toMatchObject({
      email: 'owner@localhost',
      role: 'OWNER',
    });
  });

  it('an account with a password and one with only a key are not taken either', async () => {
    await store.setPasswordHash(t.ctx.db, t.owner.userId, await hashPassword(OWNER_PASSWORD));
    const keyOnly = await t.addUser('key-only@example.com', 'viewer');
    for (const [email, userId] of [
      ['owner@localhost', t.owner.userId],
      [keyOnly.email, keyOnly.userId],
    ] as const) {
      const before = await credentials(userId);
      const token = await invite(email);
      const res = await accept({ token, password: CHOSEN });
      expect(res.statusCode, email).toBe(401);
      expect(res.json().api_key, email).toBeUndefined();
      expect(await credentials(userId), email).toEqual(before);
      expect((await signIn(email, CHOSEN)).statusCode, email).toBe(401);
    }
    expect((await signIn('owner@localhost', OWNER_PASSWORD)).statusCode).toBe(200);
  });

  it('someone else signed in cannot accept it: the caller must be the invited account', async () => {
    const token = await invite('owner@localhost');
    const other = await t.addUser('bystander@example.com', 'member');
    for (const key of [attacker.key, other.key]) {
      const res = await accept({ token }, key);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toMatch(/for owner@localhost/);
    }
    expect((await membership(attacker.teamId, t.owner.userId))!.status).toBe('INVITED');
  });

  it('the invited account accepts through its own sign-in (session and CSRF token) or its own key', async () => {
    const token = await invite('owner@localhost');
    const lookup = await t.request({ method: 'POST', url: '/v1/user/invite/lookup', key: null, payload: { token } });
    expect(lookup.json()).toMatchObject({
      email: 'owner@localhost',
      team_name: 'Attacker workspace',
      accept_with: 'sign_in',
    });
    const signedIn = await signIn('owner@localhost', OWNER_PASSWORD);
    const cookie = signedIn.cookies.find((c) => c.name === 'vigil_session')!.value;
    const csrf = signedIn.json().csrf_token as string;
    // The session alone is not enough for a change: the CSRF token too.
    expect((await accept({ token }, null, { cookie: `vigil_session=${cookie}` })).statusCode).toBe(403);
    const ok = await accept({ token }, null, { cookie: `vigil_session=${cookie}`, 'x-csrf-token': csrf });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'owner@localhost', team_id: attacker.teamId });
    expect(ok.json().api_key).toBeUndefined();
    expect((await membership(attacker.teamId, t.owner.userId))!.status).toBe('ACCEPTED');
    // With the key: another team's invite.
    const second = await createTeamWithOwner(t.ctx.db, 'second@example.com', 'Second');
    const secondOwner = {
      email: 'second@example.com',
      userId: second.userId,
      teamId: second.teamId,
      key: await issueKey(t.ctx.db, second.userId),
    };
    const token2 = await invite('owner@localhost', secondOwner);
    const viaKey = await accept({ token: token2 }, t.owner.key);
    expect(viaKey.statusCode, viaKey.body).toBe(200);
    expect((await membership(second.teamId, t.owner.userId))!.status).toBe('ACCEPTED');
  });

  it('a new account is made only for the invited address, by the invite that created it', async () => {
    const token = await invite('brand-new@example.com');
    const lookup = await t.request({ method: 'POST', url: '/v1/user/invite/lookup', key: null, payload: { token } });
    expect(lookup.json()).toMatchObject({ email: 'brand-new@example.com', accept_with: 'password' });
    // A second team invites the same address before it is claimed: that invite is for an existing account.
    const other = await createTeamWithOwner(t.ctx.db, 'third@example.com', 'Third');
    const token2 = await invite('brand-new@example.com', {
      email: 'third@example.com',
      userId: other.userId,
      teamId: other.teamId,
      key: await issueKey(t.ctx.db, other.userId),
    });
    const taken = await accept({ token: token2, password: CHOSEN });
    expect(taken.statusCode).toBe(401);
    const user = (await store.findUserByEmail(t.ctx.db, 'brand-new@example.com'))!;
    expect(await credentials(user.id)).toEqual({ password: null, keys: [] });

    const ok = await accept({ token, password: 'brand new members passphrase' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      email: 'brand-new@example.com',
      api_key: expect.stringMatching(/^vgl_/),
      csrf_token: expect.any(String),
    });
    // Now the account exists with credentials: the second invite is accepted by signing in as it.
    expect((await accept({ token: token2 }, ok.json().api_key)).statusCode).toBe(200);
  });

  it("the first start's password link sets the owner's password once and never a key", async () => {
    const fresh = await createTestApp(kind);
    try {
      const { createPasswordLink } = await import('../../src/platform/team/invites.ts');
      const token = (await createPasswordLink(fresh.ctx.db, fresh.owner.userId, fresh.owner.teamId)).token;
      const keysBefore = (
        await fresh.ctx.db.query('SELECT key_hash FROM api_keys WHERE user_id = $1', [fresh.owner.userId])
      ).rows;
      const lookup = await fresh.request({
        method: 'POST',
        url: '/v1/user/invite/lookup',
        key: null,
        payload: { token },
      });
      expect(lookup.json()).toMatchObject({ email: 'owner@localhost', accept_with: 'password' });
      const ok = await fresh.request({
        method: 'POST',
        url: '/v1/user/invite/accept',
        key: null,
        payload: { token, password: OWNER_PASSWORD },
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json().api_key).toBeUndefined();
      expect(
        (await fresh.ctx.db.query('SELECT key_hash FROM api_keys WHERE user_id = $1', [fresh.owner.userId])).rows,
      ).toEqual(keysBefore);
      const again = await fresh.request({
        method: 'POST',
        url: '/v1/user/invite/accept',
        key: null,
        payload: { token, password: CHOSEN },
      });
      expect(again.statusCode).toBe(404);
    } finally {
      await fresh.close();
    }
  });
});
