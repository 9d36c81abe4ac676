// Roots of a discovery run (domains, IP addresses, CIDR ranges) and its scope patterns (exclusions, and
// inclusions written with a leading "+"): checked here, and the roots' addresses in scope as ranges. The
// address arithmetic is the engine's (the same as scan targets'): an address in any spelling, IPv4-mapped
// IPv6 included, is one address.
import {
  addressesIn,
  intersectRanges,
  parseAddress,
  parseAddressOrCidr,
  parseCidr,
  rangesHave,
  rangesOf,
  subtractRanges,
  type AddressRanges,
  type Cidr,
} from '../engine/index.ts';

export type Root =
  | { kind: 'domain'; value: string }
  | { kind: 'ip'; value: string }
  | { kind: 'cidr'; value: string; base: string; bits: number };

/** Largest range one root may name: a /16 of IPv4 (65,536 addresses) or a /112 of IPv6. */
export const MIN_PREFIX_V4 = 16;
export const MIN_PREFIX_V6 = 112;

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/;

export function isDomain(s: string): boolean {
  if (s.length > 253 || !s.includes('.')) return false;
  return s.split('.').every((l) => LABEL.test(l)) && !/^\d+$/.test(s.split('.').pop()!);
}

/** Parses one root; throws an Error whose message says what is wrong. */
export function parseRoot(input: string): Root {
  const s = input.trim().toLowerCase().replace(/\.$/, '');
  if (!s) throw new Error('is empty');
  if (s.includes('/')) {
    const c = parseCidr(s);
    if (!c) throw new Error(`"${input}" is not a valid CIDR range`);
    const min = c.family === 4 ? MIN_PREFIX_V4 : MIN_PREFIX_V6;
    if (c.bits < min) throw new Error(`"${input}" is too large: the largest range is /${min} for IPv${c.family}`);
    return { kind: 'cidr', value: s, base: s.split('/')[0]!, bits: Number(s.split('/')[1]) };
  }
  const address = parseAddress(s);
  if (address) return { kind: 'ip', value: address.text };
  if (/^[\d.]+$/.test(s)) throw new Error(`"${input}" is not a valid IP address`);
  const host = s.startsWith('*.') ? s.slice(2) : s;
  if (!isDomain(host)) throw new Error(`"${input}" is not a domain name, IP address or CIDR range`);
  return { kind: 'domain', value: host };
}

/** Every address of a root (a domain: nothing), lazily. */
export function addressesOf(root: Root): Generator<string> {
  return addressesIn(rangesOfValues(root.kind === 'domain' ? [] : [root.value]));
}

/** The addresses of addresses and CIDR ranges (anything else is left out), merged. */
function rangesOfValues(values: string[]): AddressRanges {
  return rangesOf(values.map(parseAddressOrCidr).filter((c): c is Cidr => c !== undefined));
}

/** Checks one scope pattern (exact name, *.wildcard, prefix-*, IP, CIDR; "+" for an inclusion). */
export function checkPattern(p: string): void {
  const s = p.trim().replace(/^\+/, '');
  if (!s) throw new Error('is empty');
  if (s.includes('/')) {
    if (!parseCidr(s)) throw new Error(`"${p}" is not a valid CIDR range`);
    return;
  }
  if (parseAddress(s)) return;
  if (!/^[a-z0-9*_.-]+$/i.test(s)) throw new Error(`"${p}" is not a domain pattern, IP address or CIDR range`);
}

/** A glob ("*" any run of characters) matched without backtracking blow-ups: O(pattern x text) at worst. */
function globMatch(p: string, v: string): boolean {
  let i = 0;
  let j = 0;
  let star = -1;
  let mark = 0;
  while (j < v.length) {
    if (i < p.length && p[i] !== '*' && p[i] === v[j]) {
      i++;
      j++;
    } else if (i < p.length && p[i] === '*') {
      star = i++;
      mark = j;
    } else if (star >= 0) {
      i = star + 1;
      j = ++mark;
    } else return false;
  }
  while (i < p.length && p[i] === '*') i++;
  return i === p.length;
}

/** Scope patterns of one kind (exclusions or inclusions), compiled once. */
class PatternSet {
  readonly names = new Set<string>();
  readonly globs: string[] = [];
  /** Globs that could match an address (only digits, hex letters, dots, colons besides "*"). */
  readonly addressGlobs: string[] = [];
  readonly ranges: AddressRanges;
  readonly size: number;
  constructor(patterns: string[]) {
    const addresses: string[] = [];
    for (const p of patterns) {
      if (parseAddressOrCidr(p)) addresses.push(p);
      else if (p.includes('*')) {
        this.globs.push(p);
        if (/^[0-9a-f.:*]+$/.test(p)) this.addressGlobs.push(p);
      } else this.names.add(p);
    }
    this.ranges = rangesOfValues(addresses);
    this.size = patterns.length;
  }
  /** Whether a name or address matches one of the patterns. */
  matches(v: string): boolean {
    if (this.names.has(v)) return true;
    const address = parseAddress(v);
    if (address && rangesHave(this.ranges, address)) return true;
    return this.globs.some((g) => globMatch(g, v));
  }
}

/** A run's scope: which names and addresses it may touch, and the addresses of its IP roots. */
export interface Scope {
  /** Whether a host name or address is in scope. */
  allows(hostOrIp: string): boolean;
  /** The roots' addresses in scope: merged, address exclusions subtracted, address inclusions applied. */
  ranges(roots: Root[]): AddressRanges;
  /** Whether an address drawn from ranges() is in scope (the checks ranges() could not do by arithmetic). */
  allowsInRanges(ip: string): boolean;
}

export function scopeOf(patterns: string[]): Scope {
  const include = new PatternSet(patterns.filter((p) => p.startsWith('+')).map((p) => p.slice(1).trim().toLowerCase()));
  const exclude = new PatternSet(patterns.filter((p) => !p.startsWith('+')).map((p) => p.trim().toLowerCase()));
  // With inclusions, an address must match one: arithmetic can narrow the ranges to the address
  // inclusions unless a glob inclusion might match addresses too.
  const narrowed = include.size > 0 && include.addressGlobs.length === 0;
  return {
    allows(value) {
      const v = value.toLowerCase();
      if (include.size && !include.matches(v)) return false;
      return !exclude.matches(v);
    },
    ranges(roots) {
      const all = rangesOfValues(roots.filter((r) => r.kind !== 'domain').map((r) => r.value));
      return subtractRanges(narrowed ? intersectRanges(all, include.ranges) : all, exclude.ranges);
    },
    allowsInRanges(ip) {
      if (include.size && !narrowed && !include.matches(ip)) return false;
      return !exclude.addressGlobs.some((g) => globMatch(g, ip));
    },
  };
}
