// New passwords follow NIST SP 800-63B: at least 12 characters, not only whitespace, not a common
// password (the blocklist), its obvious variants or the account's own address. Each refusal is a 400
// naming the field. Passwords stored before the rules keep working.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { hashPassword } from '../../src/platform/auth/passwords.ts';
import * as store from '../../src/platform/auth/store.ts';

const REFUSED: [string, RegExp][] = [
  ['aaaaaaaaaa', /at least 12 characters \(it has 10\)/],
  [' '.repeat(10), /at least 12 characters/],
  [' '.repeat(14), /only spaces/],
  ['\t \u00a0'.repeat(5), /only spaces/],
  ['aaaaaaaaaaaa', /repeats/],
  ['abcabcabcabc', /repeats/],
  ['letmeinletmein', /repeats|common/],
  ['123456789012', /consecutive|common/],
  ['abcdefghijkl', /consecutive/],
  ['qazwsxedcrfv', /common/],
  ['1qaz2wsx3edc', /common/],
  ['Password2024!', /common/],
  ['iloveyou 1234', /common/],
  ['SUPERMAN12345', /common/],
  ['owner@localhost', /email/],
  ['Owner@Localhost', /email/],
];
const ACCEPTED = [
  'correct horse battery',
  'owner password 0123',
  'tawny-otter-sings-loudly',
  '839201746583',
  'Ünïcödé pässwörd',
];

describe('password rules', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => t?.close());

  const setPassword = (password: string) =>
    t.request({ method: 'PUT', url: '/v1/user/password', payload: { password } });

  it('refuses short, blank, common and self-naming passwords with a 400 naming the field', async () => {
    for (const [password, why] of REFUSED) {
      const res = await setPassword(password);
      expect(res.statusCode, JSON.stringify(password)).toBe(400);
      expect(res.json(), JSON.stringify(password)).toMatchObject({
        code: 'invalid_request',
        param: 'password',
        status: 400,
      });
      expect(res.json().message, JSON.stringify(password)).toMatch(why);
    }
    expect(await store.findPasswordHash(t.ctx.db, t.owner.userId)).toBeNull();
  });

  it('accepts long passwords that are on no list', async () => {
    for (const password of ACCEPTED) {
      const res = await setPassword(password);
      expect(res.statusCode, `${password}: ${res.body}`).toBe(200);
      const signIn = await t.request({
        method: 'POST',
        url: '/v1/auth/sign-in',
        key: null,
        payload: { email: 'owner@localhost', password },
      });
      expect(signIn.statusCode, password).toBe(200);
    }
  });

  it('checks a password set on accepting an invite the same way', async () => {
    const invite = await t.request({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: { email: 'new-member@example.com' },
    });
    const token = invite.json().invite_token as string;
    const weak = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: 'password1234' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ param: 'password', message: expect.stringMatching(/common/) });
    const self = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: 'new-member@example.com' },
    });
    expect(self.json()).toMatchObject({ param: 'password', message: expect.stringMatching(/email/) });
    // A refused password does not use the invite up.
    const ok = await t.request({
      method: 'POST',
      url: '/v1/user/invite/accept',
      key: null,
      payload: { token, password: 'a much better passphrase' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('keeps a password stored before the rules working', async () => {
    const old = await t.addUser('old-account@example.com', 'MEMBER');
    await store.setPasswordHash(t.ctx.db, old.userId, await hashPassword('tenchars10'));
    const res = await t.request({
      method: 'POST',
      url: '/v1/auth/sign-in',
      key: null,
      payload: { email: old.email, password: 'tenchars10' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
