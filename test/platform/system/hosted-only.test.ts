// Operations that need the hosted platform's own data (associated domains, leaked credentials) answer the
// spec's error body saying so, held to the hosted platform's schemas, after authentication and roles.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { assertPdcpAnswer, hasPdcpOpenApi } from '../../helpers/pdcp-openapi.ts';

const OPERATIONS: ['GET' | 'POST', string][] = [
  ['GET', '/v1/domain/associated?domain=example.com'],
  ['GET', '/v1/leaks?type=employee'],
  ['GET', '/v1/leaks/stats/domain?domain=example.com'],
  ['GET', '/v1/leaks/stats/email?email=a@example.com'],
  ['POST', '/v1/leaks/export'],
  ['POST', '/v1/leaks/info'],
  ['POST', '/v1/leaks/status'],
];

describe('hosted-only operations', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp('pglite');
  });
  afterAll(async () => {
    await t.close();
  });

  it.each(OPERATIONS)('%s %s answers hosted_only with the error body', async (method, url) => {
    const res = await t.request({ method, url, payload: method === 'POST' ? { id: 'x' } : undefined });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      code: 'hosted_only',
      status: 404,
      message: expect.stringMatching(/needs the hosted ProjectDiscovery platform's own data/),
    });
    if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, res.statusCode, res.json());
    const anonymous = await t.request({ method, url, key: null });
    expect(anonymous.statusCode).toBe(401);
    if (hasPdcpOpenApi()) assertPdcpAnswer(method, url, anonymous.statusCode, anonymous.json());
  });

  it('keeps changing a leak status to those who manage assets', async () => {
    const viewer = await t.addUser('viewer@localhost', 'viewer');
    expect(
      (await t.request({ method: 'POST', url: '/v1/leaks/status', key: viewer.key, payload: {} })).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'GET', url: '/v1/leaks', key: viewer.key })).statusCode).toBe(404);
  });
});
