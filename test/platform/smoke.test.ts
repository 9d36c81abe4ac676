import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { dbKinds } from '../helpers/db.ts';

describe.each(dbKinds())('platform basics on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(() => t.close());

  it('lists the owner with a key, 401 without', async () => {
    const ok = await t.request({ method: 'GET', url: '/v1/user/team/member' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().members).toEqual([expect.objectContaining({ email: 'owner@localhost', role: 'OWNER' })]);
    const none = await t.request({ method: 'GET', url: '/v1/user/team/member', key: null });
    expect(none.statusCode).toBe(401);
    expect(none.json()).toMatchObject({ message: expect.any(String), status: 401 });
  });

  it('health and openapi are public', async () => {
    expect((await t.request({ method: 'GET', url: '/healthz', key: null })).json()).toMatchObject({ status: 'ok' });
    const doc = (await t.request({ method: 'GET', url: '/openapi.json', key: null })).json();
    expect(doc.paths['/v1/user/team/member']).toBeDefined();
  });
});
