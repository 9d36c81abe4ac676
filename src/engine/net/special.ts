// Address ranges that are not the public internet (IANA's special-purpose registries): what "public
// addresses only" leaves out, each with the word a refusal uses.
import { parseCidr, type Cidr } from './address.ts';

export const NON_PUBLIC_RANGES: readonly { cidr: string; label: string }[] = [
  { cidr: '0.0.0.0/8', label: 'this host' },
  { cidr: '10.0.0.0/8', label: 'private' },
  { cidr: '100.64.0.0/10', label: 'shared (carrier-grade NAT)' },
  { cidr: '127.0.0.0/8', label: 'loopback' },
  { cidr: '169.254.0.0/16', label: 'link-local' },
  { cidr: '172.16.0.0/12', label: 'private' },
  { cidr: '192.0.0.0/24', label: 'IETF protocol assignments' },
  { cidr: '192.0.2.0/24', label: 'documentation' },
  { cidr: '192.88.99.0/24', label: '6to4 relay' },
  { cidr: '192.168.0.0/16', label: 'private' },
  { cidr: '198.18.0.0/15', label: 'benchmarking' },
  { cidr: '198.51.100.0/24', label: 'documentation' },
  { cidr: '203.0.113.0/24', label: 'documentation' },
  { cidr: '224.0.0.0/4', label: 'multicast' },
  { cidr: '240.0.0.0/4', label: 'reserved' },
  { cidr: '::/128', label: 'this host' },
  { cidr: '::1/128', label: 'loopback' },
  { cidr: '::/96', label: 'IPv4-compatible' },
  { cidr: '100::/64', label: 'discard-only' },
  { cidr: '2001::/23', label: 'IETF protocol assignments' },
  { cidr: '2001:db8::/32', label: 'documentation' },
  { cidr: 'fc00::/7', label: 'unique local (private)' },
  { cidr: 'fe80::/10', label: 'link-local' },
  { cidr: 'fec0::/10', label: 'site-local' },
  { cidr: 'ff00::/8', label: 'multicast' },
];

/** The non-public ranges, parsed once. */
export const nonPublicCidrs = (): { cidr: Cidr; label: string }[] =>
  (parsed ??= NON_PUBLIC_RANGES.map((r) => ({ cidr: parseCidr(r.cidr)!, label: r.label })));
let parsed: { cidr: Cidr; label: string }[] | undefined;
