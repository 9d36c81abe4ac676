// Helpers that need the network: resolve, jarm, public_ip. Expressions are synchronous, so the work runs
// in a short-lived child process (net-child.ts) and the result is cached per arguments, like the Go
// library caches these functions.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { fileURLToPath } from 'node:url';
import { DslError } from '../errors.ts';
import { toStr } from '../values.ts';
import { define, invalid } from './registry.ts';

const childPath = fileURLToPath(new URL('./net-child.ts', import.meta.url));
const cache = new Map<string, string>();

function runChild(task: string, args: string[], timeoutMs: number): string {
  const key = JSON.stringify([task, args]);
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
  const res = spawnSync(process.execPath, ['--import', tsx, childPath, key], { encoding: 'utf8', timeout: timeoutMs });
  if (res.error) throw new DslError(`${task}: ${res.error.message}`);
  let out: { ok: boolean; value?: string; error?: string };
  try {
    out = JSON.parse(res.stdout.trim().split('\n').pop() ?? '');
  } catch {
    throw new DslError(`${task}: failed (${res.stderr.trim().slice(0, 200) || 'no output'})`);
  }
  if (!out.ok) throw new DslError(`${task}: ${out.error}`);
  if (cache.size > 1000) cache.clear();
  cache.set(key, out.value ?? '');
  return out.value ?? '';
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
