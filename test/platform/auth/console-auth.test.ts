// Console accounts over the real API: passwords set through invites, sign-in with a password or an API
// key giving an HttpOnly SameSite=Strict session cookie, CSRF on changes made with the cookie, sign-out
// ending the session server-side, failed sign-ins limited, own key view and rotation, password change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';

const PASSWORD = 'correct horse battery';

function sessionCookie(res: LightMyRequestResponse): { value: string; raw: string } {
  const raw = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('vigil_session='));
  expect(raw, 'a session cookie is set').toBeTruthy();
  return { value: raw!.split(';')[0]!.slice('vigil_session='.length), raw: raw! };
}

describe.each(dbKinds())('console accounts on %s', (kind) => {
  let t: TestApp;
  let n = 0;
  const email = (base: string) => `${base}${++n}@example.com`;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t?.close());

  /** As the browser sends it: the cookie, and the CSRF token when given. */
  const withCookie = (cookie: string, opts: { method: string; url: string; payload?: object; csrf?: string }) =>
    t.request({
      method: opts.method as 'GET',
      url: opts.url,
      payload: opts.payload,
      key: null,
      headers: { cookie: `vigil_session=${cookie}`, ...(opts.csrf ? { 'x-csrf-token': opts.csrf } : {}) },
    });

  const invite = async (who: string, role = 'member') => {
    const res = await t.request({ method: 'POST', url: '/v1/user/team/member', payload: { email: who, role } });
    expect(res.statusCode).toBe(200);
    return res.json().invite_token as string;
  };

  it('an invited member sets a password on the invite and is signed in by it', async () => {
    const who = email('invited');
    const token = await invite(who);
    // A too short password is refused and the invite stays usable.
    const short = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: 'short' },
    });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ param: 'password', status: 400 });
    const res = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: PASSWORD },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.api_key).toMatch(/^vgl_/);
    expect(body.csrf_token).toBeTruthy();
    const cookie = sessionCookie(res);
    expect(cookie.raw).toMatch(/HttpOnly/i);
    expect(cookie.raw).toMatch(/SameSite=Strict/i);
    expect(cookie.raw).not.toMatch(/Secure/i);
    const me = await withCookie(cookie.value, { method: 'GET', url: '/v1/user' });
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ email: who, role: 'MEMBER' });
    // Used once only.
    const again = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: PASSWORD },
    });
    expect(again.statusCode).toBe(404);
    // The password signs in from now on.
    const signIn = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { email: who.toUpperCase(), password: PASSWORD },
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().email).toBe(who);
  });

  it('changes made with the cookie need the CSRF token; roles still apply', async () => {
    const signIn = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { api_key: t.owner.key },
    });
    expect(signIn.statusCode).toBe(200);
    const { value } = sessionCookie(signIn);
    const csrf = signIn.json().csrf_token as string;
    const rename = (headers: { csrf?: string }) =>
      withCookie(value, { method: 'PATCH', url: '/v1/user/team', payload: { name: 'Renamed' }, ...headers });
    const none = await rename({});
    expect(none.statusCode).toBe(403);
    expect(none.json()).toMatchObject({ code: 'csrf_failed', status: 403 });
    expect((await rename({ csrf: csrf.slice(1) + 'x' })).statusCode).toBe(403);
    expect((await rename({ csrf })).statusCode).toBe(200);
    // Reads need no token; the session endpoint hands it back to a reloaded console.
    const s = await withCookie(value, { method: 'GET', url: '/v1/auth/session' });
    expect(s.json()).toMatchObject({ email: t.owner.email, role: 'OWNER', via: 'session', csrf_token: csrf });
    // With an API key there is no session and no CSRF token to send.
    const k = await t.request({ method: 'GET', url: '/v1/auth/session' });
    expect(k.json()).toMatchObject({ via: 'api_key' });
    expect(k.json().csrf_token).toBeUndefined();

    // A Member signed in by cookie is refused changes by role even with the right token.
    const who = email('member');
    const token = await invite(who);
    const acc = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: PASSWORD },
    });
    const m = sessionCookie(acc).value;
    const scan = await withCookie(m, {
      method: 'POST',
      url: '/v1/scans',
      payload: { name: 'x', targets: ['http://127.0.0.1:1'] },
      csrf: acc.json().csrf_token,
    });
    expect(scan.statusCode).toBe(403);
    expect(scan.json().code).toBe('forbidden');
  });

  it('a cross-site form cannot sign a browser in (only JSON bodies are read)', async () => {
    for (const [type, payload] of [
      ['text/plain', JSON.stringify({ api_key: t.owner.key })],
      ['application/x-www-form-urlencoded', `api_key=${encodeURIComponent(t.owner.key)}`],
      [
        'multipart/form-data; boundary=x',
        `--x\r\nContent-Disposition: form-data; name="api_key"\r\n\r\n${t.owner.key}\r\n--x--\r\n`,
      ],
    ] as const) {
      const res = await t.request({
        method: 'POST',
        url: '/v1/auth/sign-in',
        key: null,
        headers: { 'content-type': type },
        payload,
      });
      expect(res.statusCode, type).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, type).toBeLessThan(500);
      expect(res.headers['set-cookie'], type).toBeUndefined();
    }
  });

  it('sign-out ends the session on the server', async () => {
    const signIn = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { api_key: t.owner.key },
    });
    const { value } = sessionCookie(signIn);
    const csrf = signIn.json().csrf_token as string;
    expect((await withCookie(value, { method: 'POST', url: '/v1/auth/sign-out' })).statusCode).toBe(403); // CSRF too
    const out = await withCookie(value, { method: 'POST', url: '/v1/auth/sign-out', csrf });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/vigil_session=;/);
    // The old cookie, replayed, no longer works.
    const after = await withCookie(value, { method: 'GET', url: '/v1/user' });
    expect(after.statusCode).toBe(401);
    const { rows } = await t.ctx.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sessions WHERE csrf_token = $1',
      [csrf],
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('wrong credentials are refused alike, and repeated failures are limited', async () => {
    const who = email('limited');
    const token = await invite(who);
    await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: PASSWORD },
    });
    const attempt = (password: string) =>
      t.request({ method: 'POST', url: '/v1/auth/sign-in', key: null, payload: { email: who, password } });
    const unknown = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { email: email('nobody'), password: PASSWORD },
    });
    expect(unknown.statusCode).toBe(401);
    for (let i = 0; i < 5; i++) {
      const res = await attempt('wrong password ' + i);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ message: 'wrong email or password', code: 'unauthorized' });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
    // The sixth try is refused even with the right password.
    const limited = await attempt(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'rate_limited', status: 429 });
    expect(limited.headers['set-cookie']).toBeUndefined();
    const badKey = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { api_key: 'vgl_wrong' },
    });
    expect(badKey.statusCode).toBe(401);
    const missing = await t.request({ method: 'POST', url: '/v1/auth/sign-in', key: null, payload: { email: who } });
    expect(missing.statusCode).toBe(400);
  });

  it('an invite never replaces the password of an account that has one', async () => {
    const who = email('twice');
    const first = await invite(who);
    const made = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token: first, password: PASSWORD },
    });
    // Invited into a second workspace of the owner.
    const ws = await t.request({ method: 'POST', url: '/v1/user/team', payload: { name: 'Second' } });
    const teamId = ws.json().team_id as string;
    const add = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: who, role: 'member' },
      headers: { 'x-team-id': teamId },
    });
    const second = add.json().invite_token as string;
    const res = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token: second, password: 'another passphrase 123' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toContain(`sign in as ${who}`);
    const old = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { email: who, password: PASSWORD },
    });
    expect(old.statusCode).toBe(200);
    // Signed in, a password in the accept is still refused; the invite is not used up by the refusals.
    const withPassword = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: made.json().api_key,
      payload: { token: second, password: 'another passphrase 123' },
    });
    expect(withPassword.statusCode).toBe(400);
    expect(withPassword.json().param).toBe('password');
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/user/invite/accept',
          key: made.json().api_key,
          payload: { token: second },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('own password change needs the current one with a session (not with the key) and ends other sessions', async () => {
    const u = await t.addUser(email('pw'), 'viewer');
    const set = await t.request({
      method: 'PUT',
      url: '/v1/user/password',
      key: u.key,
      payload: { password: PASSWORD },
    });
    expect(set.statusCode).toBe(200);
    const s1 = sessionCookie(
      await t.request({
        method: 'POST',
        url: '/v1/auth/sign-in',
        key: null,
        payload: { email: u.email, password: PASSWORD },
      }),
    );
    // With the session, the current password is needed.
    const csrf = (await withCookie(s1.value, { method: 'GET', url: '/v1/auth/session' })).json().csrf_token as string;
    const noCurrent = await withCookie(s1.value, {
      method: 'PUT',
      url: '/v1/user/password',
      payload: { password: 'fresh lilac kettle 456' },
      csrf,
    });
    expect(noCurrent.statusCode).toBe(400);
    expect(noCurrent.json().param).toBe('current_password');
    const wrong = await withCookie(s1.value, {
      method: 'PUT',
      url: '/v1/user/password',
      payload: { password: 'fresh lilac kettle 456', current_password: 'nope nope nope' },
      csrf,
    });
    expect(wrong.statusCode).toBe(400);
    const s2 = sessionCookie(
      await t.request({
        method: 'POST',
        url: '/v1/auth/sign-in',
        key: null,
        payload: { email: u.email, password: PASSWORD },
      }),
    );
    const ok = await withCookie(s1.value, {
      method: 'PUT',
      url: '/v1/user/password',
      payload: { password: 'fresh lilac kettle 456', current_password: PASSWORD },
      csrf,
    });
    expect(ok.statusCode).toBe(200);
    // The session that changed it lives on; the other one has ended.
    expect((await withCookie(s1.value, { method: 'GET', url: '/v1/user' })).statusCode).toBe(200);
    expect((await withCookie(s2.value, { method: 'GET', url: '/v1/user' })).statusCode).toBe(401);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/auth/sign-in',
          key: null,
          payload: { email: u.email, password: PASSWORD },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/auth/sign-in',
          key: null,
          payload: { email: u.email, password: 'fresh lilac kettle 456' },
        })
      ).statusCode,
    ).toBe(200);
    // A forgotten password is reset with the API key, without the current one.
    expect(
      (
        await t.request({
          method: 'PUT',
          url: '/v1/user/password',
          key: u.key,
          payload: { password: 'third lilac kettle 789' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await withCookie(s1.value, { method: 'GET', url: '/v1/user' })).statusCode).toBe(401);
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/v1/auth/sign-in',
          key: null,
          payload: { email: u.email, password: 'third lilac kettle 789' },
        })
      ).statusCode,
    ).toBe(200);
    const { rows } = await t.ctx.db.query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [
      u.userId,
    ]);
    expect(rows[0]!.password_hash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(rows[0]!.password_hash).not.toContain('new password');
  });

  it('every user sees their key prefix and rotates it, also from the console session', async () => {
    const u = await t.addUser(email('keys'), 'member');
    const view = await t.request({ method: 'GET', url: '/v1/user/apikey', key: u.key });
    expect(view.json()).toMatchObject({ has_key: true, key_prefix: expect.stringMatching(/^vgl_…[0-9a-f]{4}$/) });
    expect(JSON.stringify(view.json())).not.toContain(u.key.slice(4, 12));
    const signIn = await t.request({ method: 'POST', url: '/v1/auth/sign-in', key: null, payload: { api_key: u.key } });
    const { value } = sessionCookie(signIn);
    const rot = await withCookie(value, {
      method: 'POST',
      url: '/v1/user/apikey/rotate',
      csrf: signIn.json().csrf_token,
    });
    expect(rot.statusCode).toBe(200);
    const fresh = rot.json().api_key as string;
    expect((await t.request({ method: 'GET', url: '/v1/user', key: u.key })).statusCode).toBe(401);
    expect((await t.request({ method: 'GET', url: '/v1/user', key: fresh })).statusCode).toBe(200);
    // The session lives on: it is not tied to the key.
    expect((await withCookie(value, { method: 'GET', url: '/v1/user' })).statusCode).toBe(200);
  });
});

describe('session cookie over HTTPS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { publicUrl: 'https://vigil.example.com' });
  }, 120_000);
  afterAll(() => t?.close());

  it('is Secure when the public URL is HTTPS', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { api_key: t.owner.key },
    });
    expect(res.statusCode).toBe(200);
    expect(sessionCookie(res).raw).toMatch(/;\s*Secure/i);
  });
});
