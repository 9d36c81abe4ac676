// What an agent's declared networks cover. Entries are CIDR ranges or single addresses (10.0.0.0/8,
// fd00::/8, 192.0.2.7) and host names or domain patterns (intranet.example, *.corp.example).
import { cidrContains, parseAddress, parseAddressOrCidr, type Cidr } from '../../engine/index.ts';
import { hostOf } from '../shared/target-patterns.ts';

const NAME = /^(\*\.)?([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/i;

/** The reason a network entry is not understood, or undefined when it is fine. */
export function networkProblem(entry: string): string | undefined {
  const e = entry.trim();
  if (!e) return 'an empty network entry';
  if (parseAddressOrCidr(e)) return undefined;
  if (e.includes('/') || e.includes(':')) return `"${e}" is not a CIDR range or address`;
  if (e.length <= 253 && NAME.test(e)) return undefined;
  return `"${e}" is not a CIDR range, an address, a host name or a *.domain pattern`;
}

function inside(inner: Cidr, outer: Cidr): boolean {
  return (
    inner.family === outer.family &&
    outer.bits <= inner.bits &&
    cidrContains(outer, { family: inner.family, value: inner.base, text: '' })
  );
}

function nameCovered(host: string, entries: string[]): boolean {
  const h = host.toLowerCase().replace(/\.$/, '');
  return entries.some((e) => {
    const p = e.trim().toLowerCase();
    if (p.startsWith('*.')) return h.endsWith(p.slice(1));
    return h === p;
  });
}

/** True when one of the agent's entries covers `what` (a range, an address or a host name). */
export function covers(agentNetworks: string[], what: string): boolean {
  const ranges = agentNetworks.map((n) => parseAddressOrCidr(n.trim())).filter((c): c is Cidr => Boolean(c));
  const asRange = parseAddressOrCidr(what.trim());
  if (asRange) return ranges.some((r) => inside(asRange, r));
  return nameCovered(what, agentNetworks);
}

/**
 * A scan's agent_networks select the agents whose declared networks cover every listed network and every
 * target given as an address. Targets given by name are resolved inside the agent's network, so the
 * server cannot place them; they are routed by the listed networks (and names or *.domain entries).
 */
export function agentCoversScan(agentNetworks: string[], scanNetworks: string[], targets: string[]): boolean {
  if (!scanNetworks.every((n) => covers(agentNetworks, n))) return false;
  for (const t of targets) {
    const host = hostOf(t);
    if (parseAddress(host) && !covers(agentNetworks, host)) return false;
  }
  return true;
}
