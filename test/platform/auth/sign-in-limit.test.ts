// The failed sign-in limiter on its own: a sliding window per key, cleared by success, bounded in size.
import { describe, expect, it } from 'vitest';
import { FailureLimiter } from '../../../src/platform/auth/sign-in-limit.ts';
import { hashPassword, verifyPassword } from '../../../src/platform/auth/passwords.ts';

describe('failed sign-in limiter', () => {
  it('refuses after max failures until the oldest leaves the window', () => {
    const l = new FailureLimiter({ max: 3, windowMs: 60_000 });
    const t0 = 1_000_000;
    for (let i = 0; i < 3; i++) {
      expect(l.retryAfter('a', t0 + i * 1000)).toBe(0);
      l.fail('a', t0 + i * 1000);
    }
    expect(l.retryAfter('a', t0 + 3000)).toBe(57);
    expect(l.retryAfter('b', t0 + 3000)).toBe(0); // other keys are not affected
    expect(l.retryAfter('a', t0 + 60_001)).toBe(0); // the first failure has left the window
    l.fail('a', t0 + 60_001); // in the window now: t0+1000, t0+2000, t0+60001
    expect(l.retryAfter('a', t0 + 60_001)).toBe(1); // t0+1000 leaves it 0.999 s later
    l.clear('a'); // a success
    expect(l.retryAfter('a', t0 + 60_001)).toBe(0);
  });

  it('forgives one counted try (a success) and nothing else', () => {
    const l = new FailureLimiter({ max: 2, windowMs: 60_000 });
    l.fail('a', 1000);
    l.fail('a', 1000);
    expect(l.retryAfter('a', 1000)).toBe(60);
    l.forgive('a', 1000);
    expect(l.retryAfter('a', 1000)).toBe(0);
    l.forgive('a', 5000); // never counted at that time: no change
    l.fail('a', 2000);
    expect(l.retryAfter('a', 2000)).toBe(59);
  });

  it('keeps at most cap keys, dropping the oldest', () => {
    const l = new FailureLimiter({ max: 1, windowMs: 60_000, cap: 100 });
    for (let i = 0; i < 1000; i++) l.fail(`k${i}`, 1000);
    expect(l.retryAfter('k999', 1000)).toBeGreaterThan(0);
    expect(l.retryAfter('k0', 1000)).toBe(0);
    expect((l as unknown as { hits: Map<string, number[]> }).hits.size).toBe(100);
  });
});

describe('password hashes', () => {
  it('verify the password they were made from, and nothing else', async () => {
    const h = await hashPassword('correct horse battery');
    expect(h).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await verifyPassword('correct horse battery', h)).toBe(true);
    expect(await verifyPassword('correct horse batterY', h)).toBe(false);
    expect(await hashPassword('correct horse battery')).not.toBe(h); // a new salt each time
    expect(await verifyPassword('anything', null)).toBe(false);
    expect(await verifyPassword('anything', 'scrypt$broken')).toBe(false);
  });
});
