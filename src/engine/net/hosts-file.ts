// Names the hosts file gives addresses (localhost, the machine's own names ...): a check that has no DNS
// at hand (a scan being created) still knows where such a name leads. Read again when the file changes.
import { readFileSync, statSync } from 'node:fs';
import { normalizeName } from './address.ts';

const HOSTS = '/etc/hosts';
let cached: { path: string; mtimeMs: number; names: Map<string, string[]> } | undefined;

function parse(text: string): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const fields = line.replace(/#.*/, '').trim().split(/\s+/);
    if (fields.length < 2) continue;
    const [address, ...aliases] = fields;
    for (const a of aliases) {
      const n = normalizeName(a);
      names.set(n, [...(names.get(n) ?? []), address!]);
    }
  }
  return names;
}

/** The addresses the hosts file gives `name` (any case, trailing dots); none when it is not there or unreadable. */
export function hostsFileAddresses(name: string, path = HOSTS): string[] {
  try {
    const mtimeMs = statSync(path).mtimeMs;
    if (!cached || cached.path !== path || cached.mtimeMs !== mtimeMs) {
      cached = { path, mtimeMs, names: parse(readFileSync(path, 'utf8').slice(0, 1024 * 1024)) };
    }
    return cached.names.get(normalizeName(name)) ?? [];
  } catch {
    return [];
  }
}
