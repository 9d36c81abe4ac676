import { describe, expect, it } from 'vitest';
import { parseQuery, wordTsquery } from '../../../src/platform/templates/query.ts';
import { ApiError } from '../../../src/platform/shared/errors.ts';

describe('template search q language', () => {
  it('splits free words and field:value filters', () => {
    const q = parseQuery(
      'WordPress rce severity:Critical,high -tags:dos author:"Jane Doe" cve:cve-2021-44228 is_new:TRUE',
    );
    expect(q.words).toEqual(['wordpress', 'rce']);
    expect(q.filters).toEqual([
      { name: 'severity', column: 'severity', kind: 'text', values: ['critical', 'high'], negate: false },
      { name: 'tags', column: 'tags', kind: 'array', values: ['dos'], negate: true },
      { name: 'author', column: 'author', kind: 'array', values: ['Jane Doe'], negate: false },
      { name: 'cve', column: 'cve_ids', kind: 'upperArray', values: ['CVE-2021-44228'], negate: false },
      { name: 'is_new', column: 'is_new', kind: 'bool', values: ['true'], negate: false },
    ]);
    expect(parseQuery(undefined)).toEqual({ words: [], filters: [] });
    expect(parseQuery('  "two words"  ').words).toEqual(['two words']);
  });

  it('rejects unknown filters, empty values, bad booleans and unclosed quotes, naming q', () => {
    for (const bad of ['colour:red', 'severity:', 'is_early:yes', 'name:"open']) {
      const err = (() => {
        try {
          parseQuery(bad);
        } catch (e) {
          return e as ApiError;
        }
      })();
      expect(err, bad).toBeInstanceOf(ApiError);
      expect(err!.param).toBe('q');
    }
    expect(() => parseQuery('colour:red')).toThrow(/colour/);
  });

  it('turns a word into a safe prefix tsquery', () => {
    expect(wordTsquery('CVE-2021-4422')).toBe('cve:* & 2021:* & 4422:*');
    expect(wordTsquery("x'&|!:*()")).toBe('x:*');
    expect(wordTsquery('---')).toBe('');
  });
});
