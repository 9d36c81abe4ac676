import { describe, expect, it } from 'vitest';
import { TokenBucket } from '../../../src/engine/runner/rate-limit.ts';
import { HostErrors } from '../../../src/engine/runner/host-errors.ts';

describe('TokenBucket', () => {
  it('lets a burst of `rate` through at once, then paces the rest', async () => {
    const bucket = new TokenBucket(20);
    const start = performance.now();
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 30 }, () => bucket.take().then(() => times.push(performance.now() - start))),
    );
    times.sort((a, b) => a - b);
    expect(times[19]).toBeLessThan(100);
    // 10 more tokens at 20/s need about 500 ms.
    expect(times[29]).toBeGreaterThan(400);
  });

  it('does not limit when the rate is 0', async () => {
    const bucket = new TokenBucket(0);
    const start = performance.now();
    await Promise.all(Array.from({ length: 1000 }, () => bucket.take()));
    expect(performance.now() - start).toBeLessThan(200);
  });

  it('drain releases waiters', async () => {
    const bucket = new TokenBucket(1);
    await bucket.take();
    const waiting = bucket.take();
    bucket.drain();
    await waiting;
  });
});

describe('HostErrors', () => {
  it('skips a host after the limit', () => {
    const h = new HostErrors(2);
    h.record('a');
    expect(h.isSkipped('a')).toBe(false);
    h.record('a');
    expect(h.isSkipped('a')).toBe(true);
    expect(h.isSkipped('b')).toBe(false);
    const off = new HostErrors(0);
    off.record('a');
    expect(off.isSkipped('a')).toBe(false);
  });
});
