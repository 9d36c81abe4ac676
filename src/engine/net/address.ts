// IP addresses in every spelling a resolver or URL parser accepts, reduced to one normal form, and CIDR
// ranges over them. A deny list compared on spellings is no deny list: `2130706433`, `0x7f.1`, `127.1`,
// `[::ffff:127.0.0.1]` and `::ffff:7f00:1` are all 127.0.0.1 to the C library's resolver, so every
// decision about an address is made on its normal form. Pure functions, no I/O.
import net from 'node:net';

export type Family = 4 | 6;

/** An address in normal form: IPv4 for IPv4-mapped and -compatible IPv6; `text` is canonical. */
export interface Address {
  family: Family;
  value: bigint;
  text: string;
}

/** A CIDR range; `base` has the host bits cleared. */
export interface Cidr {
  family: Family;
  base: bigint;
  bits: number;
}

const V4_MAX = 0xffffffffn;

/**
 * An IPv4 address as the C library's inet_aton reads it (what getaddrinfo does with a "name" made of
 * numbers): 1 to 4 parts, each decimal, octal (leading 0) or hex (0x); the last part fills the bytes left
 * (`127.1` is 127.0.0.1, `2130706433` is 127.0.0.1). One trailing dot is allowed (a fully qualified
 * spelling WHATWG URLs accept). Undefined when the text is not such an address.
 */
export function parseIPv4(text: string): bigint | undefined {
  const t = text.endsWith('.') ? text.slice(0, -1) : text;
  if (t === '' || t.length > 64) return undefined;
  const parts = t.split('.');
  if (parts.length > 4) return undefined;
  const nums: bigint[] = [];
  for (const p of parts) {
    const n = parsePart(p);
    if (n === undefined) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  for (const n of nums) if (n > 255n) return undefined;
  const lastBits = BigInt(8 * (4 - nums.length));
  if (last >= 1n << lastBits) return undefined;
  let value = 0n;
  for (const n of nums) value = (value << 8n) | n;
  return (value << lastBits) | last;
}

function parsePart(p: string): bigint | undefined {
  if (/^0x[0-9a-f]*$/i.test(p)) return p.length === 2 ? 0n : BigInt(p);
  if (/^0[0-7]*$/.test(p)) return p.length === 1 ? 0n : BigInt(`0o${p.slice(1)}`);
  if (/^[1-9][0-9]*$/.test(p)) return BigInt(p);
  return undefined;
}

/**
 * An IPv6 address (any compression, an embedded IPv4 tail, a zone id `%eth0` which is dropped), as a
 * 128-bit number. Undefined when the text is not one.
 */
export function parseIPv6(text: string): bigint | undefined {
  let t = text;
  const zone = t.indexOf('%');
  if (zone >= 0) t = t.slice(0, zone);
  if (!t.includes(':') || t.length > 45 || !/^[0-9a-f:.]+$/i.test(t)) return undefined;
  const halves = t.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (s: string): number[] | undefined => {
    if (s === '') return [];
    const out: number[] = [];
    const parts = s.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (p.includes('.')) {
        // Only the last part may be a dotted IPv4 address, in its strict four-part decimal form.
        if (i !== parts.length - 1 || !/^\d{1,3}(\.\d{1,3}){3}$/.test(p)) return undefined;
        const bytes = p.split('.').map(Number);
        if (bytes.some((b) => b > 255)) return undefined;
        out.push((bytes[0]! << 8) | bytes[1]!, (bytes[2]! << 8) | bytes[3]!);
      } else if (/^[0-9a-f]{1,4}$/i.test(p)) out.push(parseInt(p, 16));
      else return undefined;
    }
    return out;
  };
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  if (!head || !tail) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const fill = 8 - head.length - tail.length;
    if (fill < 1) return undefined;
    groups = [...head, ...new Array<number>(fill).fill(0), ...tail];
  } else groups = head;
  if (groups.length !== 8) return undefined;
  let value = 0n;
  for (const g of groups) value = (value << 16n) | BigInt(g);
  return value;
}

/** The IPv4 address an IPv6 one stands for: IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d). */
function ipv4Inside(v6: bigint): bigint | undefined {
  if (v6 >> 32n === 0xffffn) return v6 & V4_MAX;
  // ::a.b.c.d, except :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (v6 >> 32n === 0n && v6 > 1n) return v6;
  return undefined;
}

/**
 * Any spelling of an IP address (brackets, IPv4 in decimal, octal, hex or short form, IPv6 with a zone or
 * an IPv4 tail, IPv4-mapped IPv6) in normal form; undefined for a host name.
 */
export function parseAddress(text: string): Address | undefined {
  let t = text.trim();
  if (t.startsWith('[') && t.endsWith(']')) t = t.slice(1, -1);
  const v4 = parseIPv4(t);
  if (v4 !== undefined) return { family: 4, value: v4, text: formatIPv4(v4) };
  const v6 = parseIPv6(t);
  if (v6 === undefined) return undefined;
  const inner = ipv4Inside(v6);
  if (inner !== undefined) return { family: 4, value: inner, text: formatIPv4(inner) };
  return { family: 6, value: v6, text: formatIPv6(v6) };
}

/** A host as a decision sees it: an address in normal form, or a name in lower case without trailing dots. */
export type Host = { kind: 'address'; address: Address } | { kind: 'name'; name: string };

export function parseHost(text: string): Host {
  const address = parseAddress(text);
  if (address) return { kind: 'address', address };
  return { kind: 'name', name: normalizeName(text) };
}

/** `Metadata.Google.Internal.` -> `metadata.google.internal` (a trailing dot names the same host). */
export function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, '');
}

export function formatIPv4(v: bigint): string {
  return `${Number((v >> 24n) & 255n)}.${Number((v >> 16n) & 255n)}.${Number((v >> 8n) & 255n)}.${Number(v & 255n)}`;
}

/** RFC 5952 text: lower case, the longest run of two or more zero groups as `::`. */
export function formatIPv6(v: bigint): string {
  const groups: number[] = [];
  for (let s = 112n; s >= 0n; s -= 16n) groups.push(Number((v >> s) & 0xffffn));
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

export function formatAddress(family: Family, value: bigint): string {
  return family === 4 ? formatIPv4(value) : formatIPv6(value);
}

export const width = (f: Family): number => (f === 4 ? 32 : 128);

/**
 * `base/bits` with the base written out (dotted-quad IPv4 or IPv6 text: `10/8` is no range); an
 * IPv4-mapped base with 96 bits or more is the IPv4 range it maps (`::ffff:169.254.0.0/112` is
 * 169.254.0.0/16). Undefined when not a CIDR.
 */
export function parseCidr(text: string): Cidr | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text.trim());
  if (!m) return undefined;
  let bits = Number(m[2]);
  const raw = m[1]!.replace(/^\[|\]$/g, '');
  let family: Family;
  let value: bigint;
  if (net.isIPv4(raw)) {
    family = 4;
    value = parseIPv4(raw)!;
  } else if (net.isIPv6(raw)) {
    value = parseIPv6(raw)!;
    family = 6;
    if (value >> 32n === 0xffffn && bits >= 96) {
      family = 4;
      value &= V4_MAX;
      bits -= 96;
    }
  } else return undefined;
  if (bits > width(family)) return undefined;
  return { family, base: value & maskOf(family, bits), bits };
}

/** The /32 or /128 range of one address. */
export function cidrOf(a: Address): Cidr {
  return { family: a.family, base: a.value, bits: width(a.family) };
}

function maskOf(f: Family, bits: number): bigint {
  const w = BigInt(width(f));
  return ((1n << w) - 1n) ^ ((1n << (w - BigInt(bits))) - 1n);
}

export function cidrContains(c: Cidr, a: Address): boolean {
  return a.family === c.family && (a.value & maskOf(c.family, c.bits)) === c.base;
}

/** First and last address of a range, inclusive. */
export function cidrRange(c: Cidr): [bigint, bigint] {
  return [c.base, c.base + (1n << BigInt(width(c.family) - c.bits)) - 1n];
}

export function formatCidr(c: Cidr): string {
  return `${formatAddress(c.family, c.base)}/${c.bits}`;
}

/**
 * IPv4 addresses an IPv6 address carries on to through a translator: NAT64 (64:ff9b::/96) and 6to4
 * (2002:a.b.c.d::/48). A decision about the IPv6 address applies to these too.
 */
export function translatedIPv4(a: Address): Address | undefined {
  if (a.family !== 6) return undefined;
  let v: bigint | undefined;
  if (a.value >> 32n === 0x64ff9bn << 64n) v = a.value & V4_MAX;
  else if (a.value >> 112n === 0x2002n) v = (a.value >> 80n) & V4_MAX;
  return v === undefined ? undefined : { family: 4, value: v, text: formatIPv4(v) };
}

/** An address or a CIDR range as one range (`10.0.0.1` is 10.0.0.1/32); undefined for anything else. */
export function parseAddressOrCidr(text: string): Cidr | undefined {
  if (text.includes('/')) return parseCidr(text);
  const a = parseAddress(text);
  return a ? cidrOf(a) : undefined;
}

// Sets of addresses as arithmetic: scan targets and discovery roots are merged, intersected with
// inclusions and have exclusions subtracted without listing a single address, then are counted or walked.

/** An inclusive span of address numbers. */
export type AddressSpan = [lo: bigint, hi: bigint];

/** A set of addresses: per family, sorted, disjoint, inclusive spans (IPv4-mapped ranges count as IPv4). */
export interface AddressRanges {
  v4: AddressSpan[];
  v6: AddressSpan[];
}

/** The addresses of some CIDR ranges, merged into one set. */
export function rangesOf(cidrs: Iterable<Cidr>): AddressRanges {
  const v4: AddressSpan[] = [];
  const v6: AddressSpan[] = [];
  for (const c of cidrs) (c.family === 4 ? v4 : v6).push(cidrRange(c));
  return { v4: mergeSpans(v4), v6: mergeSpans(v6) };
}

/** Spans in any order, overlapping or touching, as sorted disjoint ones. */
function mergeSpans(spans: AddressSpan[]): AddressSpan[] {
  const sorted = [...spans].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: AddressSpan[] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1n) {
      if (hi > last[1]) last[1] = hi;
    } else out.push([lo, hi]);
  }
  return out;
}

/** a minus b, both sorted and disjoint: one pass over each. */
function subtractSpans(a: AddressSpan[], b: AddressSpan[]): AddressSpan[] {
  const out: AddressSpan[] = [];
  let j = 0;
  for (const span of a) {
    let lo = span[0];
    const hi = span[1];
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

/** a and b, both sorted and disjoint. */
function intersectSpans(a: AddressSpan[], b: AddressSpan[]): AddressSpan[] {
  const out: AddressSpan[] = [];
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

export const intersectRanges = (a: AddressRanges, b: AddressRanges): AddressRanges => ({
  v4: intersectSpans(a.v4, b.v4),
  v6: intersectSpans(a.v6, b.v6),
});

export const subtractRanges = (a: AddressRanges, b: AddressRanges): AddressRanges => ({
  v4: subtractSpans(a.v4, b.v4),
  v6: subtractSpans(a.v6, b.v6),
});

/** How many addresses the set holds. */
export function rangeSize(r: AddressRanges): bigint {
  let n = 0n;
  for (const [lo, hi] of r.v4) n += hi - lo + 1n;
  for (const [lo, hi] of r.v6) n += hi - lo + 1n;
  return n;
}

/** Whether an address (normal form, see parseAddress) is in the set: a binary search. */
export function rangesHave(r: AddressRanges, a: Address): boolean {
  const spans = a.family === 4 ? r.v4 : r.v6;
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [x, y] = spans[mid]!;
    if (a.value < x) hi = mid - 1;
    else if (a.value > y) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Every address of the set in normal-form text, IPv4 first, one at a time (nothing listed in advance). */
export function* addressesIn(r: AddressRanges): Generator<string> {
  // IPv4 is walked as plain numbers: this is the hot loop of a range scan.
  for (const [lo, hi] of r.v4) {
    const last = Number(hi);
    for (let n = Number(lo); n <= last; n++)
      yield `${(n >>> 24) & 255}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
  }
  for (const [lo, hi] of r.v6) for (let n = lo; n <= hi; n++) yield formatIPv6(n);
}
