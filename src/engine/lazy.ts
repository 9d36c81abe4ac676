// Libraries and Node built-ins only some scans need, loaded on first use instead of at start-up: a short
// `vigil scan` spends most of its time loading modules. Synchronous, because the callers (DSL functions,
// cookie handling, protocol code) are.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export function lazy<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(name) as T);
}

// The built-ins the engine loads on demand, one getter each (crypto for DSL hashes and DNS ids, tls for
// https and the ssl protocol, zlib for encoded bodies, http for its status texts ...).
export const childProcess = lazy<typeof import('node:child_process')>('node:child_process');
export const crypto = lazy<typeof import('node:crypto')>('node:crypto');
export const dgram = lazy<typeof import('node:dgram')>('node:dgram');
export const dns = lazy<typeof import('node:dns')>('node:dns');
export const dnsPromises = lazy<typeof import('node:dns/promises')>('node:dns/promises');
export const http = lazy<typeof import('node:http')>('node:http');
export const tls = lazy<typeof import('node:tls')>('node:tls');
export const v8 = lazy<typeof import('node:v8')>('node:v8');
export const workerThreads = lazy<typeof import('node:worker_threads')>('node:worker_threads');
export const zlib = lazy<typeof import('node:zlib')>('node:zlib');
