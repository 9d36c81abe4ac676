// Helpers that need the network: resolve, jarm, public_ip. Expressions are synchronous, so the work runs
// in a short-lived child process (net-child.ts) and the result is cached per arguments, like the Go
// library caches these functions.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { childProcess } from '../../lazy.ts';
import type { ConnectGuard } from '../../net/guard.ts';

// Compiled (dist/) the child is JavaScript; next to the sources it is TypeScript run through tsx.
const compiled = import.meta.url.endsWith('.js');
const childPath = fileURLToPath(new URL(compiled ? './net-child.js' : './net-child.ts', import.meta.url));
const cache = new Map<string, { value?: string; error?: string }>();

/**
 * Thrown by a network helper whose answer is not known yet. Expressions are synchronous, and blocking
 * the event loop for a lookup (up to 60 s for JARM) would freeze the process, so the helper asks its
 * async caller to fetch the answer (fulfillPendingIO) and evaluate the expression again.
 */
export class PendingIO extends Error {
  readonly pendingIO = true;
  constructor(
    readonly key: string,
    readonly task: string,
    readonly args: string[],
    readonly timeoutMs: number,
  ) {
    super(`${task}: answer pending`);
  }
}

export function isPendingIO(err: unknown): err is PendingIO {
  return typeof err === 'object' && err !== null && (err as { pendingIO?: unknown }).pendingIO === true;
}

function runChild(task: string, args: string[], timeoutMs: number): string {
  const key = JSON.stringify([task, args]);
  const hit = cache.get(key);
  if (!hit) throw new PendingIO(key, task, args, timeoutMs);
  if (hit.error !== undefined) throw new DslError(`${task}: ${hit.error}`);
  return hit.value ?? '';
}

/**
 * Fetches the answer a PendingIO asked for (in a child process, without blocking) and caches it. Under a
 * connect guard, jarm's host:port is decided first (a refusal throws EgressDenied, and is not cached) and
 * the child connects to the address decided on.
 */
export async function fulfillPendingIO(p: PendingIO, guard?: ConnectGuard): Promise<void> {
  if (cache.has(p.key)) return;
  let task = p.key;
  if (guard && p.task === 'jarm')
    task = JSON.stringify([p.task, [...p.args, await guard.address(p.args[0]!, Number(p.args[1]))]]);
  const loader = compiled ? [] : ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href];
  const result = await new Promise<{ value?: string; error?: string }>((resolve) => {
    childProcess().execFile(
      process.execPath,
      [...loader, childPath, task],
      { encoding: 'utf8', timeout: p.timeoutMs },
      (err, stdout, stderr) => {
        try {
          const out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as {
            ok: boolean;
            value?: string;
            error?: string;
          };
          resolve(out.ok ? { value: out.value ?? '' } : { error: out.error ?? 'failed' });
        } catch {
          resolve({ error: err ? err.message : `failed (${stderr.trim().slice(0, 200) || 'no output'})` });
        }
      },
    );
  });
  if (cache.size > 1000) cache.clear();
  cache.set(p.key, result);
}

const SKIP_PORTS = new Set(['80', '443', '8080', '8081', '8443', '53']);

export function registerNetwork(): void {
  define('resolve', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('resolve');
    const format = a.length === 2 ? toStr(a[1]).toLowerCase() : '4';
    if (!['4', '6', 'a', 'aaaa', 'cname', 'ns', 'txt', 'srv', 'ptr', 'mx', 'soa', 'caa'].includes(format)) {
      throw new DslError(`resolve: invalid format '${format}'`);
    }
    return runChild('resolve', [toStr(a[0]), format], 15000);
  });
  define('getNetworkPort', 2, ([port, def]) => {
    const p = toStr(port);
    return p === '' || SKIP_PORTS.has(p) ? toStr(def) : p;
  });
  define('jarm', 1, ([target]) => {
    if (typeof target !== 'string') throw new DslError('jarm: invalid target');
    const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d+)$/.exec(target);
    if (!m) throw new DslError(`jarm: address ${target}: missing port in address`);
    return runChild('jarm', [m[1] ?? m[2], m[3]], 60000);
  });
  define('public_ip', 0, () => runChild('public_ip', [], 15000));
}
