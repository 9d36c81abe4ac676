// Roots of a discovery run (domains, IP addresses, CIDR ranges) and its scope patterns (exclusions, and
// inclusions written with a leading "+"), checked and expanded here.
import net from 'node:net';

export type Root = { kind: 'domain'; value: string } | { kind: 'ip'; value: string } | { kind: 'cidr'; value: string; base: string; bits: number };

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
    const [base, bitsText] = s.split('/') as [string, string];
    const v = net.isIP(base);
    const bits = Number(bitsText);
    if (!v || !/^\d{1,3}$/.test(bitsText) || bits > (v === 4 ? 32 : 128)) throw new Error(`"${input}" is not a valid CIDR range`);
    const min = v === 4 ? MIN_PREFIX_V4 : MIN_PREFIX_V6;
    if (bits < min) throw new Error(`"${input}" is too large: the largest range is /${min} for IPv${v}`);
    return { kind: 'cidr', value: s, base, bits };
  }
  if (net.isIP(s)) return { kind: 'ip', value: s };
  if (/^[\d.]+$/.test(s)) throw new Error(`"${input}" is not a valid IP address`);
  const host = s.startsWith('*.') ? s.slice(2) : s;
  if (!isDomain(host)) throw new Error(`"${input}" is not a domain name, IP address or CIDR range`);
  return { kind: 'domain', value: host };
}

const v4ToInt = (ip: string) => ip.split('.').reduce((n, o) => n * 256 + Number(o), 0);
const intToV4 = (n: number) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

function v6ToBig(ip: string): bigint {
  const [head, tail] = ip.includes('::') ? ip.split('::') as [string, string] : [ip, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((n, g) => (n << 16n) + BigInt(parseInt(g || '0', 16)), 0n);
}
function bigToV6(n: bigint): string {
  const g: string[] = [];
  for (let i = 7; i >= 0; i--) g.push(((n >> BigInt(i * 16)) & 0xffffn).toString(16));
  return g.join(':').replace(/(^|:)0(:0)+(:|$)/, '::').replace(/:{3,}/, '::');
}

/** Addresses of one family as sorted, disjoint, inclusive ranges of numbers (IPv4 and IPv6 alike as bigint). */
export interface AddressRanges {
  v4: Span[];
  v6: Span[];
}
type Span = [lo: bigint, hi: bigint];

/** The range of a root, an address or a CIDR pattern (undefined for names). */
function spanOf(value: string): { v6: boolean; span: Span } | undefined {
  const [base, bitsText] = value.split('/') as [string, string | undefined];
  const v = net.isIP(base);
  if (!v) return undefined;
  const width = v === 4 ? 32 : 128;
  const bits = bitsText === undefined ? width : Number(bitsText);
  const n = v === 4 ? BigInt(v4ToInt(base)) : v6ToBig(base);
  const size = 1n << BigInt(width - bits);
  const lo = (n / size) * size;
  return { v6: v === 6, span: [lo, lo + size - 1n] };
}

/** Sorted, overlapping or touching spans merged into disjoint ones. */
function merge(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Span[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi;
    } else out.push([lo, hi]);
  }
  return out;
}

/** a minus b, both merged. */
function subtract(a: Span[], b: Span[]): Span[] {
  const out: Span[] = [];
  let j = 0;
  for (let [lo, hi] of a) {
    while (j < b.length && b[j]![1] < lo) j++;
    for (let k = j; k < b.length && b[k]![0] <= hi; k++) {
      const [blo, bhi] = b[k]!;
      if (blo > lo) out.push([lo, blo - 1n]);
      lo = bhi + 1n;
      if (lo > hi) break;
    }
    if (lo <= hi) out.push([lo, hi]);
  }
  return out;
}

/** a and b, both merged. */
function intersect(a: Span[], b: Span[]): Span[] {
  const out: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const lo = a[i]![0] > b[j]![0] ? a[i]![0] : b[j]![0];
    const hi = a[i]![1] < b[j]![1] ? a[i]![1] : b[j]![1];
    if (lo <= hi) out.push([lo, hi]);
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return out;
}

const byFamily = (values: string[]) => {
  const v4: Span[] = [];
  const v6: Span[] = [];
  for (const value of values) {
    const s = spanOf(value);
    if (s) (s.v6 ? v6 : v4).push(s.span);
  }
  return { v4: merge(v4), v6: merge(v6) };
};

/** How many addresses the ranges hold. */
export function rangeSize(r: AddressRanges): bigint {
  let n = 0n;
  for (const [lo, hi] of [...r.v4, ...r.v6]) n += hi - lo + 1n;
  return n;
}

/** Whether an address is in the ranges. */
export function rangesHave(r: AddressRanges, ip: string): boolean {
  const s = spanOf(ip);
  return !!s && inSpans(s.v6 ? r.v6 : r.v4, s.span[0]);
}

/** Binary search over sorted, disjoint spans. */
function inSpans(spans: Span[], n: bigint): boolean {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [a, b] = spans[mid]!;
    if (n < a) hi = mid - 1;
    else if (n > b) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Every address of the ranges, one at a time (nothing is listed in advance). */
export function* addressesIn(r: AddressRanges): Generator<string> {
  for (const [lo, hi] of r.v4) for (let n = Number(lo); n <= Number(hi); n++) yield intToV4(n);
  for (const [lo, hi] of r.v6) for (let n = lo; n <= hi; n++) yield bigToV6(n);
}

/** Every address of a root (a domain: nothing), lazily. */
export function addressesOf(root: Root): Generator<string> {
  return addressesIn(byFamily(root.kind === 'domain' ? [] : [root.value]));
}

/** Checks one scope pattern (exact name, *.wildcard, prefix-*, IP, CIDR; "+" for an inclusion). */
export function checkPattern(p: string): void {
  const s = p.trim().replace(/^\+/, '');
  if (!s) throw new Error('is empty');
  if (s.includes('/')) {
    const [base, bits] = s.split('/') as [string, string];
    const v = net.isIP(base);
    if (!v || !/^\d{1,3}$/.test(bits) || Number(bits) > (v === 4 ? 32 : 128)) throw new Error(`"${p}" is not a valid CIDR range`);
    return;
  }
  if (net.isIP(s)) return;
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
      if (p.includes('/') || net.isIP(p)) addresses.push(p);
      else if (p.includes('*')) {
        this.globs.push(p);
        if (/^[0-9a-f.:*]+$/.test(p)) this.addressGlobs.push(p);
      } else this.names.add(p);
    }
    this.ranges = byFamily(addresses);
    this.size = patterns.length;
  }
  /** Whether a name or address matches one of the patterns. */
  matches(v: string): boolean {
    if (this.names.has(v)) return true;
    if (net.isIP(v) && rangesHave(this.ranges, v)) return true;
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
      const all = byFamily(roots.filter((r) => r.kind !== 'domain').map((r) => r.value));
      const kept = narrowed ? { v4: intersect(all.v4, include.ranges.v4), v6: intersect(all.v6, include.ranges.v6) } : all;
      return { v4: subtract(kept.v4, exclude.ranges.v4), v6: subtract(kept.v6, exclude.ranges.v6) };
    },
    allowsInRanges(ip) {
      if (include.size && !narrowed && !include.matches(ip)) return false;
      return !exclude.addressGlobs.some((g) => globMatch(g, ip));
    },
  };
}
