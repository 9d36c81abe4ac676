// Evaluation of one matcher against the response data, following nuclei's per-type rules: status and
// size are "any of"; words, regex and binary honour condition and match-all; a dsl expression that does
// not give a boolean is skipped; negative inverts the final answer.
import type { Matcher } from '../template/types.ts';
import { compile, render, unresolvedVariables, DslError } from '../dsl/index.ts';
import { compileGoRegex, withGlobal } from '../dsl/goregex.ts';
import { matchPart } from './parts.ts';
import { queryXPath } from './xpath/index.ts';

export interface MatchOutcome {
  matched: boolean;
  snippets: string[];
}

function decodeHexWord(w: string): string {
  if (!/^([0-9a-fA-F]{2})+$/.test(w)) return w;
  const b = Buffer.from(w, 'hex');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return b.toString('latin1');
  }
}

function byCondition(
  items: string[],
  condition: 'and' | 'or',
  matchAll: boolean,
  test: (item: string, i: number) => string[] | undefined,
): MatchOutcome {
  const collected: string[] = [];
  for (let i = 0; i < items.length; i++) {
    const hit = test(items[i], i);
    if (!hit) {
      if (condition === 'and') return { matched: false, snippets: [] };
      continue;
    }
    if (condition === 'or' && !matchAll) return { matched: true, snippets: hit };
    collected.push(...hit);
    if (i === items.length - 1 && !matchAll) return { matched: true, snippets: collected };
  }
  if (collected.length > 0 && matchAll) return { matched: true, snippets: collected };
  return { matched: false, snippets: [] };
}

function matchWords(m: Matcher, corpus: string, data: Record<string, unknown>): MatchOutcome {
  const ci = !!m.caseInsensitive;
  const text = ci ? corpus.toLowerCase() : corpus;
  return byCondition(m.words ?? [], m.condition ?? 'or', !!m.matchAll, (w) => {
    let word = m.encoding === 'hex' ? decodeHexWord(w) : w;
    word = render(word, data);
    if (ci) word = word.toLowerCase();
    return text.includes(word) ? [word] : undefined;
  });
}

function matchRegex(m: Matcher, corpus: string): MatchOutcome {
  return byCondition(m.regex ?? [], m.condition ?? 'or', !!m.matchAll, (r) => {
    const re = compileGoRegex(r);
    if (!re.test(corpus)) return undefined;
    return [...corpus.matchAll(withGlobal(re))].map((x) => x[0]);
  });
}

function matchBinary(m: Matcher, corpus: string): MatchOutcome {
  const asUtf8 = Buffer.from(corpus, 'utf8');
  const asLatin1 = Buffer.from(corpus, 'latin1');
  return byCondition(m.binary ?? [], m.condition ?? 'or', !!m.matchAll, (hex) => {
    const needle = Buffer.from(hex, 'hex');
    if (needle.length === 0 && hex !== '') return undefined;
    return asUtf8.includes(needle) || asLatin1.includes(needle) ? [needle.toString('latin1')] : undefined;
  });
}

function matchDsl(m: Matcher, data: Record<string, unknown>): boolean {
  const list = m.dsl ?? [];
  const and = (m.condition ?? 'or') === 'and';
  for (let i = 0; i < list.length; i++) {
    // {{name}} markers inside an expression take the value of the moment first (nuclei does this);
    // a marker that stays unresolved fails the whole matcher, as in nuclei.
    const expr = list[i].includes('{{') ? render(list[i], data) : list[i];
    if (expr.includes('{{') && unresolvedVariables(expr, data).length > 0) return false;
    let result: unknown;
    try {
      result = compile(expr).evaluate(data);
    } catch (e) {
      if (!(e instanceof DslError)) throw e;
      if (and) return false;
      continue;
    }
    if (typeof result !== 'boolean') continue;
    if (!result) {
      if (and) return false;
      continue;
    }
    if (!and) return true;
    if (i === list.length - 1) return true;
  }
  return false;
}

function matchXPath(m: Matcher, corpus: string): MatchOutcome {
  return byCondition(m.xpath ?? [], m.condition ?? 'or', !!m.matchAll, (q) => {
    const nodes = queryXPath(corpus, q);
    return nodes.length > 0 ? nodes.map((n) => n.text) : undefined;
  });
}

function statusCode(data: Record<string, unknown>): number | undefined {
  const v = data.status_code;
  const n = typeof v === 'number' ? v : Number.parseInt(String(v ?? ''), 10);
  return Number.isFinite(n) ? n : undefined;
}

/** `negative` inverts the answer; written as a plain function because it runs for every matcher. */
function negate(m: Matcher, o: MatchOutcome): MatchOutcome {
  return m.negative ? { matched: !o.matched, snippets: [] } : o;
}

export function runMatcher(m: Matcher, data: Record<string, unknown>): MatchOutcome {
  if (m.type === 'status') {
    const code = statusCode(data);
    if (code === undefined) return { matched: false, snippets: [] };
    return negate(m, { matched: (m.status ?? []).includes(code), snippets: [] });
  }
  if (m.type === 'dsl') return negate(m, { matched: matchDsl(m, data), snippets: [] });
  const corpus = matchPart(m.part, data);
  if (corpus === undefined) return { matched: false, snippets: [] };
  switch (m.type) {
    case 'size':
      return negate(m, { matched: (m.size ?? []).includes(Buffer.byteLength(corpus)), snippets: [] });
    case 'word':
      return negate(m, matchWords(m, corpus, data));
    case 'regex':
      return negate(m, matchRegex(m, corpus));
    case 'binary':
      return negate(m, matchBinary(m, corpus));
    case 'xpath':
      return negate(m, matchXPath(m, corpus));
    default:
      return { matched: false, snippets: [] };
  }
}
