// V8 optimises a function once it has run a budget of bytecode (V8 11: three rounds of 66 KB). A scan
// that sends thousands of requests for a few templates runs one small request path over and over, and a
// sixth of that budget gets it optimised sooner (bench/cli, 20,000 probes: 8-12 % faster). A scan of
// many templates runs many paths a few times each; there a lower budget only adds compiling (409
// http/technologies templates: ~30 % more CPU). So it is lowered only for the first kind of scan.
// The engine's request count is handed in by the caller (it has the engine loaded; importing it here
// would load the whole engine at the start of every command).
import { createRequire } from 'node:module';
import type { Template } from '../engine/index.ts';

/** node:v8, loaded only when the budget is lowered (an import() cannot run from the code-cached bundle). */
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

/** The requests one target gets from a template (the engine's `requestsPerTarget`). */
export type RequestCounter = (t: Template) => number;

/** Set when this process lowered the budget: bin/vigil.mjs then keeps no code cache made under it. */
export const TIERING_CHANGED = Symbol.for('vigil.tieringChanged');

const FEW_TEMPLATES = 20;
const MANY_REQUESTS = 2_000;

/** True when few templates send many requests each: the scans a lower tiering budget makes faster. */
export function wantsLowerBudget(templates: Template[], requestsPerTarget: RequestCounter): boolean {
  return templates.length <= FEW_TEMPLATES && templates.some((t) => requestsPerTarget(t) >= MANY_REQUESTS);
}

/**
 * Lowers V8's tiering budget for such a scan, where V8 is known to have these flags (11 and 12: Node.js
 * 20 and 22; V8 writes an error for a flag it does not know, so any other keeps its defaults).
 */
export function tuneTiering(templates: Template[], requestsPerTarget: RequestCounter): boolean {
  if (!/^1[12]\./.test(process.versions.v8) || !wantsLowerBudget(templates, requestsPerTarget)) return false;
  v8().setFlagsFromString('--interrupt-budget=16384 --ticks-before-optimization=2');
  (globalThis as Record<symbol, unknown>)[TIERING_CHANGED] = true;
  return true;
}
