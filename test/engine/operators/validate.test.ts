import { describe, expect, it } from 'vitest';
import { validateExtractor, validateMatcher } from '../../../src/engine/operators/index.ts';

describe('validateMatcher', () => {
  it('maps kebab-case keys into the model', () => {
    const r = validateMatcher(
      {
        type: 'word',
        words: ['a', 'b'],
        part: 'header',
        condition: 'and',
        'case-insensitive': true,
        'match-all': true,
        negative: true,
        internal: true,
        name: 'x',
      },
      'matchers[0]',
    );
    expect(r.issues).toEqual([]);
    expect(r.value).toEqual({
      type: 'word',
      words: ['a', 'b'],
      part: 'header',
      condition: 'and',
      caseInsensitive: true,
      matchAll: true,
      negative: true,
      internal: true,
      name: 'x',
    });
    expect(validateMatcher({ type: 'status', status: [200, '302'] }, 'm').value).toEqual({
      type: 'status',
      status: [200, 302],
    });
    expect(validateMatcher({ type: 'word', words: ['3c68'], encoding: 'hex' }, 'm').value?.encoding).toBe('hex');
  });
  it('leaves unset fields out instead of carrying undefined keys', () => {
    const m = validateMatcher({ type: 'word', words: ['a'], part: 'body' }, 'm').value!;
    expect(Object.keys(m)).toEqual(['type', 'words', 'part']);
    const e = validateExtractor({ type: 'regex', regex: ['a(b)'], group: 1 }, 'e').value!;
    expect(Object.keys(e)).toEqual(['type', 'regex', 'group']);
  });
  it('rejects unknown types and fields, wrong-type fields and missing lists', () => {
    expect(validateMatcher({ type: 'nope', words: ['a'] }, 'matchers[1]').issues).toEqual([
      { field: 'matchers[1].type', reason: expect.stringContaining("unknown matcher type 'nope'") },
    ]);
    expect(validateMatcher({ words: ['a'] }, 'matchers[1]').issues[0].field).toBe('matchers[1].type');
    expect(validateMatcher({ type: 'word', words: ['a'], bogus: 1 }, 'm').issues).toEqual([
      { field: 'm.bogus', reason: "unknown field 'bogus'" },
    ]);
    expect(validateMatcher({ type: 'status', status: [200], words: ['a'] }, 'm').issues[0]).toEqual({
      field: 'm.words',
      reason: "field 'words' does not apply to type 'status'",
    });
    expect(validateMatcher({ type: 'regex', regex: ['a'], 'case-insensitive': true }, 'm').issues[0].field).toBe(
      'm.case-insensitive',
    );
    expect(validateMatcher({ type: 'word' }, 'm').value).toEqual({ type: 'word', words: [] }); // nuclei loads these too
    expect(validateMatcher({ type: 'word', words: [{ a: 1 }] }, 'm').issues[0].field).toBe('m.words[0]');
    expect(validateMatcher({ type: 'word', words: ['a'], condition: 'xor' }, 'm').issues[0].field).toBe('m.condition');
    expect(validateMatcher({ type: 'binary', binary: ['zz'] }, 'm').issues[0].field).toBe('m.binary[0]');
  });
  it('checks regexes with Go rules and DSL expressions', () => {
    expect(validateMatcher({ type: 'regex', regex: ['ok', '(unclosed'] }, 'matchers[2]').issues[0].field).toBe(
      'matchers[2].regex[1]',
    );
    expect(validateMatcher({ type: 'regex', regex: ['a(?=b)'] }, 'm').issues[0].reason).toMatch(/lookaround/);
    expect(validateMatcher({ type: 'regex', regex: ['(a)\\1'] }, 'm').issues[0].reason).toMatch(/backreference/);
    expect(validateMatcher({ type: 'regex', regex: ['a\\13b'] }, 'm').issues).toEqual([]); // Go octal escape
    expect(
      validateMatcher({ type: 'regex', regex: ['(?i)(?P<x>a)\\z', '(?s)a.b', '[[:alpha:]]+'] }, 'm').issues,
    ).toEqual([]);
    expect(validateMatcher({ type: 'dsl', dsl: ['status_code == 200', 'nosuchfn(body)'] }, 'm').issues[0].field).toBe(
      'm.dsl[1]',
    );
  });
});

describe('validateExtractor', () => {
  it('maps fields and checks per type', () => {
    expect(
      validateExtractor({ type: 'regex', regex: ['a(b)'], group: 1, name: 'n', internal: true, part: 'body' }, 'e')
        .value,
    ).toEqual({ type: 'regex', regex: ['a(b)'], group: 1, name: 'n', internal: true, part: 'body' });
    expect(validateExtractor({ type: 'kval', kval: ['server'], 'case-insensitive': true }, 'e').value).toEqual({
      type: 'kval',
      kval: ['server'],
      caseInsensitive: true,
    });
    expect(validateExtractor({ type: 'xpath', xpath: ['//a'], attribute: 'href' }, 'e').value).toEqual({
      type: 'xpath',
      xpath: ['//a'],
      attribute: 'href',
    });
    expect(validateExtractor({ type: 'json', json: ['.a[]'] }, 'e').issues).toEqual([]);
  });
  it('reports problems with field paths', () => {
    expect(validateExtractor({ type: 'json', json: ['.a | | .b'] }, 'extractors[0]').issues[0].field).toBe(
      'extractors[0].json[0]',
    );
    expect(validateExtractor({ type: 'regex', regex: ['('] }, 'extractors[1]').issues[0].field).toBe(
      'extractors[1].regex[0]',
    );
    expect(validateExtractor({ type: 'regex', regex: ['a'], attribute: 'x' }, 'e').issues[0].field).toBe('e.attribute');
    expect(validateExtractor({ type: 'xpath', xpath: ['//a['] }, 'e').issues[0].field).toBe('e.xpath[0]');
    expect(validateExtractor({ type: 'csv', csv: ['a'] }, 'e').issues[0].field).toBe('e.type');
    expect(validateExtractor({ type: 'kval', kval: 'server' }, 'e').value).toEqual({ type: 'kval', kval: ['server'] });
  });
});
