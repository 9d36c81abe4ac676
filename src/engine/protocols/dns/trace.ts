// dns `trace`: iterative resolution from the root servers, as nuclei's DNS client (retryabledns Trace)
// walks it: ask every server of the step at once, keep each answer, take the name servers the answers
// name (answer, authority and additional sections) as the next step's servers, pick one, and stop when
// no new server is named (or the one picked was asked already and no CNAME is being followed), or after
// `maxSteps`. A CNAME met on the way is followed (each at most 32 times). Name servers are reached at
// their glue address when the answer carries one, else at the address the scan's resolvers (or the
// system's) give for their name; always on `port` (53; tests point root hints and port at local servers).
import net from 'node:net';
import type { Answer, DecodedPacket, Packet } from 'dns-packet';
import { exchange, packet, parseResolver, type Resolver } from './client.ts';
import { fqdn, messageString } from './format.ts';
import { crypto, dnsPromises } from '../../lazy.ts';
import type { ConnectGuard } from '../../net/guard.ts';

/** IANA's root server addresses (IPv4), as nuclei's client uses them. */
export const ROOT_SERVERS = [
  '198.41.0.4',
  '199.9.14.201',
  '192.33.4.12',
  '199.7.91.13',
  '192.203.230.10',
  '192.5.5.241',
  '192.112.36.4',
  '198.97.190.53',
  '192.36.148.17',
  '192.58.128.30',
  '193.0.14.129',
  '199.7.83.42',
  '202.12.27.33',
];

const MAX_CNAME_FOLLOWS = 32;

export interface TraceOptions {
  /** Root hints, `ip` or `ip:port` (default ROOT_SERVERS on port 53). */
  roots?: string[];
  /** The port name servers found along the way are asked on (53). */
  port?: number;
  /** At most this many steps (nuclei's trace-max-recursion: its loop runs max - 1 times). */
  maxRecursion: number;
  timeout: number;
  signal?: AbortSignal;
  /** Addresses of a name server's name when no glue came with it (the scan's resolvers or the system's). */
  resolveName?: (name: string) => Promise<string[]>;
  /** Called before every query sent (rate limit and request count). */
  beforeQuery?: () => Promise<void> | void;
  /** Decides each name server's address (the servers a trace meets are named by the answers it gets). */
  guard?: ConnectGuard;
}

export interface TraceStep {
  resolver: string;
  raw: string;
}

function key(r: Resolver): string {
  return net.isIPv6(r.host) ? `[${r.host}]:${r.port}` : `${r.host}:${r.port}`;
}

async function ask(name: string, type: string, r: Resolver, o: TraceOptions): Promise<DecodedPacket | undefined> {
  // Like miekg/dns SetQuestion: recursion desired, no EDNS.
  const query: Packet = {
    type: 'query',
    id: crypto().randomInt(1, 65535),
    flags: packet().RECURSION_DESIRED,
    questions: [{ type: type as 'A', name: fqdn(name), class: 'IN' }],
  };
  try {
    await o.beforeQuery?.();
    return packet().decode(await exchange(packet().encode(query), r, o.timeout, o.signal, o.guard));
  } catch {
    return undefined; // a server that does not answer adds nothing to the trace
  }
}

function records(p: DecodedPacket): Answer[] {
  return [...(p.answers ?? []), ...(p.additionals ?? []), ...(p.authorities ?? [])];
}

const bare = (n: string) => n.replace(/\.$/, '').toLowerCase();
/** The data of an A, NS or CNAME record (a string in dns-packet). */
const dataOf = (rr: Answer) => String((rr as { data?: unknown }).data);

/** Walks the delegation chain for `name`; the answers of every step, in order. */
export async function trace(name: string, type: string, o: TraceOptions): Promise<TraceStep[]> {
  const port = o.port ?? 53;
  let servers = (o.roots && o.roots.length > 0 ? o.roots : ROOT_SERVERS).map(parseResolver);
  let host = fqdn(name);
  const seen = new Set<string>();
  const cnames = new Map<string, number>();
  const steps: TraceStep[] = [];
  for (let i = 1; i < o.maxRecursion && !o.signal?.aborted; i++) {
    const answers = await Promise.all(servers.map((s) => ask(host, type, s, o)));
    for (const s of servers) seen.add(key(s));
    const next: string[] = [];
    let nextCname = '';
    for (const [n, p] of answers.entries()) {
      if (!p) continue;
      steps.push({ resolver: key(servers[n]), raw: messageString(p, (p.flags ?? 0) & 0xf) });
      const all = records(p);
      for (const rr of all) {
        if (rr.type !== 'NS') continue;
        const ns = bare(dataOf(rr));
        // Glue first (A records for the name server in the same answer), else the name's addresses.
        let ips = all.filter((g) => g.type === 'A' && bare(g.name) === ns).map(dataOf);
        if (ips.length === 0 && o.resolveName)
          ips = (await o.resolveName(ns).catch(() => [])).filter((ip) => net.isIPv4(ip));
        for (const ip of ips) next.push(`${ip}:${port}`);
      }
      if (!nextCname) {
        const c = all.find((rr) => rr.type === 'CNAME');
        if (c) nextCname = fqdn(dataOf(c));
      }
    }
    const unique = [...new Set(next)];
    if (unique.length === 0) break;
    const pick = unique[crypto().randomInt(unique.length)]!;
    if (seen.has(pick) && !nextCname) break;
    servers = [parseResolver(pick)];
    if (nextCname) {
      const n = (cnames.get(nextCname) ?? 0) + 1;
      cnames.set(nextCname, n);
      if (n > MAX_CNAME_FOLLOWS) break;
      host = nextCname;
    }
  }
  return steps;
}

/** A name's IPv4 addresses through the system resolver (when the scan names no resolvers). */
export async function systemAddresses(name: string): Promise<string[]> {
  return (await dnsPromises().lookup(name, { all: true, family: 4 })).map((a) => a.address);
}

/** A name's A records through one of the given resolvers. */
export async function resolverAddresses(
  name: string,
  resolvers: string[],
  timeout: number,
  signal?: AbortSignal,
): Promise<string[]> {
  for (const r of resolvers) {
    const query: Packet = {
      type: 'query',
      id: crypto().randomInt(1, 65535),
      flags: packet().RECURSION_DESIRED,
      questions: [{ type: 'A', name: fqdn(name), class: 'IN' }],
    };
    try {
      const p = packet().decode(await exchange(packet().encode(query), parseResolver(r), timeout, signal));
      return (p.answers ?? []).filter((a) => a.type === 'A').map(dataOf);
    } catch {
      // the next resolver
    }
  }
  return [];
}

/** nuclei's `trace` value: each step's message text, one after the other. */
export function traceText(steps: TraceStep[]): string {
  return steps.map((s) => `${s.raw}\n`).join('');
}
