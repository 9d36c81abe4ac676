// Libraries only some scans need (cookie jar, public-suffix list, zip, HTML entities), loaded on first
// use instead of at start-up: a short `vigil scan` spends most of its time loading modules. Synchronous,
// because the callers (DSL functions, cookie handling) are.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function lazy<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(name) as T);
}
