// V8 optimises a function once it has run a budget of bytecode (V8 11: three rounds of 66 KB). A scan
// that sends thousands of requests for a few templates runs one small request path over and over, and a
// sixth of that budget gets it optimised sooner (bench/cli, 20,000 probes: 8-12 % faster). A scan of
// many templates runs many paths a few times each; there a lower budget only adds compiling (409
// http/technologies templates: ~30 % more CPU). So it is lowered only for the first kind of scan.
import { v8 } from '../engine/lazy.ts';
import { countCombinations } from '../engine/protocols/http/payloads.ts';
import type { Template } from '../engine/template/types.ts';

/** Set when this process lowered the budget: bin/vigil.mjs then keeps no code cache made under it. */
export const TIERING_CHANGED = Symbol.for('vigil.tieringChanged');

const FEW_TEMPLATES = 20;
const MANY_REQUESTS = 2_000;

/** The requests one target gets from a template's http blocks. */
function requestsPerTarget(t: Template): number {
  let n = 0;
  for (const b of t.http) n += countCombinations(b.payloads, b.payloads ? b.attack : 'batteringram') * Math.max(1, b.raw.length || b.path.length);
  return n;
}

/** True when few templates send many requests each: the scans a lower tiering budget makes faster. */
export function wantsLowerBudget(templates: Template[]): boolean {
  return templates.length <= FEW_TEMPLATES && templates.some((t) => requestsPerTarget(t) >= MANY_REQUESTS);
}

/**
 * Lowers V8's tiering budget for such a scan, where V8 is known to have these flags (11 and 12: Node.js
 * 20 and 22; V8 writes an error for a flag it does not know, so any other keeps its defaults).
 */
export function tuneTiering(templates: Template[]): boolean {
  if (!/^1[12]\./.test(process.versions.v8) || !wantsLowerBudget(templates)) return false;
  v8().setFlagsFromString('--interrupt-budget=16384 --ticks-before-optimization=2');
  (globalThis as Record<symbol, unknown>)[TIERING_CHANGED] = true;
  return true;
}
