import { describe, expect, it } from 'vitest';
import { runOperators } from '../../../src/engine/operators/index.ts';
import type { Matcher, Operators } from '../../../src/engine/template/types.ts';

const data: Record<string, unknown> = {
  body: '<html><title>Admin Panel</title><p>Version 2.4.1</p></html>',
  all_headers: 'HTTP/1.1 200 OK\r\nServer: nginx/1.18\r\nContent-Type: text/html\r\nX-Powered-By: PHP/7.4\r\n',
  header: 'HTTP/1.1 200 OK\r\nServer: nginx/1.18\r\nContent-Type: text/html\r\nX-Powered-By: PHP/7.4\r\n',
  status_code: 200,
  content_length: 62,
  content_type: 'text/html',
  server: 'nginx/1.18',
  response: 'HTTP/1.1 200 OK\r\nServer: nginx/1.18\r\n\r\n<html>raw</html>',
  body_2: 'second body',
  Hostname: '127.0.0.1:8080',
};

function one(m: Matcher, d = data): boolean {
  const ops: Operators = { matchers: [m], extractors: [], matchersCondition: 'or' };
  return runOperators(ops, d).matched;
}

describe('matcher types', () => {
  it('status matches any listed code', () => {
    expect(one({ type: 'status', status: [404, 200] })).toBe(true);
    expect(one({ type: 'status', status: [404] })).toBe(false);
    expect(one({ type: 'status', status: [404], negative: true })).toBe(true);
  });
  it('size compares the byte length of the part', () => {
    expect(one({ type: 'size', size: [Buffer.byteLength(data.body as string)] })).toBe(true);
    expect(one({ type: 'size', size: [1] })).toBe(false);
  });
  it('word with condition, part, case-insensitive, negative and rendering', () => {
    expect(one({ type: 'word', words: ['Admin Panel'] })).toBe(true);
    expect(one({ type: 'word', words: ['Admin', 'missing'], condition: 'and' })).toBe(false);
    expect(one({ type: 'word', words: ['Admin', 'missing'], condition: 'or' })).toBe(true);
    expect(one({ type: 'word', words: ['nginx'], part: 'header' })).toBe(true);
    expect(one({ type: 'word', words: ['nginx'] })).toBe(false);
    expect(one({ type: 'word', words: ['ADMIN PANEL'] })).toBe(false);
    expect(one({ type: 'word', words: ['ADMIN PANEL'], caseInsensitive: true })).toBe(true);
    expect(one({ type: 'word', words: ['Admin'], negative: true })).toBe(false);
    expect(one({ type: 'word', words: ['{{Hostname}}'] }, { ...data, body: 'redirect to 127.0.0.1:8080/x' })).toBe(
      true,
    );
    expect(one({ type: 'word', words: ['PHP/7.4'], part: 'x_powered_by' }, { ...data, x_powered_by: 'PHP/7.4' })).toBe(
      true,
    );
  });
  it('word with hex encoding', () => {
    expect(one({ type: 'word', words: [Buffer.from('Admin Panel').toString('hex')], encoding: 'hex' })).toBe(true);
  });
  it('parts: all = body + headers, response/raw, numbered bodies, missing part never matches', () => {
    expect(one({ type: 'word', words: ['Panel', 'nginx'], condition: 'and', part: 'all' })).toBe(true);
    expect(one({ type: 'word', words: ['<html>raw'], part: 'response' })).toBe(true);
    expect(one({ type: 'word', words: ['<html>raw'], part: 'raw' })).toBe(true);
    expect(one({ type: 'word', words: ['second'], part: 'body_2' })).toBe(true);
    expect(one({ type: 'word', words: ['x'], part: 'body_9' })).toBe(false);
    expect(one({ type: 'word', words: ['x'], part: 'body_9', negative: true })).toBe(false);
  });
  it('regex with Go syntax', () => {
    expect(one({ type: 'regex', regex: ['Version [0-9.]+'] })).toBe(true);
    expect(one({ type: 'regex', regex: ['(?i)admin panel'] })).toBe(true);
    expect(one({ type: 'regex', regex: ['(?m)^Server: nginx'], part: 'header' })).toBe(true);
    expect(
      one({ type: 'regex', regex: ['\\Ahttp', '(?P<v>\\d+\\.\\d+)\\z'], condition: 'and' }, { body: 'http 1.2' }),
    ).toBe(true);
    expect(one({ type: 'regex', regex: ['nope', 'Version'], condition: 'and' })).toBe(false);
  });
  it('binary matches hex byte patterns', () => {
    expect(one({ type: 'binary', binary: ['3c68746d6c3e'] })).toBe(true);
    const gz = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x41]).toString('latin1');
    expect(one({ type: 'binary', binary: ['1f8b0800'] }, { body: gz })).toBe(true);
    expect(one({ type: 'binary', binary: ['deadbeef'] })).toBe(false);
  });
  it('dsl: booleans only, condition honoured, errors count as no match', () => {
    expect(one({ type: 'dsl', dsl: ['status_code == 200 && contains(body, "Admin")'] })).toBe(true);
    expect(one({ type: 'dsl', dsl: ['status_code == 200', 'contains(body, "zzz")'], condition: 'and' })).toBe(false);
    expect(one({ type: 'dsl', dsl: ['status_code == 500', 'contains(body, "Admin")'] })).toBe(true);
    expect(one({ type: 'dsl', dsl: ['"not a bool"'] })).toBe(false);
    expect(one({ type: 'dsl', dsl: ['len(body)'] })).toBe(false);
    expect(one({ type: 'dsl', dsl: ['undefined_var == 1'] })).toBe(false);
    expect(one({ type: 'dsl', dsl: ['undefined_var == 1', 'status_code == 200'] })).toBe(true);
    expect(one({ type: 'dsl', dsl: ['undefined_var == 1', 'status_code == 200'], condition: 'and' })).toBe(false);
    expect(one({ type: 'dsl', dsl: ['status_code == 404'], negative: true })).toBe(true);
    expect(one({ type: 'dsl', dsl: ['contains(body, "{{Hostname}}")'] }, { ...data, body: 'at 127.0.0.1:8080' })).toBe(
      true,
    );
    expect(one({ type: 'dsl', dsl: ['contains(body, "{{nothere}}")', 'status_code == 200'] })).toBe(false);
  });
  it('xpath selects nodes in HTML', () => {
    expect(one({ type: 'xpath', xpath: ["/html/head/title[contains(text(), 'Admin')]"] })).toBe(true);
    expect(one({ type: 'xpath', xpath: ['//form'] })).toBe(false);
  });
});

describe('matchers-condition and names', () => {
  const matchers: Matcher[] = [
    { type: 'status', status: [200], name: 'ok' },
    { type: 'word', words: ['nginx'], part: 'header', name: 'nginx' },
    { type: 'word', words: ['Apache'], part: 'header', name: 'apache' },
    { type: 'word', words: ['Admin'], name: 'hidden', internal: true },
  ];
  it('or: any matcher, names of those that matched, internal ones hidden', () => {
    const r = runOperators({ matchers, extractors: [], matchersCondition: 'or' }, data);
    expect(r.matched).toBe(true);
    expect(r.matcherNames).toEqual(['ok', 'nginx']);
  });
  it('and: all matchers must match', () => {
    const r = runOperators({ matchers, extractors: [], matchersCondition: 'and' }, data);
    expect(r.matched).toBe(false);
    expect(r.matcherNames).toEqual([]);
    const r2 = runOperators(
      { matchers: [matchers[0], matchers[1], matchers[3]], extractors: [], matchersCondition: 'and' },
      data,
    );
    expect(r2.matched).toBe(true);
    expect(r2.matcherNames).toEqual(['ok', 'nginx']);
  });
  it('matchAll evaluates every matcher even when an and-condition failed', () => {
    const r = runOperators({ matchers, extractors: [], matchersCondition: 'and' }, data, { matchAll: true });
    expect(r.matched).toBe(false);
    expect(r.matcherNames).toEqual(['ok', 'nginx']);
  });
  it('match-all on a matcher collects every word instead of stopping at the first', () => {
    expect(one({ type: 'word', words: ['Admin', 'missing'], matchAll: true })).toBe(true);
    expect(one({ type: 'word', words: ['nope', 'missing'], matchAll: true })).toBe(false);
  });
});
