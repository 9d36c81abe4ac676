// Public API of the DSL: nuclei-compatible (govaluate) expressions and {{ }} template rendering.
import { DslError } from './errors.ts';
import { collectVariables, evalNode } from './evaluator.ts';
import { parse, type Node } from './parser.ts';
import { isFunction } from './functions/index.ts';
import { UNSUPPORTED_FUNCTIONS } from './functions/misc.ts';
import { markers, renderBytesWith, renderWith } from './render.ts';
import type { Vars } from './values.ts';

export { DslError } from './errors.ts';
import { isPendingIO, fulfillPendingIO } from './functions/network.ts';
import type { ConnectGuard } from '../net/guard.ts';
export type { Vars } from './values.ts';
export { isFunction, functionNames } from './functions/index.ts';
export { toStr as valueToString } from './values.ts';

export interface CompiledExpr {
  evaluate(vars: Vars): unknown;
  variables: string[];
}

class Compiled implements CompiledExpr {
  readonly variables: string[];
  constructor(private readonly node: Node) {
    this.variables = collectVariables(node);
  }
  evaluate(vars: Vars): unknown {
    return evalNode(this.node, vars);
  }
}

const cache = new Map<string, Compiled>();
const CACHE_LIMIT = 20000;

/** Parse an expression; throws DslError on bad syntax or an unknown function. */
export function compile(expr: string): CompiledExpr {
  const hit = cache.get(expr);
  if (hit) return hit;
  const c = new Compiled(parse(expr, isFunction));
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(expr, c);
  return c;
}

/** Compile (cached) and evaluate; throws DslError, e.g. when a variable is missing. */
export function evaluate(expr: string, vars: Vars): unknown {
  return compile(expr).evaluate(vars);
}

/**
 * evaluate() for callers that can wait: network helpers (jarm, resolve) get their answer fetched
 * without blocking the event loop, then the expression is evaluated again.
 */
export async function evaluateWithIO(expr: string, vars: Vars, guard?: ConnectGuard): Promise<unknown> {
  for (let i = 0; ; i++) {
    try {
      return compile(expr).evaluate(vars);
    } catch (err) {
      if (!isPendingIO(err) || i >= 8) throw err;
      await fulfillPendingIO(err, guard);
    }
  }
}

export { takePendingWait } from './functions/time.ts';
export { setDebugOutput, escapeControl } from './functions/strings.ts';
export { isPendingIO, fulfillPendingIO } from './functions/network.ts';

const IDENT = /^[A-Za-z_][\w.-]*$/;

function evalMarker(expr: string, vars: Vars): { ok: true; value: unknown } | { ok: false } {
  // A marker that names a variable directly is a plain substitution, even for names such as
  // "interactsh-url" that the expression syntax would read as a subtraction.
  if (Object.prototype.hasOwnProperty.call(vars, expr)) return { ok: true, value: vars[expr] };
  let c: CompiledExpr;
  try {
    c = compile(expr);
  } catch {
    return { ok: false };
  }
  if (c.variables.some((v) => !Object.prototype.hasOwnProperty.call(vars, v))) return { ok: false };
  try {
    return { ok: true, value: c.evaluate(vars) };
  } catch (err) {
    if ((err as { pendingIO?: unknown })?.pendingIO === true) throw err; // the caller fetches, then renders again
    return { ok: false };
  }
}

/** Replace {{expr}} and §expr§ markers; markers that cannot be evaluated are left as written. */
export function render(text: string, vars: Vars): string {
  return renderWith(text, vars, evalMarker);
}

/** Like render, but returns the exact bytes: text as UTF-8, raw-byte values (hex_decode ...) unchanged. */
export function renderBytes(text: string, vars: Vars): Buffer {
  return renderBytesWith(text, vars, evalMarker);
}

/** Variable names that still have no value after rendering `text` with `vars`. */
export function unresolvedVariables(text: string, vars: Vars): string[] {
  const out: string[] = [];
  const add = (n: string) => {
    if (!out.includes(n)) out.push(n);
  };
  for (const m of markers(render(text, vars))) {
    if (m === '') continue;
    if (IDENT.test(m)) {
      if (!Object.prototype.hasOwnProperty.call(vars, m)) add(m);
      continue;
    }
    try {
      for (const v of compile(m).variables) if (!Object.prototype.hasOwnProperty.call(vars, v)) add(v);
    } catch (e) {
      if (e instanceof DslError && IDENT.test(m)) add(m);
    }
  }
  return out;
}

/**
 * The "unsupported: ..." errors of markers that stay in `text` after rendering because they call a
 * function Vigil refuses (gadget generators, llm_prompt); render() alone would leave them as written.
 */
export function unsupportedCalls(text: string, vars: Vars): string[] {
  if (!UNSUPPORTED_FUNCTIONS.some((n) => text.includes(n))) return [];
  const out: string[] = [];
  for (const m of markers(render(text, vars))) {
    if (!UNSUPPORTED_FUNCTIONS.some((n) => m.includes(n))) continue;
    try {
      compile(m).evaluate(vars);
    } catch (e) {
      if (e instanceof DslError && e.message.startsWith('unsupported:') && !out.includes(e.message))
        out.push(e.message);
    }
  }
  return out;
}
