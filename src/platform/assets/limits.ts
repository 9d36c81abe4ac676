// The bound on an enumeration's work: address-port pairs (VIGIL_MAX_ENUMERATION_PROBES) and brute-forced
// names (VIGIL_MAX_ENUMERATION_NAMES), counted by arithmetic (discovery's workOf) at create, update,
// rescan and when a stored enumeration runs, so a refusal costs microseconds whatever the ranges.
import type { DiscoveryWork } from '../../discovery/index.ts';
import type { PlatformConfig } from '../shared/config.ts';

export type WorkLimits = Pick<PlatformConfig, 'maxEnumerationProbes' | 'maxEnumerationNames'>;

const fmt = (n: bigint | number) => n.toLocaleString('en-US');

/**
 * Why the work is over a limit, with the field to change (the roots when their addresses alone are too
 * many, else the ports or the word list), or undefined.
 */
export function overLimit(
  work: DiscoveryWork,
  limits: WorkLimits,
  fields: { ports: string; wordlist?: string },
): { message: string; param: string } | undefined {
  if (work.pairs > BigInt(limits.maxEnumerationProbes)) {
    return {
      message:
        `enumeration would probe ${fmt(work.pairs)} address-port pairs; the limit is ${fmt(limits.maxEnumerationProbes)} (VIGIL_MAX_ENUMERATION_PROBES): ` +
        `${fmt(work.addresses)} addresses of root_domains (after exclusions) x ${fmt(work.ports)} ports of ${fields.ports}; use smaller ranges, fewer ports or exclusions`,
      param: work.addresses > BigInt(limits.maxEnumerationProbes) ? 'root_domains' : fields.ports,
    };
  }
  if (work.names > BigInt(limits.maxEnumerationNames)) {
    return {
      message:
        `dns_bruteforce would try ${fmt(work.names)} names; the limit is ${fmt(limits.maxEnumerationNames)} (VIGIL_MAX_ENUMERATION_NAMES): ` +
        `${fmt(work.domains)} domains of root_domains x ${fmt(work.words)} words${fields.wordlist ? ` of ${fields.wordlist}` : ' (the built-in list)'}`,
      param: fields.wordlist ?? 'root_domains',
    };
  }
  return undefined;
}
