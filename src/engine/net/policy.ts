// Which addresses and ports a connection may go to. An `EgressPolicy` is plain data (it crosses to worker
// threads and is built from the platform's settings); `Egress` is its compiled form, which answers
// "may I connect to this address:port" with the reason when not. Address membership is checked by
// net.BlockList on the address's normal form (address.ts), so every spelling of a denied address is denied.
import net from 'node:net';
import {
  cidrContains,
  cidrOf,
  formatAddress,
  parseAddress,
  parseCidr,
  normalizeName,
  translatedIPv4,
  type Address,
  type Cidr,
} from './address.ts';
import { nonPublicCidrs } from './special.ts';

export interface EgressRule {
  /** An address or CIDR range (any spelling), or a host name; `*` in a name matches any labels. */
  target: string;
  /** Only connections to this port are denied (default: every port). */
  port?: number;
  /** What a refusal says, e.g. "cloud metadata address". */
  reason: string;
}

export interface EgressPolicy {
  /** Refused whatever else the policy says. */
  deny?: EgressRule[];
  /** Only public addresses: loopback, private, link-local and other special ranges are refused unless `allow` names them. */
  publicOnly?: boolean;
  /** Addresses and CIDR ranges `publicOnly` lets through (never those `deny` refuses). */
  allow?: string[];
  /** Resolvers (`ip` or `ip:port`) that names are resolved through instead of the system's. */
  resolvers?: string[];
}

interface Group {
  port: number | undefined;
  reason: string;
  v4: net.BlockList;
  v6: net.BlockList;
  hasAddresses: boolean;
  names: Set<string>;
  patterns: RegExp[];
}

/** Throws an Error naming the bad rule: a policy that silently drops a rule would let its targets through. */
export function compileRule(target: string): { cidr: Cidr } | { name: string } | { pattern: RegExp } {
  const t = target.trim();
  const cidr = parseCidr(t);
  if (cidr) return { cidr };
  const a = parseAddress(t);
  if (a) return { cidr: cidrOf(a) };
  const name = normalizeName(t);
  if (!name || /[\s/:@]/.test(name)) throw new Error(`"${target}" is not an address, CIDR range or host name`);
  if (name.includes('*'))
    return {
      pattern: new RegExp(
        `^${name
          .split('*')
          .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      ),
    };
  return { name };
}

function addCidr(v4: net.BlockList, v6: net.BlockList, c: Cidr): void {
  if (c.family === 4) v4.addSubnet(formatAddress(4, c.base), c.bits, 'ipv4');
  else v6.addSubnet(formatAddress(6, c.base), c.bits, 'ipv6');
}

export class Egress {
  private readonly groups: Group[] = [];
  private readonly publicOnly: boolean;
  private readonly allow4 = new net.BlockList();
  private readonly allow6 = new net.BlockList();
  private readonly special4 = new net.BlockList();
  private readonly special6 = new net.BlockList();
  /** Whether any rule names a host (else names need no check before they are resolved). */
  readonly hasNameRules: boolean;

  constructor(readonly policy: EgressPolicy) {
    const byKey = new Map<string, Group>();
    for (const r of policy.deny ?? []) {
      const key = `${r.port ?? '*'}\u0000${r.reason}`;
      let g = byKey.get(key);
      if (!g) {
        g = {
          port: r.port,
          reason: r.reason,
          v4: new net.BlockList(),
          v6: new net.BlockList(),
          hasAddresses: false,
          names: new Set(),
          patterns: [],
        };
        byKey.set(key, g);
        this.groups.push(g);
      }
      const c = compileRule(r.target);
      if ('cidr' in c) {
        addCidr(g.v4, g.v6, c.cidr);
        g.hasAddresses = true;
      } else if ('name' in c) g.names.add(c.name);
      else g.patterns.push(c.pattern);
    }
    this.hasNameRules = this.groups.some((g) => g.names.size > 0 || g.patterns.length > 0);
    this.publicOnly = Boolean(policy.publicOnly);
    if (this.publicOnly) {
      for (const { cidr } of nonPublicCidrs()) addCidr(this.special4, this.special6, cidr);
      for (const a of policy.allow ?? []) {
        const c = compileRule(a);
        if (!('cidr' in c)) throw new Error(`"${a}" is not an address or CIDR range`);
        addCidr(this.allow4, this.allow6, c.cidr);
      }
    }
  }

  /**
   * Why `address` (any spelling) may not be connected to on `port`, or undefined when it may. An IPv6
   * address that a translator turns into IPv4 (NAT64, 6to4) is decided on that IPv4 address too.
   */
  addressDenied(address: string | Address, port: number): string | undefined {
    // The usual case: dotted IPv4 text from a resolver or a target, checked as it is.
    if (typeof address === 'string' && net.isIPv4(address)) return this.decide(address, 'ipv4', port);
    const a = typeof address === 'string' ? parseAddress(address) : address;
    if (!a) return 'not an IP address';
    const why = this.decide(a.text, a.family === 4 ? 'ipv4' : 'ipv6', port);
    if (why) return why;
    const inner = translatedIPv4(a);
    return inner ? this.decide(inner.text, 'ipv4', port) : undefined;
  }

  private decide(text: string, type: 'ipv4' | 'ipv6', port: number): string | undefined {
    const groups = this.groups;
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (!g.hasAddresses || (g.port !== undefined && g.port !== port)) continue;
      if ((type === 'ipv4' ? g.v4 : g.v6).check(text, type)) return g.reason;
    }
    if (
      this.publicOnly &&
      (type === 'ipv4' ? this.special4 : this.special6).check(text, type) &&
      !(type === 'ipv4' ? this.allow4 : this.allow6).check(text, type)
    ) {
      return `not a public address (${labelOf(text)})`;
    }
    return undefined;
  }

  /** Why the host name `name` (any case, trailing dots) may not be connected to on `port`, by the name rules alone. */
  nameDenied(name: string, port: number): string | undefined {
    if (!this.hasNameRules) return undefined;
    const n = normalizeName(name);
    for (const g of this.groups) {
      if (g.port !== undefined && g.port !== port) continue;
      if (g.names.has(n) || g.patterns.some((p) => p.test(n))) return g.reason;
    }
    return undefined;
  }
}

function labelOf(text: string): string {
  const a = parseAddress(text);
  if (!a) return 'special';
  return nonPublicCidrs().find((r) => cidrContains(r.cidr, a))?.label ?? 'special';
}

/** Deny rules of the policy that name addresses or ranges (any port), for arithmetic cuts of target ranges. */
export function deniedRanges(policy: EgressPolicy): Cidr[] {
  const out: Cidr[] = [];
  for (const r of policy.deny ?? []) {
    if (r.port !== undefined) continue;
    const c = compileRule(r.target);
    if ('cidr' in c) out.push(c.cidr);
  }
  return out;
}
