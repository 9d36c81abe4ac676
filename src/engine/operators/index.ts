// Runs a request's operators (extractors first, then matchers) on one response, as nuclei does:
// extracted values become variables the matchers can use, internal extractors feed later requests.
import type { Extractor, Matcher, Operators } from '../template/types.ts';
import { runMatcher } from './matchers.ts';
import { runExtractor } from './extractors.ts';

export { validateMatcher, validateExtractor } from './validate.ts';

export interface OperatorResult {
  matched: boolean;
  matcherNames: string[];
  extracts: Record<string, string[]>;
  outputExtracts: string[];
  dynamic: Record<string, unknown>;
}

/** Value of an extractor as a variable: one result -> string, several -> list. */
function asVariable(values: string[]): unknown {
  return values.length === 1 ? values[0] : values;
}

/** Key-by-key copy: V8 handles keys added to a `{ ...spread }` clone very slowly. */
function copy(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k in data) out[k] = data[k];
  return out;
}

export function runOperators(
  ops: Operators,
  data: Record<string, unknown>,
  opts?: { matchAll?: boolean },
): OperatorResult {
  // Named extractors add variables; copy the caller's map only then (it is large: a copy per response).
  const extractors = ops.extractors ?? [];
  let named = false;
  for (const e of extractors) if (e.name) named = true;
  const vars: Record<string, unknown> = named ? copy(data) : data;
  const result: OperatorResult = { matched: false, matcherNames: [], extracts: {}, outputExtracts: [], dynamic: {} };
  if (extractors.length > 0) runExtractors(extractors, vars, result);
  const matchers = ops.matchers ?? [];
  const and = ops.matchersCondition === 'and';
  const matchAll = !!opts?.matchAll;
  let any = false;
  let all = true;
  for (let i = 0; i < matchers.length; i++) {
    const m = matchers[i] as Matcher;
    if (and && !all && !matchAll) break;
    if (runMatcher(m, vars).matched) {
      any = true;
      if (m.name && !m.internal && !result.matcherNames.includes(m.name)) result.matcherNames.push(m.name);
    } else {
      all = false;
    }
  }

  if (matchers.length === 0) result.matched = result.outputExtracts.length > 0;
  else result.matched = and ? all : any;
  if (and && !all && !matchAll) result.matcherNames = [];
  return result;
}

/** Extractors in order: output values (unique, in order), named ones as variables, internal ones as dynamic values. */
function runExtractors(extractors: Extractor[], vars: Record<string, unknown>, result: OperatorResult): void {
  const seen = new Set<string>();
  const internal: Record<string, string[]> = {};
  extractors.forEach((e: Extractor, index: number) => {
    const values = runExtractor(e, vars);
    if (values.length === 0) return;
    if (e.internal) {
      const key = e.name ?? String(index);
      internal[key] = [...(internal[key] ?? []), ...values];
    } else {
      for (const v of values) {
        if (!seen.has(v)) {
          seen.add(v);
          result.outputExtracts.push(v);
        }
      }
      const key = e.name ?? '';
      result.extracts[key] = [...(result.extracts[key] ?? []), ...values];
    }
    if (e.name) vars[e.name] = asVariable(values);
  });

  for (const [name, values] of Object.entries(internal)) {
    result.dynamic[name] = asVariable(values);
    if (values.length > 1) values.forEach((v, i) => (result.dynamic[`${name}${i}`] = v));
  }
}
