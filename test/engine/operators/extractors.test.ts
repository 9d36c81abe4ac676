import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOperators } from '../../../src/engine/operators/index.ts';
import type { Extractor, Operators } from '../../../src/engine/template/types.ts';

const ops = (extractors: Extractor[], matchers: Operators['matchers'] = []): Operators => ({
  extractors,
  matchers,
  matchersCondition: 'or',
});

const data: Record<string, unknown> = {
  body: '<html><head><title>Login</title></head><body><form><input type="hidden" name="csrf" value="tok-1"><input name="user" value="bob"></form><p>version=1.2.3 build=77</p><p>version=4.5.6</p></body></html>',
  all_headers: 'Server: nginx\r\nSet-Cookie: sid=abc123; Path=/\r\nX-Powered-By: PHP/8.1\r\n',
  set_cookie: 'sid=abc123; Path=/',
  x_powered_by: 'PHP/8.1',
  server: 'nginx',
  status_code: 200,
};

describe('extractor types', () => {
  it('regex with group, de-duplicated in order', () => {
    const r = runOperators(ops([{ type: 'regex', name: 'ver', regex: ['version=([0-9.]+)'], group: 1 }]), data);
    expect(r.extracts.ver).toEqual(['1.2.3', '4.5.6']);
    expect(r.outputExtracts).toEqual(['1.2.3', '4.5.6']);
    expect(r.matched).toBe(true); // no matchers, something extracted
    const whole = runOperators(ops([{ type: 'regex', regex: ['build=\\d+', 'build=\\d+'] }]), data);
    expect(whole.extracts['']).toEqual(['build=77']);
  });
  it('regex on a header part', () => {
    const r = runOperators(
      ops([{ type: 'regex', part: 'header', regex: ['sid=([a-z0-9]+)'], group: 1, name: 'sid' }]),
      data,
    );
    expect(r.extracts.sid).toEqual(['abc123']);
  });
  it('kval reads `_` keys from the response map, case-insensitive lowercases values', () => {
    const r = runOperators(ops([{ type: 'kval', kval: ['x_powered_by', 'server', 'absent'] }]), data);
    expect(r.outputExtracts).toEqual(['PHP/8.1', 'nginx']);
    const ci = runOperators(ops([{ type: 'kval', kval: ['X_Powered_By'], caseInsensitive: true }]), data);
    expect(ci.outputExtracts).toEqual(['php/8.1']);
  });
  it('json with jq queries', () => {
    const d = {
      body: JSON.stringify({
        items: [
          { id: 1, name: 'a', tags: ['x'] },
          { id: 2, name: 'b' },
        ],
        token: 'T',
        nested: { ok: true },
      }),
    };
    expect(runOperators(ops([{ type: 'json', json: ['.items[].name'] }]), d).outputExtracts).toEqual(['a', 'b']);
    expect(
      runOperators(ops([{ type: 'json', json: ['.items[] | select(.id == 2) | .name'] }]), d).outputExtracts,
    ).toEqual(['b']);
    expect(runOperators(ops([{ type: 'json', json: ['.items[0]'] }]), d).outputExtracts).toEqual([
      '{"id":1,"name":"a","tags":["x"]}',
    ]);
    expect(runOperators(ops([{ type: 'json', json: ['.nested.ok', '.items | length'] }]), d).outputExtracts).toEqual([
      'true',
      '2',
    ]);
    expect(runOperators(ops([{ type: 'json', json: ['.missing'] }]), d).outputExtracts).toEqual([]);
    expect(runOperators(ops([{ type: 'json', json: ['.token'] }]), { body: 'not json' }).outputExtracts).toEqual([]);
  });
  it('xpath with and without attribute', () => {
    const r = runOperators(
      ops([
        { type: 'xpath', name: 'csrf', xpath: ["//input[@name='csrf']"], attribute: 'value' },
        { type: 'xpath', name: 'title', xpath: ['/html/head/title'] },
      ]),
      data,
    );
    expect(r.extracts.csrf).toEqual(['tok-1']);
    expect(r.extracts.title).toEqual(['Login']);
    const xml = { body: '<?xml version="1.0"?><root><Item id="7">Seven</Item></root>' };
    expect(runOperators(ops([{ type: 'xpath', xpath: ['/root/Item'], attribute: 'id' }]), xml).outputExtracts).toEqual([
      '7',
    ]);
  });
  it('dsl expressions', () => {
    const r = runOperators(ops([{ type: 'dsl', dsl: ['to_upper(server)', 'status_code + 1', 'missing_var'] }]), data);
    expect(r.outputExtracts).toEqual(['NGINX', '201']);
  });
});

describe('internal extractors and dynamic values', () => {
  it('internal values are variables, not output', () => {
    const r = runOperators(
      ops([
        { type: 'regex', name: 'v', regex: ['version=([0-9.]+)'], group: 1, internal: true },
        { type: 'regex', name: 'b', regex: ['build=(\\d+)'], group: 1, internal: true },
      ]),
      data,
    );
    expect(r.outputExtracts).toEqual([]);
    expect(r.extracts).toEqual({});
    expect(r.dynamic).toEqual({ v: ['1.2.3', '4.5.6'], v0: '1.2.3', v1: '4.5.6', b: '77' });
    expect(r.matched).toBe(false);
  });
  it('extracted values are visible to matchers', () => {
    const r = runOperators(
      ops(
        [{ type: 'regex', name: 'build', regex: ['build=(\\d+)'], group: 1, internal: true }],
        [
          { type: 'dsl', dsl: ['to_number(build) > 50'] },
          { type: 'word', words: ['build={{build}}'] },
        ],
      ),
      data,
    );
    expect(r.matched).toBe(true);
  });
});

describe('operators on a real HTTP response', () => {
  let server: http.Server;
  let base = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.setHeader('X-Powered-By', 'Express');
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ version: '3.1.4', users: [{ login: 'root' }, { login: 'guest' }] }));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('matches and extracts from the response map', async () => {
    const res = await fetch(`${base}/api`);
    const body = await res.text();
    const d: Record<string, unknown> = { body, status_code: res.status, content_length: body.length };
    let all = '';
    res.headers.forEach((v, k) => {
      d[k.toLowerCase().replaceAll('-', '_')] = v;
      all += `${k}: ${v}\r\n`;
    });
    d.all_headers = all;
    d.header = all;
    const r = runOperators(
      {
        matchersCondition: 'and',
        matchers: [
          { type: 'status', status: [200] },
          { type: 'word', part: 'header', words: ['application/json'] },
          { type: 'dsl', dsl: ['compare_versions(version, "< 4.0")'] },
        ],
        extractors: [
          { type: 'json', name: 'version', json: ['.version'], internal: true },
          { type: 'json', name: 'logins', json: ['.users[].login'] },
          { type: 'kval', kval: ['x_powered_by'] },
        ],
      },
      d,
    );
    expect(r.matched).toBe(true);
    expect(r.extracts.logins).toEqual(['root', 'guest']);
    expect(r.outputExtracts).toEqual(['root', 'guest', 'Express']);
    expect(r.dynamic).toEqual({ version: '3.1.4' });
  });
});
