import { describe, expect, it } from 'vitest';
import { compileGoRegex, goReplaceAll, translateGoRegex } from '../../../src/engine/dsl/goregex.ts';
import { DslError } from '../../../src/engine/dsl/index.ts';

describe('Go regex translation', () => {
  it('inline flags become JS flags', () => {
    expect(translateGoRegex('(?i)abc')).toEqual({ source: 'abc', flags: 'i' });
    expect(translateGoRegex('(?is)a.b').flags).toBe('is');
    expect(compileGoRegex('(?m)^x$').test('a\nx\nb')).toBe(true);
    expect(compileGoRegex('(?i:ab)c').test('ABc')).toBe(true);
  });
  it('named groups, anchors, quoting, POSIX classes, octal and \\x{}', () => {
    expect('v1.2'.match(compileGoRegex('v(?P<major>\\d+)'))?.groups?.major).toBe('1');
    expect(compileGoRegex('\\Aabc\\z').test('abc')).toBe(true);
    expect(compileGoRegex('\\Aabc\\z').test('abc\n')).toBe(false);
    expect(compileGoRegex('(?m)\\Aabc').test('x\nabc')).toBe(false);
    expect(compileGoRegex('\\Q1+1=2\\E').test('1+1=2')).toBe(true);
    expect(compileGoRegex('^[[:alpha:]]+[[:digit:]]$').test('abc1')).toBe(true);
    expect(compileGoRegex('a\\101').test('aA')).toBe(true);
    expect(compileGoRegex('\\x{41}').test('A')).toBe(true);
    expect(compileGoRegex('\\p{Greek}+').test('αβ')).toBe(true);
    expect(compileGoRegex('[]a]').test(']')).toBe(true);
  });
  it('rejects what RE2 rejects', () => {
    for (const bad of ['a(?=b)', 'a(?!b)', '(?<=a)b', '(a)\\1', '(unclosed', '[a-', 'a\\Z']) {
      expect(() => compileGoRegex(bad), bad).toThrow(DslError);
    }
  });
  it('ReplaceAllString expands $1, ${1} and ${name}', () => {
    expect(goReplaceAll('a1b22', compileGoRegex('(\\d+)'), '<$1>')).toBe('a<1>b<22>');
    expect(goReplaceAll('a1', compileGoRegex('(?P<n>\\d)'), '${n}${n}')).toBe('a11');
    expect(goReplaceAll('a1', compileGoRegex('(\\d)'), '$1x')).toBe('a'); // $1x names a group "1x"
    expect(goReplaceAll('a1', compileGoRegex('\\d'), '$$')).toBe('a$');
  });
});
