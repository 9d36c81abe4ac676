// How much work a discovery configuration asks for, counted by arithmetic before anything runs (a /16
// root is 65,536 addresses without listing one): address-port pairs to probe and names to brute-force.
// Callers compare it with their limits (the platform's VIGIL_MAX_ENUMERATION_PROBES / _NAMES).
import { checkConfig, type DiscoveryConfig } from './run.ts';
import { scopeOf } from './scope.ts';
import { rangeSize } from '../engine/index.ts';
import { candidateWords, DEFAULT_WORDS } from './bruteforce.ts';
import type { Step } from './types.ts';

export interface DiscoveryWork {
  /** Addresses of the IP roots in scope (after exclusions), plus one per domain root (each has one at least). */
  addresses: bigint;
  ports: number;
  /** addresses x ports when a step connects to services, else 0. */
  pairs: bigint;
  domains: number;
  /** Brute-force words (0 without dns_bruteforce). */
  words: number;
  /** domains x words: names dns_bruteforce asks. */
  names: bigint;
}

const CONNECTING: Step[] = ['port_scan', 'http_probe', 'tls_scan', 'http_screenshot'];

/** Throws what checkConfig throws (an Error with `field`) for an invalid configuration. */
export function workOf(c: DiscoveryConfig): DiscoveryWork {
  const { roots, ports, steps } = checkConfig(c);
  const domains = new Set(roots.filter((r) => r.kind === 'domain').map((r) => r.value)).size;
  const addresses = rangeSize(scopeOf(c.exclusions ?? []).ranges(roots)) + BigInt(domains);
  const pairs = steps.some((s) => CONNECTING.includes(s)) ? addresses * BigInt(ports.length) : 0n;
  const words = steps.includes('dns_bruteforce')
    ? candidateWords(c.wordlist?.length ? c.wordlist : DEFAULT_WORDS).length
    : 0;
  return { addresses, ports: ports.length, pairs, domains, words, names: BigInt(domains) * BigInt(words) };
}
