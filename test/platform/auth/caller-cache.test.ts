// The in-memory cache of API-key callers (src/platform/auth/caller-cache.ts): keys are answered from memory
// once used, and every change of keys, roles, memberships or teams is seen on the very next request —
// made through the API, by the auth store, or by plain SQL on another connection (another process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { dbKinds } from '../../helpers/db.ts';
import { waitFor } from '../../helpers/wait.ts';
import { connect } from '../../../src/db/connection.ts';
import { callerCache } from '../../../src/platform/auth/caller-cache.ts';

describe.each(dbKinds())('API-key caller cache on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  }, 120_000);
  afterAll(() => t.close());

  const status = async (key: string, method: 'GET' | 'POST' = 'GET', url = '/v1/user', payload?: object) =>
    (await t.request({ method, url, key, payload })).statusCode;
  /** Uses the key until its caller is held in memory (the cache stores only once it hears of changes). */
  const cached = async (key: string) =>
    waitFor(async () => {
      expect(await status(key)).toBe(200);
      return callerCache(t.ctx.db).size > 0;
    });

  it('answers a used key from memory', async () => {
    await cached(t.owner.key);
    expect(callerCache(t.ctx.db).size).toBeGreaterThan(0);
  });

  it('a rotated key is refused at once, the new one works', async () => {
    const user = await t.addUser('rotate@example.com', 'member');
    await cached(user.key);
    const res = await t.request({ method: 'POST', url: '/v1/user/apikey/rotate', key: user.key });
    expect(res.statusCode).toBe(200);
    const fresh = (res.json() as { api_key: string }).api_key;
    expect(await status(user.key)).toBe(401);
    expect(await status(fresh)).toBe(200);
  });

  it('a revoked key is refused at once', async () => {
    const user = await t.addUser('revoke@example.com', 'member');
    await cached(user.key);
    expect((await t.request({ method: 'DELETE', url: '/v1/user/apikey', key: user.key })).statusCode).toBe(200);
    expect(await status(user.key)).toBe(401);
  });

  it('a demoted member loses rights at once; a removed member is refused at once', async () => {
    const admin = await t.addUser('demote@example.com', 'admin');
    await cached(admin.key);
    const invite = (n: number) =>
      status(admin.key, 'POST', '/v1/user/team/member', { email: `invitee-${kind}-${n}@example.com` });
    expect(await invite(1)).toBe(200);
    const demote = await t.request({
      method: 'PATCH',
      url: '/v1/user/team/member',
      payload: { email: admin.email, role: 'viewer' },
    });
    expect(demote.statusCode).toBe(200);
    expect(await invite(2)).toBe(403);
    expect((await t.request({ method: 'GET', url: '/v1/user', key: admin.key })).json()).toMatchObject({
      role: 'VIEWER',
    });
    const removed = await t.request({ method: 'DELETE', url: '/v1/user/team/member', payload: { email: admin.email } });
    expect(removed.statusCode).toBe(200);
    expect(await status(admin.key)).toBe(403);
  });

  it('a change made by plain SQL on another connection (another process) is seen', async () => {
    const user = await t.addUser('elsewhere@example.com', 'admin');
    await cached(user.key);
    const invite = (n: number) =>
      status(user.key, 'POST', '/v1/user/team/member', { email: `other-${kind}-${n}@example.com` });
    expect(await invite(1)).toBe(200);
    const demote = `UPDATE team_members SET role = 'VIEWER' WHERE user_id = ${user.userId}`;
    if (kind === 'pglite') {
      // One process per PGlite data folder: the change comes through the same database, bypassing the store,
      // and is seen before the statement returns.
      await t.ctx.db.query(demote);
      expect(await invite(2)).toBe(403);
    } else {
      const other = await connect({ databaseUrl: t.testDb.url!, schema: t.testDb.schema!, poolSize: 1 });
      try {
        await other.query(demote);
      } finally {
        await other.close();
      }
      // Delivered over the listening connection right after the commit.
      let n = 2;
      await waitFor(async () => (await invite(n++)) === 403, 5_000, 20);
    }
  });

  it('an unknown key is never stored', async () => {
    const before = callerCache(t.ctx.db).size;
    for (let i = 0; i < 5; i++) expect(await status(`vgl_unknown_${i}`)).toBe(401);
    expect(callerCache(t.ctx.db).size).toBeLessThanOrEqual(before);
  });
});
