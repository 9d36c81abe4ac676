// POST /v1/template/run (the editor's one-off run) against a real HTTP server on 127.0.0.1: matching and
// not matching, matcher by matcher and with matchers-condition, extractors, several requests, an invalid
// template (400 with its errors and lines), a target where nothing listens, the roles that may run, and
// that a run records no scan.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startHttpServer, type TestServer } from '../../helpers/targets.ts';
import { closeClients } from '../../../src/engine/index.ts';
import { waitFor } from '../../helpers/queue.ts';

let t: TestApp;
let site: TestServer;
/** Requests to /hang: answered never; each records when its connection closed. */
const hanging: { closed: boolean }[] = [];

beforeAll(async () => {
  t = await createTestApp('pglite');
  site = await startHttpServer((req, res) => {
    if (req.url?.startsWith('/login')) {
      res.setHeader('x-powered-by', 'PHP/8.1.2');
      res.setHeader('set-cookie', 'session=abc; Path=/');
      return res.end('<title>Admin Login</title> version 4.2.0');
    }
    if (req.url === '/hang') {
      const h = { closed: false };
      hanging.push(h);
      res.on('close', () => (h.closed = true));
      return new Promise(() => {});
    }
    if (req.url === '/api') return res.end(JSON.stringify({ token: 'tok-123', role: 'reader' }));
    res.statusCode = 404;
    res.end('not here');
  });
});

afterAll(async () => {
  await closeClients();
  await site?.close();
  await t?.close();
});

const run = (template: string, target: string, key?: string) =>
  t.request({ method: 'POST', url: '/v1/template/run', payload: { template, target }, key });

const LOGIN = `id: login-panel
info: {name: Login panel, author: vigil, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/login"]
    matchers-condition: and
    matchers:
      - type: word
        name: title
        words: ["Admin Login"]
      - type: status
        name: ok
        status: [200]
      - type: word
        name: absent
        part: header
        words: ["X-Nothing"]
        negative: true
    extractors:
      - type: regex
        name: version
        regex: ["version ([0-9.]+)"]
        group: 1
      - type: kval
        name: powered
        kval: [x_powered_by]
`;

describe('POST /v1/template/run', () => {
  it('a match: the request, the response, each matcher, the extractors and the result event', async () => {
    const res = await run(LOGIN, site.url);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.matched).toBe(true);
    expect(body.template_id).toBe('login-panel');
    expect(body.requests_sent).toBe(1);
    expect(body.requests).toHaveLength(1);
    const step = body.requests[0];
    expect(step.request.method).toBe('GET');
    expect(step.request.url).toBe(`${site.url}/login`);
    expect(step.request.headers.map((h: string[]) => h[0].toLowerCase())).toContain('user-agent');
    expect(step.response.status).toBe(200);
    expect(step.response.body).toContain('Admin Login');
    expect(step.response.headers).toContainEqual(['x-powered-by', 'PHP/8.1.2']);
    expect(step.matchers_condition).toBe('and');
    expect(step.matched).toBe(true);
    expect(step.matchers.map((m: { name: string; matched: boolean }) => [m.name, m.matched])).toEqual([
      ['title', true],
      ['ok', true],
      ['absent', true],
    ]);
    expect(step.matchers[2].negative).toBe(true);
    expect(step.extractors).toEqual([
      { index: 0, name: 'version', type: 'regex', values: ['4.2.0'] },
      { index: 1, name: 'powered', type: 'kval', values: ['PHP/8.1.2'] },
    ]);
    expect(body.events.length).toBeGreaterThan(0);
    expect(body.events[0]['template-id']).toBe('login-panel');
    expect(body.events[0]['matched-at']).toBe(`${site.url}/login`);
    expect(body.events[0]['extracted-results']).toEqual(expect.arrayContaining(['4.2.0']));
    // The server saw exactly the one request shown.
    expect(site.requests.filter((r) => r.url === '/login').length).toBeGreaterThan(0);
  });

  it('no match: which matcher failed, and with matchers-condition and the overall verdict', async () => {
    const res = await run(LOGIN.replace('status: [200]', 'status: [302]'), site.url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.matched).toBe(false);
    expect(body.message).toBe('the template did not match');
    expect(body.events).toEqual([]);
    const step = body.requests[0];
    expect(step.matched).toBe(false);
    expect(step.matchers.find((m: { name: string }) => m.name === 'ok').matched).toBe(false);
    expect(step.matchers.find((m: { name: string }) => m.name === 'title').matched).toBe(true);
  });

  it('several requests: each shown with its own outcome; internal extractors feed the next request', async () => {
    const res = await run(
      `id: two-steps
info: {name: two, author: vigil, severity: low}
http:
  - method: GET
    path: ["{{BaseURL}}/api"]
    extractors:
      - type: json
        name: token
        internal: true
        json: [".token"]
  - method: GET
    path: ["{{BaseURL}}/login?t={{token}}", "{{BaseURL}}/missing"]
    matchers:
      - type: status
        status: [404]
`,
      site.url,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.requests_sent).toBe(3);
    expect(body.requests.map((s: { request: { url: string } }) => s.request.url)).toEqual([
      `${site.url}/api`,
      `${site.url}/login?t=tok-123`,
      `${site.url}/missing`,
    ]);
    expect(body.requests[0].extractors[0]).toMatchObject({ name: 'token', internal: true, values: ['tok-123'] });
    expect(body.requests.map((s: { block: number }) => s.block)).toEqual([0, 1, 1]);
    expect(body.requests.map((s: { matched: boolean }) => s.matched)).toEqual([false, false, true]);
    expect(body.matched).toBe(true);
  });

  it('an invalid template is not run: 400 naming the problem, with the errors at their lines', async () => {
    const before = site.requests.length;
    const res = await run(
      `id: broken
info: {name: b, author: vigil, severity: info}
http:
  - method: GET
    path: ["{{BaseURL}}/"]
    matchers:
      - type: wordz
        words: [x]
`,
      site.url,
    );
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('invalid_template');
    expect(body.param).toBe('template');
    expect(body.message).toMatch(/invalid/);
    expect(body.errors.length).toBeGreaterThan(0);
    expect(body.errors[0].field).toMatch(/matchers\[0\]/);
    expect(body.errors[0].line).toBe(7);
    expect(site.requests.length).toBe(before);
  });

  it('a target where nothing listens: the request is shown with its error, nothing matched', async () => {
    const closed = await startHttpServer((_q, r) => r.end());
    const url = closed.url;
    await closed.close();
    const res = await run(LOGIN, url);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.matched).toBe(false);
    expect(body.requests[0].response).toBeUndefined();
    expect(body.requests[0].error).toMatch(/ECONNREFUSED|refused|connect/i);
  });

  it('bad targets are 400s: empty, a range, not a target', async () => {
    for (const target of ['  ', '10.0.0.0/24', 'a b', 'http://']) {
      const res = await run(LOGIN, target);
      expect(res.statusCode, target).toBe(400);
      expect(res.json().param).toBe('target');
    }
  });

  it('only roles that may start scans may run; a run records no scan', async () => {
    const admin = await t.addUser('admin-run@example.com', 'ADMIN');
    const member = await t.addUser('member-run@example.com', 'MEMBER');
    const viewer = await t.addUser('viewer-run@example.com', 'VIEWER');
    expect((await run(LOGIN, site.url, admin.key)).statusCode).toBe(200);
    for (const u of [member, viewer]) {
      const before = site.requests.length;
      const res = await run(LOGIN, site.url, u.key);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBeTruthy();
      expect(site.requests.length).toBe(before);
    }
    const noKey = await t.request({
      method: 'POST',
      url: '/v1/template/run',
      payload: { template: LOGIN, target: site.url },
      key: null,
    });
    expect(noKey.statusCode).toBe(401);
    const scans = (await t.request({ method: 'GET', url: '/v1/scans' })).json();
    expect(scans.data ?? scans.results ?? []).toEqual([]);
  });

  it('a client that goes away stops the run: the request in flight is dropped', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const payload = JSON.stringify({ template: LOGIN.replace('/login', '/hang'), target: site.url });
    const client = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/v1/template/run',
      headers: { 'content-type': 'application/json', 'x-api-key': t.owner.key },
    });
    client.on('error', () => {});
    client.end(payload);
    await waitFor(async () => hanging.length > 0, 10_000);
    client.destroy();
    // The run's own time cap is 30 s and the per-request timeout 10 s: this is the abort.
    await waitFor(async () => hanging[0]!.closed, 5_000);
    expect(hanging[0]!.closed).toBe(true);
  });
});
