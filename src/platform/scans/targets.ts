// Scan targets: checking what the caller sent (URLs, host names, IPs, CIDR ranges), expanding ranges,
// applying exclusions / allow-lists, and cutting the list at the platform's maximum.
import net from 'node:net';
import { badRequest } from '../shared/errors.ts';
import {
  cidrContains,
  formatAddress,
  intersectRanges,
  parseAddress,
  parseCidr,
  rangeSize,
  rangesOf,
  subtractRanges,
  type AddressRanges,
  type Cidr,
} from '../../engine/index.ts';
import { hostOf, parsePattern } from '../shared/target-patterns.ts';

const HOST_RE = /^(?=.{1,253}$)[a-z0-9_*]([a-z0-9_*-]{0,62})(\.[a-z0-9_*]([a-z0-9_*-]{0,62}))*\.?$/i;

/** Checks one target; throws a 400 naming `param` when it is not a URL, host, IP, host:port or CIDR. */
export function checkTarget(value: string, param: string): void {
  const t = value.trim();
  if (!t || /\s/.test(t)) throw badRequest(`target "${value}" is empty or contains spaces`, param);
  if (parseCidr(t)) return;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) {
    try {
      const u = new URL(t);
      if (!u.hostname) throw new Error('no host');
      return;
    } catch {
      throw badRequest(`target "${value}" is not a valid URL`, param);
    }
  }
  const host = hostOf(t);
  if (net.isIP(host) || HOST_RE.test(host)) return;
  throw badRequest(`target "${value}" is not a URL, host name, IP address or CIDR range`, param);
}

/** A target filter that also carries its IP/CIDR patterns for arithmetic range cuts. */
export interface Scope {
  (target: string): boolean;
  deny?: Cidr[];
  /** IP/CIDR allow patterns; `allowOnlyCidr` when every allow pattern is one. */
  allow?: Cidr[];
  allowOnlyCidr?: boolean;
}

/** A filter from exclude_targets and exclusions: allow-list patterns (leading +) and exclusions. */
export function scopeFilter(patterns: { value: string; param: string }[]): Scope {
  const parsed = patterns.map((p) => parsePattern(p.value, p.param));
  const allows = parsed.filter((p) => p.allow);
  const denies = parsed.filter((p) => !p.allow);
  const keep: Scope = (t) => (allows.length === 0 || allows.some((a) => a.test(t))) && !denies.some((d) => d.test(t));
  keep.deny = denies.flatMap((d) => (d.cidr ? [d.cidr] : []));
  keep.allow = allows.flatMap((a) => (a.cidr ? [a.cidr] : []));
  keep.allowOnlyCidr = allows.length > 0 && allows.every((a) => a.cidr);
  return keep;
}

export interface ExpandResult {
  targets: string[];
  /** Targets cut off by the maximum. */
  truncated: number;
  /** How many of the inputs contributed kept targets (the rest were cut by the maximum). */
  inputsUsed: number;
}

/**
 * The addresses of a range left after the scope's IP/CIDR exclusions and allow-list, by arithmetic (the
 * engine's address sets, the same as discovery's).
 */
function scopedRanges(c: Cidr, deny: AddressRanges, allow: AddressRanges | undefined): AddressRanges {
  const left = subtractRanges(rangesOf([c]), deny);
  return allow ? intersectRanges(left, allow) : left;
}

/**
 * Expands CIDR ranges, removes duplicates and out-of-scope targets, and keeps at most `max`. IP and CIDR
 * exclusions are subtracted from ranges arithmetically, so a range excluded whole costs nothing; what is
 * left of all ranges together may hold at most `maxRangeAddresses` addresses (else a 400 naming the
 * limit). Addresses are listed only up to the maximum; the rest of a range is counted, not walked.
 */
export function expandTargets(
  inputs: string[],
  keep: Scope,
  max: number,
  maxRangeAddresses = DEFAULT_MAX_RANGE_ADDRESSES,
): ExpandResult {
  const seen = new Set<string>();
  const out: string[] = [];
  let truncated = 0;
  let inputsUsed = 0;
  let rangeTotal = 0n;
  const deny = rangesOf(keep.deny ?? []);
  const allow = keep.allowOnlyCidr ? rangesOf(keep.allow ?? []) : undefined;
  const add = (t: string) => {
    if (seen.has(t) || !keep(t)) return;
    seen.add(t);
    if (out.length < max) out.push(t);
    else truncated++;
  };
  inputs.forEach((raw, i) => {
    const t = raw.trim();
    const cidr = parseCidr(t);
    const before = out.length;
    if (!cidr) {
      add(t);
    } else {
      const left = scopedRanges(cidr, deny, allow);
      rangeTotal += rangeSize(left);
      if (rangeTotal > BigInt(maxRangeAddresses)) {
        throw badRequest(
          `target ranges hold ${rangeTotal > 10n ** 12n ? 'more than 10^12' : rangeTotal.toString()} addresses after exclusions, ` +
            `more than the limit of ${maxRangeAddresses} (VIGIL_MAX_RANGE_ADDRESSES): split the range or exclude parts of it`,
          `targets[${i}]`,
        );
      }
      for (const [lo, hi] of cidr.family === 4 ? left.v4 : left.v6) {
        let n = lo;
        for (; n <= hi && out.length < max; n++) add(formatAddress(cidr.family, n));
        // Past the maximum, the rest of the interval is counted in bulk.
        if (n <= hi) truncated += Number(hi - n + 1n);
      }
    }
    if (out.length > before) inputsUsed = i + 1;
  });
  return { targets: out, truncated, inputsUsed };
}

/** Range addresses a scan may name in all (after exclusions) before it is refused: a /12 of IPv4. */
export const DEFAULT_MAX_RANGE_ADDRESSES = 1 << 20;

const PRIVATE_CIDRS = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '100.64.0.0/10',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
].map((c) => parseCidr(c)!);

/** A private, loopback or link-local address, localhost, or an internal-only name (.local, .internal, .lan). */
export function isInternalTarget(target: string): boolean {
  const host = hostOf(target);
  const a = parseAddress(host);
  if (a) return PRIVATE_CIDRS.some((c) => cidrContains(c, a));
  return host === 'localhost' || /\.(local|internal|lan|localhost|home\.arpa)\.?$/.test(host) || !host.includes('.');
}
