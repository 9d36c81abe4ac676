// Addresses as ranges of numbers: the roots of a discovery run and its address exclusions are merged,
// intersected and subtracted by arithmetic, counted without being listed, and walked one address at a
// time. IPv4 and IPv6 alike as bigint (IPv4 walked as numbers).
import net from 'node:net';

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

/** The ranges of addresses and CIDR ranges (names are ignored), merged. */
export const addressRanges = (values: string[]): AddressRanges => {
  const v4: Span[] = [];
  const v6: Span[] = [];
  for (const value of values) {
    const s = spanOf(value);
    if (s) (s.v6 ? v6 : v4).push(s.span);
  }
  return { v4: merge(v4), v6: merge(v6) };
};

/** a and b. */
export const intersectRanges = (a: AddressRanges, b: AddressRanges): AddressRanges => ({ v4: intersect(a.v4, b.v4), v6: intersect(a.v6, b.v6) });

/** a minus b. */
export const subtractRanges = (a: AddressRanges, b: AddressRanges): AddressRanges => ({ v4: subtract(a.v4, b.v4), v6: subtract(a.v6, b.v6) });

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
