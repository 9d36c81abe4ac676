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

/** Every address of a root (a domain: nothing). */
export function* addressesOf(root: Root): Generator<string> {
  if (root.kind === 'ip') yield root.value;
  if (root.kind !== 'cidr') return;
  if (net.isIPv4(root.base)) {
    const size = 2 ** (32 - root.bits);
    const start = Math.floor(v4ToInt(root.base) / size) * size;
    for (let i = 0; i < size; i++) yield intToV4(start + i);
  } else {
    const size = 1n << BigInt(128 - root.bits);
    const start = (v6ToBig(root.base) / size) * size;
    for (let i = 0n; i < size; i++) yield bigToV6(start + i);
  }
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bitsText] = cidr.split('/') as [string, string];
  const bits = Number(bitsText);
  if (net.isIPv4(ip) && net.isIPv4(base)) {
    const size = 2 ** (32 - bits);
    return Math.floor(v4ToInt(ip) / size) === Math.floor(v4ToInt(base) / size);
  }
  if (net.isIPv6(ip) && net.isIPv6(base)) return v6ToBig(ip) >> BigInt(128 - bits) === v6ToBig(base) >> BigInt(128 - bits);
  return false;
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

/** A predicate saying whether a host name or address is in scope. */
export function scopeOf(patterns: string[]): (hostOrIp: string) => boolean {
  const include = patterns.filter((p) => p.startsWith('+')).map((p) => p.slice(1).trim().toLowerCase());
  const exclude = patterns.filter((p) => !p.startsWith('+')).map((p) => p.trim().toLowerCase());
  const match = (p: string, v: string) => {
    if (p.includes('/')) return net.isIP(v) ? inCidr(v, p) : false;
    if (p.includes('*')) {
      const re = new RegExp('^' + p.split('*').map((x) => x.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
      return re.test(v);
    }
    return p === v;
  };
  return (value) => {
    const v = value.toLowerCase();
    if (include.length && !include.some((p) => match(p, v))) return false;
    return !exclude.some((p) => match(p, v));
  };
}
