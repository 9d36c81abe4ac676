// The table of helper functions. Each is registered under its name and again without underscores
// (tolower, base64decode), as nuclei does for old templates. Fixed-arity functions get the same arity
// check and error text as the Go library.
import { DslError } from '../errors.ts';

export type DslFn = (args: unknown[]) => unknown;

interface Entry {
  name: string;
  arity?: number;
  fn: DslFn;
}

const table = new Map<string, Entry>();
const canonical: string[] = [];

export const INVALID_SIGNATURE = 'invalid dsl function signature';

/** Register a helper; arity = exact number of arguments, or undefined when the function checks itself. */
export function define(name: string, arity: number | undefined, fn: DslFn): void {
  if (table.has(name)) throw new Error(`duplicate helper function ${name}`);
  const entry = { name, arity, fn };
  table.set(name, entry);
  canonical.push(name);
  const short = name.replaceAll('_', '');
  if (short !== name && !table.has(short)) table.set(short, entry);
}

function signature(e: Entry): string {
  const args = Array.from({ length: e.arity ?? 0 }, (_, i) => `arg${i + 1}`).join(', ');
  return `${e.name}(${args} interface{}) interface{}`;
}

export function isFunction(name: string): boolean {
  return table.has(name);
}

/** Canonical names (with underscores), in registration order. */
export function functionNames(): string[] {
  return [...canonical];
}

export function invalid(name: string): DslError {
  return new DslError(`${name}: ${INVALID_SIGNATURE}`);
}

export function callFunction(name: string, args: unknown[]): unknown {
  const e = table.get(name);
  if (!e) throw new DslError(`Undefined function ${name}`);
  if (e.arity !== undefined && args.length !== e.arity) {
    throw new DslError(`${INVALID_SIGNATURE}. correct method signature "${signature(e)}"`);
  }
  try {
    return e.fn(args);
  } catch (err) {
    if (err instanceof DslError || (err as { pendingIO?: unknown })?.pendingIO === true) throw err;
    throw new DslError(`${e.name}: ${(err as Error).message}`);
  }
}
