// Structural check of matchers and extractors, used until src/engine/operators/ (which owns the full
// rules: regex and DSL compilation, per-type fields) is available. Same signature as theirs.
import type { Extractor, ExtractorType, Matcher, MatcherType } from './types.ts';
import { IssueList, join } from './issues.ts';
import { checkShape, type Shape } from './shape.ts';

export interface OperatorCheck<T> {
  value?: T;
  issues: { field: string; reason: string }[];
}

const MATCHER_LISTS: Record<MatcherType, keyof Matcher> = {
  word: 'words',
  regex: 'regex',
  status: 'status',
  size: 'size',
  binary: 'binary',
  dsl: 'dsl',
  xpath: 'xpath',
};

const MATCHER: Shape = {
  required: ['type'],
  fields: {
    type: { enum: Object.keys(MATCHER_LISTS) },
    condition: { enum: ['and', 'or'] },
    part: 'string',
    negative: 'bool',
    name: 'string',
    status: { custom: intList },
    size: { custom: intList },
    words: 'list',
    regex: 'list',
    binary: 'list',
    dsl: 'list',
    xpath: 'list',
    encoding: { enum: ['hex'] },
    'case-insensitive': 'bool',
    'match-all': 'bool',
    internal: 'bool',
  },
};

const EXTRACTOR_LISTS: Record<ExtractorType, keyof Extractor> = {
  regex: 'regex',
  kval: 'kval',
  json: 'json',
  xpath: 'xpath',
  dsl: 'dsl',
};

const EXTRACTOR: Shape = {
  required: ['type'],
  fields: {
    name: 'string',
    type: { enum: Object.keys(EXTRACTOR_LISTS) },
    regex: 'list',
    group: 'int',
    kval: 'list',
    json: 'list',
    xpath: 'list',
    attribute: 'string',
    dsl: 'list',
    part: 'string',
    internal: 'bool',
    'case-insensitive': 'bool',
  },
};

function intList(v: unknown, field: string, out: IssueList): number[] | undefined {
  if (!Array.isArray(v)) {
    out.error(field, 'must be a list of numbers');
    return undefined;
  }
  const result: number[] = [];
  v.forEach((n, i) => {
    if (typeof n === 'number' && Number.isInteger(n)) result.push(n);
    else out.error(join(field, i), `must be a whole number, got ${JSON.stringify(n)}`);
  });
  return result;
}

export function validateMatcher(m: unknown, field: string): OperatorCheck<Matcher> {
  const out = new IssueList('');
  const d = checkShape(m, MATCHER, field, out);
  const type = d?.type as MatcherType | undefined;
  if (d && type) {
    const listKey = MATCHER_LISTS[type];
    const values = d[listKey] as unknown[] | undefined;
    if (!values || values.length === 0) out.error(join(field, listKey), `is required for a ${type} matcher`);
  }
  const issues = out.errors.map(({ field: f, reason }) => ({ field: f, reason }));
  if (!d || !type || issues.length > 0) return { issues };
  const value: Matcher = {
    type,
    name: d.name as string | undefined,
    part: d.part as string | undefined,
    condition: d.condition as 'and' | 'or' | undefined,
    negative: d.negative as boolean | undefined,
    internal: d.internal as boolean | undefined,
    caseInsensitive: d['case-insensitive'] as boolean | undefined,
    matchAll: d['match-all'] as boolean | undefined,
    encoding: d.encoding as 'hex' | undefined,
  };
  (value as unknown as Record<string, unknown>)[MATCHER_LISTS[type]] = d[MATCHER_LISTS[type]];
  return { value, issues };
}

export function validateExtractor(e: unknown, field: string): OperatorCheck<Extractor> {
  const out = new IssueList('');
  const d = checkShape(e, EXTRACTOR, field, out);
  const type = d?.type as ExtractorType | undefined;
  if (d && type) {
    const values = d[EXTRACTOR_LISTS[type]] as unknown[] | undefined;
    if (!values || values.length === 0) out.error(join(field, type), `is required for a ${type} extractor`);
  }
  const issues = out.errors.map(({ field: f, reason }) => ({ field: f, reason }));
  if (!d || !type || issues.length > 0) return { issues };
  const value: Extractor = {
    type,
    name: d.name as string | undefined,
    part: d.part as string | undefined,
    internal: d.internal as boolean | undefined,
    caseInsensitive: d['case-insensitive'] as boolean | undefined,
    group: d.group as number | undefined,
    attribute: d.attribute as string | undefined,
  };
  (value as unknown as Record<string, unknown>)[EXTRACTOR_LISTS[type]] = d[EXTRACTOR_LISTS[type]];
  return { value, issues };
}
