import { describe, expect, it } from 'vitest';
import { compile, evaluate, DslError, isFunction } from '../../../src/engine/dsl/index.ts';

const vars = {
  body: 'Hello World',
  status_code: 200,
  content_length: 11,
  content_type: 'text/html',
  a: true,
  b: false,
  n: null,
  list: ['x', 'y'],
};

describe('govaluate semantics', () => {
  it('arithmetic on doubles with Go precedence', () => {
    expect(evaluate('1 + 2 * 3', {})).toBe(7);
    expect(evaluate('(1 + 2) * 3', {})).toBe(9);
    expect(evaluate('7 / 2', {})).toBe(3.5);
    expect(evaluate('7 % 3', {})).toBe(1);
    expect(evaluate('2 ** 10', {})).toBe(1024);
    expect(evaluate('0x1F + 1', {})).toBe(32);
    expect(evaluate('-status_code + 1', vars)).toBe(-199);
  });
  it('+ concatenates when either side is a string, numbers printed like Go %v', () => {
    expect(evaluate('"a" + 1', {})).toBe('a1');
    expect(evaluate('1 + "a"', {})).toBe('1a');
    expect(evaluate('"v" + 1.5', {})).toBe('v1.5');
    expect(evaluate('"x" + 1000000', {})).toBe('x1e+06');
    expect(evaluate('\'a\' + "b"', {})).toBe('ab');
    expect(evaluate('"a" + 0.00001', {})).toBe('a1e-05');
    expect(evaluate('to_string(0.00001)', {})).toBe('0.00001');
    expect(evaluate('to_string(123456789)', {})).toBe('123456789');
  });
  it('bitwise operators bind tighter than comparisons', () => {
    expect(evaluate('5 & 3', {})).toBe(1);
    expect(evaluate('5 | 3', {})).toBe(7);
    expect(evaluate('5 ^ 3', {})).toBe(6);
    expect(evaluate('1 << 4', {})).toBe(16);
    expect(evaluate('256 >> 4', {})).toBe(16);
    expect(evaluate('~5', {})).toBe(-6);
    expect(evaluate('status_code & 255 == 200', vars)).toBe(true);
  });
  it('comparisons need two numbers or two strings', () => {
    expect(evaluate('status_code >= 200 && status_code < 300', vars)).toBe(true);
    expect(evaluate('"abc" < "abd"', {})).toBe(true);
    expect(() => evaluate('status_code > "100"', vars)).toThrow(DslError);
    expect(evaluate('status_code == "200"', vars)).toBe(false);
    expect(evaluate('status_code != 404', vars)).toBe(true);
  });
  it('regex operators use Go syntax', () => {
    expect(evaluate('body =~ "(?i)^hello"', vars)).toBe(true);
    expect(evaluate('body !~ "^World"', vars)).toBe(true);
    expect(evaluate("content_type =~ 'text/(?P<sub>html)'", vars)).toBe(true);
  });
  it('logical operators need booleans and short-circuit', () => {
    expect(evaluate('a && !b', vars)).toBe(true);
    expect(evaluate('b && missing_var', vars)).toBe(false);
    expect(evaluate('a || missing_var', vars)).toBe(true);
    expect(() => evaluate('1 && a', vars)).toThrow(DslError);
  });
  it('ternary, ??, IN and arrays', () => {
    expect(evaluate('status_code == 200 ? "ok" : "bad"', vars)).toBe('ok');
    expect(evaluate('b ? "x" : "y"', vars)).toBe('y');
    expect(evaluate('n ?? "fallback"', vars)).toBe('fallback');
    expect(evaluate('body ?? "fallback"', vars)).toBe('Hello World');
    expect(evaluate('status_code IN (200, 302)', vars)).toBe(true);
    expect(evaluate('404 IN (200, 302)', vars)).toBe(false);
    expect(evaluate('("a", "b")', {})).toEqual(['a', 'b']);
  });
  it('string literals: both quotes, backslash keeps the next character', () => {
    expect(evaluate("'it\\'s'", {})).toBe("it's");
    expect(evaluate('"a\\\\d"', {})).toBe('a\\d');
    expect(evaluate('"\\n"', {})).toBe('n');
  });
  it('bracketed and dotted variable names', () => {
    expect(evaluate('[content-type] == "x"', { 'content-type': 'x' })).toBe(true);
    expect(evaluate('a.b == 1', { 'a.b': 1 })).toBe(true);
  });
  it('missing variables, unknown functions and syntax errors are DslErrors', () => {
    expect(() => evaluate('nope == 1', {})).toThrow(/No parameter 'nope' found/);
    try {
      evaluate('nope == 1', {});
    } catch (e) {
      expect((e as DslError).missingVariable).toBe('nope');
    }
    expect(() => compile('unknown_fn(1)')).toThrow(DslError);
    expect(() => compile('1 +')).toThrow(DslError);
    expect(() => compile('')).toThrow(DslError);
  });
  it('reports variables and caches compiled expressions', () => {
    const c = compile('contains(body, "x") && status_code == 200 || body_2 == ""');
    expect(c.variables).toEqual(['body', 'status_code', 'body_2']);
    expect(compile('contains(body, "x") && status_code == 200 || body_2 == ""')).toBe(c);
  });
  it('functions also exist without underscores', () => {
    expect(isFunction('to_lower')).toBe(true);
    expect(isFunction('tolower')).toBe(true);
    expect(isFunction('base64decode')).toBe(true);
    expect(isFunction('nosuch')).toBe(false);
  });
});
