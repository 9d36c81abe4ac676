// Response values are built for what a block's operators can read; result events still carry the
// request and response in full, and every kind of operator still sees each value it names.
import { afterAll, describe, expect, it } from 'vitest';
import { closeClients } from '../../../../src/engine/runner.ts';
import { readsOf } from '../../../../src/engine/protocols/http/reads.ts';
import { startHttpServer, type TestServer } from '../../../helpers/targets.ts';
import { scanEvents, tpl } from '../../../helpers/templates.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  await closeClients();
  await Promise.all(servers.map((s) => s.close()));
});

const template = (operators: string) =>
  tpl(
    `id: reads\ninfo:\n  name: reads\n  author: vigil\n  severity: info\nhttp:\n  - method: GET\n    path: ["{{BaseURL}}/x"]\n${operators}`,
  );

const readsFor = (operators: string) => ({ ...readsOf(template(operators).http[0]!) });

describe('what a block reads', () => {
  it('places status, body and dsl names, and turns on what it cannot place', () => {
    const none = { headers: false, head: false, request: false, defers: false };
    expect(readsFor('    matchers:\n      - type: status\n        status: [200]\n')).toEqual(none);
    expect(readsFor('    matchers:\n      - type: word\n        words: [admin]\n')).toEqual(none);
    expect(
      readsFor(
        '    matchers:\n      - type: dsl\n        dsl: ["status_code == 200 && len(body) > 3 && duration < 5"]\n',
      ),
    ).toEqual(none);
    expect(readsFor('    matchers:\n      - type: word\n        part: header\n        words: [nginx]\n')).toEqual({
      ...none,
      head: true,
    });
    expect(readsFor('    matchers:\n      - type: regex\n        part: request\n        regex: [GET]\n')).toEqual({
      ...none,
      request: true,
    });
    expect(readsFor('    matchers:\n      - type: dsl\n        dsl: ["contains(content_type, \'json\')"]\n')).toEqual({
      ...none,
      headers: true,
    });
    expect(readsFor('    extractors:\n      - type: kval\n        kval: [Set-Cookie]\n')).toEqual({
      ...none,
      headers: true,
    });
    // Markers are rendered against the values first, a case-insensitive kval reads them all.
    const all = { headers: true, head: true, request: true, defers: false };
    expect(readsFor('    matchers:\n      - type: word\n        words: ["{{Hostname}}"]\n')).toEqual(all);
    expect(
      readsFor('    extractors:\n      - type: kval\n        case-insensitive: true\n        kval: [server]\n'),
    ).toEqual(all);
  });

  it('knows which blocks may have to wait while matching (network helpers, wait_for)', () => {
    const defers = (operators: string) => readsFor(operators).defers;
    expect(defers('    matchers:\n      - type: dsl\n        dsl: ["resolve(host) != \'\'"]\n')).toBe(true);
    expect(defers('    matchers:\n      - type: word\n        words: ["{{wait_for(1)}}"]\n')).toBe(true);
    expect(defers('    extractors:\n      - type: dsl\n        dsl: ["jarm (host)"]\n')).toBe(true);
    expect(defers('    extractors:\n      - type: dsl\n        dsl: ["public_ip()"]\n')).toBe(true);
    expect(defers('    matchers:\n      - type: word\n        words: [resolved, jarm]\n')).toBe(false);
    expect(defers('    matchers:\n      - type: status\n        status: [200]\n')).toBe(false);
  });
});

describe('values built on demand', () => {
  it('gives a status-only match its full request and response, and header matchers their headers', async () => {
    const s = await startHttpServer((_q, res) => {
      res.setHeader('Set-Cookie', 'session=abc');
      res.setHeader('X-Powered-By', 'Vigil-Test');
      res.end('the body');
    });
    servers.push(s);
    const run = async (operators: string) =>
      (await scanEvents([template(operators)], [s.url])).filter((e) => e['matcher-status']);
    const [hit] = await run('    matchers:\n      - type: status\n        status: [200]\n');
    expect(hit?.request).toMatch(/^GET \/x HTTP\/1\.1\r\n[\s\S]*Host: 127\.0\.0\.1/);
    expect(hit?.response).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*X-Powered-By: Vigil-Test\r\n[\s\S]*\r\n\r\nthe body$/);
    expect(
      await run(
        "    matchers:\n      - type: dsl\n        dsl: [\"x_powered_by == 'Vigil-Test' && session == 'abc'\"]\n",
      ),
    ).toHaveLength(1);
    expect(
      await run(
        '    matchers:\n      - type: word\n        part: header\n        words: ["X-Powered-By: Vigil-Test"]\n',
      ),
    ).toHaveLength(1);
    expect(
      await run('    matchers:\n      - type: word\n        part: request\n        words: ["GET /x HTTP/1.1"]\n'),
    ).toHaveLength(1);
    expect(await run('    extractors:\n      - type: kval\n        kval: [x-powered-by]\n')).toMatchObject([
      { 'extracted-results': ['Vigil-Test'] },
    ]);
  });
});
