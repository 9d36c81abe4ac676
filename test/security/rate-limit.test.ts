// Per-key API rate limit: the spec's error body with 429, keys counted apart, health always answered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { configFromEnv } from '../../src/platform/shared/config.ts';

describe('API rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite', { rateLimitPerMinute: 5 });
  });
  afterAll(async () => t?.close());

  it('answers 429 past the limit per key, with the error body', async () => {
    for (let i = 0; i < 5; i++) expect((await t.request({ method: 'GET', url: '/v1/user' })).statusCode).toBe(200);
    const over = await t.request({ method: 'GET', url: '/v1/user' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message: expect.stringContaining('5 requests per minute'),
    });
    expect(over.headers['retry-after']).toBeDefined();
    // Another key has its own budget; the health check is never limited.
    const other = await t.addUser('other-rl@example.com', 'viewer');
    expect((await t.request({ method: 'GET', url: '/v1/user', key: other.key })).statusCode).toBe(200);
    for (let i = 0; i < 10; i++)
      expect((await t.request({ method: 'GET', url: '/healthz', key: null })).statusCode).toBe(200);
    // Guessing keys is limited too: requests without a valid key count per address.
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await t.request({ method: 'GET', url: '/v1/user', key: null })).statusCode);
    expect(codes.slice(0, 5).every((c) => c === 401)).toBe(true);
    expect(codes.slice(5)).toEqual([429, 429]);
  });

  it('is on by default and can be turned off', () => {
    expect(configFromEnv({}).rateLimitPerMinute).toBe(1200);
    expect(configFromEnv({ VIGIL_RATE_LIMIT: '0' }).rateLimitPerMinute).toBe(0);
  });
});
