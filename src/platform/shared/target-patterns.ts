// A target's host, and scope patterns (exact target, domain, wildcard, IP or CIDR) that test targets: used by
// scans (exclusions and allow-lists, scans/targets.ts) and by the platform's deny list (shared/deny.ts).
import net from 'node:net';
import { badRequest } from './errors.ts';
import { cidrContains, cidrOf, parseAddress, parseCidr, type Address, type Cidr } from '../../engine/index.ts';

/** The host part of a target: URL host, "host:port" host, or the whole value. Lower case, no brackets. */
export function hostOf(target: string): string {
  const t = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    try {
      return new URL(t).hostname.replace(/^\[|\]$/g, '').toLowerCase();
    } catch {
      return t.toLowerCase();
    }
  }
  const bracket = /^\[([^\]]+)\](?::\d+)?$/.exec(t);
  if (bracket) return bracket[1]!.toLowerCase();
  if (net.isIP(t)) return t.toLowerCase();
  const hp = /^([^:/]+):\d+$/.exec(t);
  if (hp) return hp[1]!.toLowerCase();
  return t.split('/')[0]!.toLowerCase();
}

/** The address a target's host names in normal form (any spelling: `2130706433`, `[::ffff:7f00:1]`), or undefined for a name. */
function addressOf(target: string): Address | undefined {
  return parseAddress(hostOf(target));
}

function inCidr(c: Cidr, target: string): boolean {
  const a = addressOf(target);
  return a !== undefined && cidrContains(c, a);
}

/** One exclusion or inclusion pattern: exact target, domain, wildcard, IP or CIDR. */
export interface ScopePattern {
  allow: boolean;
  /** Set for IP and CIDR patterns, so ranges can be cut arithmetically instead of address by address. */
  cidr?: Cidr;
  test(target: string): boolean;
}

export function parsePattern(raw: string, param: string): ScopePattern {
  let p = raw.trim();
  const allow = p.startsWith('+');
  if (allow) p = p.slice(1).trim();
  if (!p) throw badRequest(`empty scope pattern "${raw}"`, param);
  const address = parseCidr(p) ? undefined : parseAddress(p);
  const cidr = parseCidr(p) ?? (address ? cidrOf(address) : undefined);
  if (cidr) return { allow, cidr, test: (t) => inCidr(cidr, t) };
  const whole = p.toLowerCase();
  if (p.includes('*')) {
    const re = new RegExp('^' + whole.split('*').map(escapeRe).join('.*') + '$', 'i');
    return { allow, test: (t) => re.test(hostOf(t)) || re.test(t.trim()) };
  }
  // A URL or host:port pattern names that one target; a bare name covers every target on that host.
  const trim = (t: string) => t.trim().toLowerCase().replace(/\/+$/, '');
  if (p.includes('://') || /:\d+$/.test(p)) return { allow, test: (t) => trim(t) === trim(whole) };
  const host = hostOf(p);
  return { allow, test: (t) => hostOf(t) === host };
}

const escapeRe = (s: string) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
