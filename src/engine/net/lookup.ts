// Resolving the names connections go to, for the connect guard: through the system's resolver (as
// net.connect would) or through given resolvers; answers cached per name for a short while, so a scan
// resolves each host once instead of once per connection.
import { dns, dnsPromises } from '../lazy.ts';

export interface Resolved {
  address: string;
  family: 4 | 6;
}

export type NameLookup = (name: string) => Promise<Resolved[]>;

function notFound(name: string, cause?: unknown): Error {
  const code = (cause as { code?: string } | undefined)?.code ?? 'ENOTFOUND';
  return Object.assign(new Error(`no address found for host ${name} (${code})`), { code });
}

/** getaddrinfo, as net.connect uses it (hosts file, nsswitch), every address in the resolver's order. */
export function systemLookup(): NameLookup {
  return async (name) => {
    let list: { address: string; family: number }[];
    try {
      list = await dnsPromises().lookup(name, { all: true, verbatim: true });
    } catch (err) {
      throw notFound(name, err);
    }
    return list.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
  };
}

/** A and AAAA records from the given resolvers (`ip`, `ip:port`, `[v6]:port`). */
export function resolverLookup(resolvers: string[], timeoutMs = 5000): NameLookup {
  const r = new (dns().promises.Resolver)({ timeout: timeoutMs, tries: 2 });
  r.setServers(resolvers.map((s) => s.trim()));
  return async (name) => {
    const [a, aaaa] = await Promise.allSettled([r.resolve4(name), r.resolve6(name)]);
    const out: Resolved[] = [];
    if (a.status === 'fulfilled') for (const x of a.value) out.push({ address: x, family: 4 });
    if (aaaa.status === 'fulfilled') for (const x of aaaa.value) out.push({ address: x, family: 6 });
    if (out.length === 0) throw notFound(name, a.status === 'rejected' ? a.reason : undefined);
    return out;
  };
}

const TTL_MS = 30_000;
const MAX_NAMES = 10_000;

/** `inner` with answers (and failures) kept TTL_MS per name, at most MAX_NAMES names; one query in flight per name. */
export function cachedLookup(inner: NameLookup): NameLookup {
  const cache = new Map<string, { at: number; answer: Promise<Resolved[]> }>();
  return (name) => {
    const now = performance.now();
    const hit = cache.get(name);
    if (hit && now - hit.at < TTL_MS) return hit.answer;
    if (cache.size >= MAX_NAMES) cache.delete(cache.keys().next().value!);
    const answer = inner(name);
    // A failure is kept as briefly as an answer: a name that does not resolve is not asked again per request.
    answer.catch(() => undefined);
    cache.delete(name);
    cache.set(name, { at: now, answer });
    return answer;
  };
}
