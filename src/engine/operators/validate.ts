// Turns a raw YAML matcher/extractor object into the typed model, reporting every problem with its field
// path: unknown types, fields that do not belong to the type, missing values, regexes Go would reject and
// DSL expressions that do not compile.
import type { Extractor, ExtractorType, Matcher, MatcherType } from '../template/types.ts';
import { compile, DslError } from '../dsl/index.ts';
import { compileGoRegex } from '../dsl/goregex.ts';
// The parsers alone: the template loader imports this module, and a loader that has not run a scan yet
// needs neither the jq and XPath evaluators nor the HTML tree builder.
import { parseJq } from './jq/parser.ts';
import { parseXPathExpr } from './xpath/parser.ts';

export interface Issue {
  field: string;
  reason: string;
}

const MATCHER_TYPES: MatcherType[] = ['word', 'regex', 'status', 'size', 'binary', 'dsl', 'xpath'];
const EXTRACTOR_TYPES: ExtractorType[] = ['regex', 'kval', 'json', 'xpath', 'dsl'];

const MATCHER_COMMON = ['type', 'name', 'part', 'condition', 'negative', 'internal'];
const MATCHER_FIELDS: Record<MatcherType, string[]> = {
  word: ['words', 'case-insensitive', 'encoding', 'match-all'],
  regex: ['regex', 'match-all'],
  binary: ['binary', 'match-all'],
  status: ['status'],
  size: ['size'],
  dsl: ['dsl'],
  xpath: ['xpath', 'match-all'],
};
const MATCHER_LIST: Record<MatcherType, string> = {
  word: 'words',
  regex: 'regex',
  binary: 'binary',
  status: 'status',
  size: 'size',
  dsl: 'dsl',
  xpath: 'xpath',
};
const ALL_MATCHER_FIELDS = new Set([...MATCHER_COMMON, ...Object.values(MATCHER_FIELDS).flat()]);
const MATCHER_ALLOWED = allowedByType(MATCHER_COMMON, MATCHER_FIELDS);

// `group` is tolerated on every extractor type: nuclei ignores it outside regex and real templates use it.
const EXTRACTOR_COMMON = ['type', 'name', 'part', 'internal', 'group'];
const EXTRACTOR_FIELDS: Record<ExtractorType, string[]> = {
  regex: ['regex'],
  kval: ['kval', 'case-insensitive'],
  json: ['json'],
  xpath: ['xpath', 'attribute'],
  dsl: ['dsl'],
};
const ALL_EXTRACTOR_FIELDS = new Set([...EXTRACTOR_COMMON, ...Object.values(EXTRACTOR_FIELDS).flat()]);
const EXTRACTOR_ALLOWED = allowedByType(EXTRACTOR_COMMON, EXTRACTOR_FIELDS);

function allowedByType<T extends string>(common: string[], fields: Record<T, string[]>): Record<T, Set<string>> {
  const out = {} as Record<T, Set<string>>;
  for (const t of Object.keys(fields) as T[]) out[t] = new Set([...common, ...fields[t]]);
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function stringList(raw: unknown, field: string, issues: Issue[]): string[] | undefined {
  const list = typeof raw === 'string' ? [raw] : raw;
  if (!Array.isArray(list)) {
    issues.push({ field, reason: 'must be a list of strings' });
    return undefined;
  }
  const out: string[] = [];
  list.forEach((x, i) => {
    if (typeof x === 'string') out.push(x);
    else if (typeof x === 'number' || typeof x === 'boolean') out.push(String(x));
    else issues.push({ field: `${field}[${i}]`, reason: 'must be a string' });
  });
  return out;
}

function intList(raw: unknown, field: string, issues: Issue[]): number[] | undefined {
  const list = Array.isArray(raw) ? raw : [raw];
  const out: number[] = [];
  list.forEach((x, i) => {
    const n = typeof x === 'number' ? x : typeof x === 'string' && /^\d+$/.test(x.trim()) ? Number(x) : NaN;
    if (!Number.isInteger(n)) issues.push({ field: `${field}[${i}]`, reason: 'must be an integer' });
    else out.push(n);
  });
  return out;
}

function bool(raw: unknown, field: string, issues: Issue[]): boolean | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'boolean') return raw;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  issues.push({ field, reason: 'must be true or false' });
  return undefined;
}

function optString(raw: unknown, field: string, issues: Issue[]): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') return raw;
  if (typeof raw === 'number') return String(raw);
  issues.push({ field, reason: 'must be a string' });
  return undefined;
}

function checkRegexes(list: string[] | undefined, field: string, issues: Issue[]): void {
  list?.forEach((r, i) => {
    try {
      compileGoRegex(r);
    } catch (e) {
      issues.push({ field: `${field}[${i}]`, reason: (e as Error).message });
    }
  });
}

function checkDsl(list: string[] | undefined, field: string, issues: Issue[]): void {
  list?.forEach((expr, i) => {
    try {
      compile(expr);
    } catch (e) {
      if (e instanceof DslError)
        issues.push({ field: `${field}[${i}]`, reason: `invalid dsl expression '${expr}': ${e.message}` });
      else throw e;
    }
  });
}

function checkFields(
  obj: Record<string, unknown>,
  field: string,
  all: Set<string>,
  allowed: Set<string>,
  type: string,
  issues: Issue[],
): void {
  for (const key of Object.keys(obj)) {
    if (!all.has(key)) issues.push({ field: `${field}.${key}`, reason: `unknown field '${key}'` });
    else if (!allowed.has(key))
      issues.push({ field: `${field}.${key}`, reason: `field '${key}' does not apply to type '${type}'` });
  }
}

export function validateMatcher(raw: unknown, field: string): { value?: Matcher; issues: Issue[] } {
  const issues: Issue[] = [];
  if (!isObject(raw)) return { issues: [{ field, reason: 'matcher must be a mapping' }] };
  const type = raw.type;
  if (type === undefined) return { issues: [{ field: `${field}.type`, reason: 'missing matcher type' }] };
  if (typeof type !== 'string' || !MATCHER_TYPES.includes(type as MatcherType)) {
    return {
      issues: [
        {
          field: `${field}.type`,
          reason: `unknown matcher type '${String(type)}' (expected ${MATCHER_TYPES.join(', ')})`,
        },
      ],
    };
  }
  const t = type as MatcherType;
  checkFields(raw, field, ALL_MATCHER_FIELDS, MATCHER_ALLOWED[t], t, issues);
  const m: Matcher = { type: t };
  const listKey = MATCHER_LIST[t];
  // A missing or empty list is accepted (the matcher never matches), as nuclei loads such templates.
  if (raw[listKey] === undefined || raw[listKey] === null) {
    m[listKey as 'words'] = [];
  } else if (t === 'status' || t === 'size') {
    m[t] = intList(raw[listKey], `${field}.${listKey}`, issues);
  } else {
    const list = stringList(raw[listKey], `${field}.${listKey}`, issues);
    if (list !== undefined) m[listKey as 'words'] = list;
  }
  // Only defined fields are set: deleting undefined ones afterwards turned every matcher into a slow
  // dictionary-mode object (and cost a tenth of the corpus load).
  put(m, 'name', optString(raw.name, `${field}.name`, issues));
  put(m, 'part', optString(raw.part, `${field}.part`, issues));
  if (raw.condition !== undefined && raw.condition !== null) {
    if (raw.condition === 'and' || raw.condition === 'or') m.condition = raw.condition;
    else
      issues.push({
        field: `${field}.condition`,
        reason: `condition must be 'and' or 'or', got '${String(raw.condition)}'`,
      });
  }
  put(m, 'negative', bool(raw.negative, `${field}.negative`, issues));
  put(m, 'internal', bool(raw.internal, `${field}.internal`, issues));
  put(m, 'caseInsensitive', bool(raw['case-insensitive'], `${field}.case-insensitive`, issues));
  put(m, 'matchAll', bool(raw['match-all'], `${field}.match-all`, issues));
  if (raw.encoding !== undefined && raw.encoding !== null) {
    if (raw.encoding === 'hex') m.encoding = 'hex';
    else issues.push({ field: `${field}.encoding`, reason: `unknown encoding '${String(raw.encoding)}' (only 'hex')` });
  }
  if (t === 'regex') checkRegexes(m.regex, `${field}.regex`, issues);
  if (t === 'dsl') checkDsl(m.dsl, `${field}.dsl`, issues);
  if (t === 'binary') {
    m.binary?.forEach((b, i) => {
      if (!/^([0-9a-fA-F]{2})*$/.test(b)) issues.push({ field: `${field}.binary[${i}]`, reason: 'not a hex string' });
    });
  }
  if (t === 'xpath') {
    m.xpath?.forEach((q, i) => {
      try {
        parseXPathExpr(q);
      } catch (e) {
        issues.push({ field: `${field}.xpath[${i}]`, reason: `invalid xpath: ${(e as Error).message}` });
      }
    });
  }
  return issues.length ? { issues } : { value: m, issues };
}

export function validateExtractor(raw: unknown, field: string): { value?: Extractor; issues: Issue[] } {
  const issues: Issue[] = [];
  if (!isObject(raw)) return { issues: [{ field, reason: 'extractor must be a mapping' }] };
  const type = raw.type;
  if (type === undefined) return { issues: [{ field: `${field}.type`, reason: 'missing extractor type' }] };
  if (typeof type !== 'string' || !EXTRACTOR_TYPES.includes(type as ExtractorType)) {
    return {
      issues: [
        {
          field: `${field}.type`,
          reason: `unknown extractor type '${String(type)}' (expected ${EXTRACTOR_TYPES.join(', ')})`,
        },
      ],
    };
  }
  const t = type as ExtractorType;
  checkFields(raw, field, ALL_EXTRACTOR_FIELDS, EXTRACTOR_ALLOWED[t], t, issues);
  const e: Extractor = { type: t };
  const listKey = t;
  if (raw[listKey] === undefined || raw[listKey] === null) {
    e[listKey] = [];
  } else {
    put(e, listKey, stringList(raw[listKey], `${field}.${listKey}`, issues));
  }
  put(e, 'name', optString(raw.name, `${field}.name`, issues));
  put(e, 'part', optString(raw.part, `${field}.part`, issues));
  put(e, 'internal', bool(raw.internal, `${field}.internal`, issues));
  put(e, 'caseInsensitive', bool(raw['case-insensitive'], `${field}.case-insensitive`, issues));
  put(e, 'attribute', optString(raw.attribute, `${field}.attribute`, issues));
  if (raw.group !== undefined && raw.group !== null) {
    const g = typeof raw.group === 'number' ? raw.group : Number(raw.group);
    if (!Number.isInteger(g) || g < 0)
      issues.push({ field: `${field}.group`, reason: 'group must be a non-negative integer' });
    else if (t === 'regex') e.group = g;
  }
  if (t === 'regex') checkRegexes(e.regex, `${field}.regex`, issues);
  if (t === 'dsl') checkDsl(e.dsl, `${field}.dsl`, issues);
  if (t === 'json') {
    e.json?.forEach((q, i) => {
      try {
        parseJq(q);
      } catch (err) {
        issues.push({ field: `${field}.json[${i}]`, reason: `invalid jq query: ${(err as Error).message}` });
      }
    });
  }
  if (t === 'xpath') {
    e.xpath?.forEach((q, i) => {
      try {
        parseXPathExpr(q);
      } catch (err) {
        issues.push({ field: `${field}.xpath[${i}]`, reason: `invalid xpath: ${(err as Error).message}` });
      }
    });
  }
  return issues.length ? { issues } : { value: e, issues };
}

/** Sets a field only when it has a value, so the object never carries `undefined` keys. */
function put<T extends object, K extends keyof T>(o: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) o[key] = value;
}
