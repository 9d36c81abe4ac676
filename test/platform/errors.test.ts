// The spec's error body on every kind of failure, and the public documents (/openapi.json, /docs, /healthz).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import pino from 'pino';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../src/platform/app.ts';
import { configFromEnv } from '../../src/platform/shared/config.ts';
import { bootstrapOwner } from '../../src/platform/auth/service.ts';
import { dbKinds, freshDb, type TestDb } from '../helpers/db.ts';

describe.each(dbKinds())('error bodies and public documents on %s', (kind) => {
  let testDb: TestDb;
  let app: FastifyInstance;
  let key: string;
  const logLines: string[] = [];

  beforeAll(async () => {
    testDb = await freshDb(kind);
    const sink = new Writable({
      write(chunk, _enc, cb) {
        logLines.push(chunk.toString());
        cb();
      },
    });
    app = await buildApp({ db: testDb.db, config: configFromEnv({}), log: pino({ level: 'info' }, sink) });
    // A route with a programming fault, to see what a client and the log get from an unexpected error.
    app.get('/v1/test/fault', async () => {
      throw new Error('secret internal detail at db.example:5432');
    });
    await app.ready();
    key = (await bootstrapOwner(testDb.db, 'owner@localhost')).apiKey!;
  }, 120_000);
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });

  const req = (opts: InjectOptions) => app.inject({ ...opts, headers: { 'x-api-key': key, ...(opts.headers ?? {}) } });

  it('unexpected faults: 500 with an error_id that is also in the log, and no stack or detail', async () => {
    const res = await req({ method: 'GET', url: '/v1/test/fault' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body).toEqual({
      message: 'internal error',
      code: 'internal',
      status: 500,
      error_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(res.body).not.toMatch(/secret internal detail|at .*\.ts|stack/);
    const logged = logLines.map((l) => JSON.parse(l)).find((l) => l.error_id === body.error_id);
    expect(logged).toBeDefined();
    expect(logged.level).toBe(50);
    expect(logged.err.message).toMatch(/secret internal detail/);
    expect(logged.err.stack).toEqual(expect.any(String));
  });

  it('schema violations: 400 naming the field in param', async () => {
    const cases: [object | string, string, RegExp][] = [
      [{ role: 'admin' }, 'email', /email is required/],
      [{ email: 42 }, 'email', /email must/],
      [{ email: 'a@b.c', role: { x: 1 } }, 'role', /role must be string/],
    ];
    for (const [payload, param, message] of cases) {
      const res = await req({ method: 'POST', url: '/v1/user/team/member', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: expect.stringMatching(message),
        code: 'invalid_request',
        param,
        status: 400,
      });
    }
  });

  it('malformed JSON and wrong content types get the error body too', async () => {
    const bad = await req({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: '{"email": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      message: expect.stringMatching(/JSON/),
      code: 'invalid_request',
      param: 'body',
      status: 400,
    });
    const type = await req({
      method: 'POST',
      url: '/v1/user/team/member',
      payload: 'email=a',
      headers: { 'content-type': 'text/csv' },
    });
    expect(type.statusCode).toBe(415);
    expect(type.json()).toEqual({
      message: expect.any(String),
      code: 'unsupported_media_type',
      param: 'body',
      status: 415,
    });
  });

  it('unknown routes: 404 with the error body, key or not', async () => {
    for (const headers of [{}, { 'x-api-key': '' }]) {
      const res = await app.inject({ method: 'GET', url: '/v1/nothing/here?x=1', headers });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'no route GET /v1/nothing/here', code: 'not_found', status: 404 });
    }
    expect((await req({ method: 'PUT', url: '/v1/user' })).statusCode).toBe(404);
  });

  it('/healthz, /openapi.json and /docs need no key', async () => {
    const health = await app.inject({ method: 'GET', url: '/healthz' });
    expect(health.json()).toEqual({ status: 'ok', database: testDb.db.kind });
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.components.securitySchemes['X-API-Key']).toMatchObject({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
    });
    expect(Object.keys(doc.paths['/v1/user/team/member']).sort()).toEqual(['delete', 'get', 'patch', 'post']);
    expect(doc.paths['/v1/user/team/member'].patch.responses['403']).toBeDefined();
    expect(doc.components.schemas.ErrorBody ?? doc.components.schemas.Error).toBeDefined();
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/text\/html/);
    expect(docs.body).toMatch(/swagger/i);
  });

  it('health reports 503 when the database does not answer', async () => {
    const other = await freshDb(kind);
    const broken = await buildApp({ db: other.db, config: configFromEnv({}), log: pino({ level: 'silent' }) });
    await other.drop(); // closes the database under the running app
    const res = await broken.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(503);
    // Anyone may ask: the database's own error text (hosts, users, paths) is not in the answer.
    expect(res.json()).toEqual({ status: 'unavailable', message: 'the database does not answer' });
    await broken.close();
  }, 120_000);
});
