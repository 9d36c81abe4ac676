// Password guessing in parallel: the failed sign-in limit (5 per account, 30 per address in 15 minutes)
// must hold when the guesses arrive at once. Each try is counted before its password is hashed, so at most
// the limit of tries is ever checked; every other answer is a 429 that never reached the password check.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';

const PASSWORD = 'the right password 2024';

describe('failed sign-in limit under parallel guesses', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp('pglite');
    const set = await t.request({ method: 'PUT', url: '/v1/user/password', payload: { password: PASSWORD } });
    expect(set.statusCode, set.body).toBe(200);
  });
  afterEach(async () => t?.close());

  const signIn = (email: string, password: string, ip = '203.0.113.7') =>
    t.app.inject({ method: 'POST', url: '/v1/auth/sign-in', payload: { email, password }, remoteAddress: ip });

  it('60 parallel guesses for one account: at most 5 are checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn('owner@localhost', `wrong guess number ${i}`)),
    );
    const checked = answers.filter((r) => r.statusCode !== 429);
    console.log(`60 parallel guesses: ${checked.length} checked (401), ${60 - checked.length} refused with 429`);
    expect(checked.every((r) => r.statusCode === 401)).toBe(true);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.filter((r) => r.statusCode === 429).every((r) => r.json().code === 'rate_limited')).toBe(true);
    // The right password is refused too until the window passes, from another address as well.
    expect((await signIn('owner@localhost', PASSWORD, '198.51.100.9')).statusCode).toBe(429);
  });

  it('60 parallel guesses from one address over many accounts: at most 30 are checked', async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => signIn(`user${i}@example.com`, 'some wrong password')),
    );
    const checked = answers.filter((r) => r.statusCode !== 429).length;
    expect(checked).toBeLessThanOrEqual(30);
    expect(checked).toBeGreaterThan(0);
  });

  it('a success does not count against the address, and clears the account', async () => {
    // One after another (tries in flight count until they succeed: five at once at most per account).
    for (let i = 0; i < 35; i++) expect((await signIn('owner@localhost', PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) expect((await signIn('owner@localhost', 'wrong wrong wrong')).statusCode).toBe(401);
    expect((await signIn('owner@localhost', PASSWORD)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) expect((await signIn('owner@localhost', 'wrong wrong wrong')).statusCode).toBe(401);
    expect((await signIn('owner@localhost', PASSWORD)).statusCode).toBe(429);
  });
});
