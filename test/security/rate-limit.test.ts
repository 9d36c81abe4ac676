// The API rate limit: the spec's error body with 429; each accepted key and console session counted on its
// own, everything else (no credential, a guessed or invented one) by address; the health check and the
// console's own files never counted.
import { readdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { configFromEnv } from '../../src/platform/shared/config.ts';
import { CONSOLE_DIST } from '../../src/platform/console/routes.ts';

const LIMIT = 5;

describe('API rate limit', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const app = async () => (t = await createTestApp('pglite', { rateLimitPerMinute: LIMIT }));
  const get = (url: string, headers: Record<string, string> = {}, key: string | null = null) =>
    t!.request({ method: 'GET', url, key, headers });
  /** Status codes of n requests made one after another. */
  const codes = async (n: number, send: (i: number) => Promise<{ statusCode: number }>) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await send(i)).statusCode);
    return out;
  };

  it('answers 429 past the limit per key, with the error body', async () => {
    await app();
    // The key's first request is counted against the address (the process has not yet seen the key
    // accepted); from then on the key has its own budget.
    const owner = await codes(LIMIT + 1, () => t!.request({ method: 'GET', url: '/v1/user' }));
    expect(owner).toEqual(Array(LIMIT + 1).fill(200));
    const over = await t!.request({ method: 'GET', url: '/v1/user' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({
      code: 'rate_limited',
      status: 429,
      message: expect.stringContaining(`${LIMIT} requests per minute`),
    });
    expect(over.headers['retry-after']).toBeDefined();
    // Another key has its own budget; the health check is never limited.
    const other = await t!.addUser('other-rl@example.com', 'viewer');
    expect((await t!.request({ method: 'GET', url: '/v1/user', key: other.key })).statusCode).toBe(200);
    expect(await codes(10, () => get('/healthz'))).toEqual(Array(10).fill(200));
  });

  it('counts guessed and invented keys and cookies against the address', async () => {
    await app();
    // A new key per request gains nothing over sending none: all of them share the address's budget.
    const invented = await codes(LIMIT + 2, () =>
      get('/v1/user', { 'x-api-key': `vgl_${randomBytes(16).toString('hex')}` }),
    );
    expect(invented).toEqual([...Array(LIMIT).fill(401), 429, 429]);
    expect(
      (await get('/v1/user', { cookie: `vigil_session=${randomBytes(24).toString('base64url')}` })).statusCode,
    ).toBe(429);
    expect((await get('/v1/user')).statusCode).toBe(429);
    // A real key that this process has not yet accepted is counted against the address on its first request.
    const fresh = await t!.addUser('fresh-rl@example.com', 'viewer');
    expect((await t!.request({ method: 'GET', url: '/v1/user', key: fresh.key })).statusCode).toBe(429);
  });

  it('gives each console session its own budget, also from one address', async () => {
    await app();
    const signIn = async (key: string) => {
      const res = await t!.request({ method: 'POST', url: '/v1/auth/sign-in', key: null, payload: { api_key: key } });
      expect(res.statusCode).toBe(200);
      const raw = [res.headers['set-cookie']].flat().find((c) => c?.startsWith('vigil_session='))!;
      return raw.split(';')[0]!;
    };
    const viewer = await t!.addUser('viewer-rl@example.com', 'viewer');
    const [a, b] = [await signIn(t!.owner.key), await signIn(viewer.key)];
    // Session a uses up its budget ...
    const first = await codes(LIMIT + 3, () => get('/v1/user', { cookie: a }));
    expect(first.filter((c) => c === 200).length).toBeGreaterThanOrEqual(LIMIT);
    expect(first.at(-1)).toBe(429);
    // ... and session b, from the same address, still has its own.
    expect(await codes(3, () => get('/v1/user', { cookie: b }))).toEqual([200, 200, 200]);
  });

  it("never counts the console's files and pages, but does count API paths the console's route catches", async () => {
    await app();
    const build = readdirSync(path.join(CONSOLE_DIST, 'assets')).find((f) => /\.js$/.test(f));
    expect(build, 'the console is built (npm install builds web/dist)').toBeTruthy();
    const files = ['/', '/scans/new', '/templates/private/new', `/assets/${build}`, '/favicon.svg'];
    for (const url of files) expect(await codes(3 * LIMIT, () => get(url)), url).toEqual(Array(3 * LIMIT).fill(200));
    // The API from the same address still has its whole budget, and paths of the API that no route
    // answers (caught by the console's route, answered 404) count too.
    const api = await codes(LIMIT + 1, (i) => get(i % 2 ? '/v1/no-such-route' : '/v1/user'));
    expect(api).toEqual([401, 404, 401, 404, 401, 429]);
    // Past the limit, the console's page still loads (so its sign-in can show why the API refuses).
    expect((await get('/')).statusCode).toBe(200);
  });

  it("counts an encoded spelling of an API path that only the console's route matches", async () => {
    await app();
    // `/%761/…` decodes to `/v1/…`: no API route has it, the console's route answers 404, and it counts.
    expect(await codes(LIMIT + 1, () => get('/%761/no-such-route'))).toEqual([...Array(LIMIT).fill(404), 429]);
    expect((await get('/v1/user')).statusCode).toBe(429);
  });

  it('answers no spelling of an API path with the API uncounted; huge or malformed credentials count by address', async () => {
    await app();
    // Over a real socket, paths as sent (inject and fetch would resolve the dot segments first).
    await t!.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = t!.app.server.address() as AddressInfo;
    const raw = (p: string) =>
      new Promise<{ status: number; type: string }>((resolve, reject) => {
        const r = http.get({ host: '127.0.0.1', port, path: p }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, type: String(res.headers['content-type']) }));
        });
        r.on('error', reject);
      });
    const spellings = [
      '/assets/../v1/user',
      '/./v1/user',
      '/assets/%2e%2e/v1/user',
      '/%761/user',
      '//v1/user',
      '/V1/user',
      '/v1/user?next=/assets/a.js',
    ];
    let apiAnswers = 0;
    for (const p of spellings)
      for (let i = 0; i < LIMIT + 1; i++) {
        const r = await raw(p);
        // Either the console's page (no API work) or the API, which counts: past the limit only 429.
        if (r.type.startsWith('text/html')) expect(r.status, p).toBe(200);
        else {
          expect(r.type, p).toMatch(/^application\/json/);
          if (r.status === 401) apiAnswers++;
          else expect(r.status, p).toBe(429);
        }
      }
    expect(apiAnswers).toBe(LIMIT);
    // A 15 kB invented key, a cookie of bytes that decode to nothing: the address's budget, now spent.
    expect((await get('/v1/user', { 'x-api-key': `vgl_${'a'.repeat(15_000)}` })).statusCode).toBe(429);
    expect((await get('/v1/user', { cookie: `vigil_session=${'%'.repeat(100)}` })).statusCode).toBe(429);
  });

  it('is on by default and can be turned off', () => {
    expect(configFromEnv({}).rateLimitPerMinute).toBe(1200);
    expect(configFromEnv({ VIGIL_RATE_LIMIT: '0' }).rateLimitPerMinute).toBe(0);
  });

  it('keeps the default for an empty or mistyped setting instead of turning the limit off', () => {
    for (const v of ['', ' ', '1,200', '1200/min', 'off', '-5', '2.5', 'NaN'])
      expect(configFromEnv({ VIGIL_RATE_LIMIT: v }).rateLimitPerMinute, v).toBe(1200);
    expect(configFromEnv({ VIGIL_RATE_LIMIT: '60' }).rateLimitPerMinute).toBe(60);
  });
});
