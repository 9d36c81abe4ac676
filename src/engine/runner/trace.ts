// A trace of one template run (nuclei's -debug, as data): each request sent, its response, which matchers
// fired and what the extractors took. Only a caller that asks for it (ExecuteTemplateOptions.trace) pays for
// it: the per-matcher and per-extractor outcomes are worked out again on the response's values, which
// operators never change (they have no side effects). HTTP blocks report steps; other protocols report
// their result events only.
import type { Extractor, Matcher } from '../template/types.ts';
import { runMatcher } from '../operators/matchers.ts';
import { runExtractor } from '../operators/extractors.ts';

export interface TraceRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** The body as sent; for a raw unsafe request, the whole request as written. */
  body: string;
}

export interface TraceResponse {
  status: number;
  headers: [string, string][];
  body: string;
  /** Milliseconds from send to the end of the body. */
  durationMs: number;
}

export interface TraceMatcher {
  index: number;
  name?: string;
  type: string;
  part?: string;
  negative?: boolean;
  internal?: boolean;
  matched: boolean;
}

export interface TraceExtractor {
  index: number;
  name?: string;
  type: string;
  internal?: boolean;
  values: string[];
}

/** One request of the run: what was sent, what came back (or why nothing did), the operators' outcome. */
export interface TraceStep {
  protocol: 'http';
  /** Index of the block in the template's http list. */
  block: number;
  request: TraceRequest;
  response?: TraceResponse;
  /** Why no response came: a refused connection (deny list), a timeout, a network error. */
  error?: string;
  /** Operators did not run on this response (a redirect hop the block does not match on, or a send error). */
  matchers: TraceMatcher[];
  matchersCondition: 'and' | 'or';
  /** The block's overall verdict on this response (matchers-condition applied; extractors alone without matchers). */
  matched: boolean;
  extractors: TraceExtractor[];
}

export type TraceSink = (step: TraceStep) => void;

/** Each matcher's own outcome on the response's values (a matcher that cannot be evaluated did not match). */
export function traceMatchers(matchers: Matcher[], data: Record<string, unknown>): TraceMatcher[] {
  return matchers.map((m, index) => {
    let matched = false;
    try {
      matched = runMatcher(m, data).matched;
    } catch {
      matched = false;
    }
    return {
      index,
      ...(m.name ? { name: m.name } : {}),
      type: m.type,
      ...(m.part ? { part: m.part } : {}),
      ...(m.negative ? { negative: true } : {}),
      ...(m.internal ? { internal: true } : {}),
      matched,
    };
  });
}

/** Each extractor's values, in order, named ones visible to later extractors (as when operators run). */
export function traceExtractors(extractors: Extractor[], data: Record<string, unknown>): TraceExtractor[] {
  const vars: Record<string, unknown> = {};
  for (const k in data) vars[k] = data[k];
  return extractors.map((e, index) => {
    let values: string[] = [];
    try {
      values = runExtractor(e, vars);
    } catch {
      values = [];
    }
    if (e.name && values.length) vars[e.name] = values.length === 1 ? values[0] : values;
    return {
      index,
      ...(e.name ? { name: e.name } : {}),
      type: e.type,
      ...(e.internal ? { internal: true } : {}),
      values,
    };
  });
}
