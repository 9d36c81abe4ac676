// Addresses, policies and the connect guard: the one place the code base decides where a connection may go.
export {
  parseAddress,
  parseHost,
  parseIPv4,
  parseIPv6,
  normalizeName,
  parseCidr,
  parseAddressOrCidr,
  cidrOf,
  cidrContains,
  cidrRange,
  formatAddress,
  formatCidr,
  translatedIPv4,
  width,
} from './address.ts';
export { rangesOf, intersectRanges, subtractRanges, rangeSize, rangesHave, addressesIn } from './address.ts';
export type { Address, Cidr, Family, Host, AddressRanges, AddressSpan } from './address.ts';
export { NON_PUBLIC_RANGES } from './special.ts';
export { Egress, compileRule, deniedRanges } from './policy.ts';
export type { EgressPolicy, EgressRule } from './policy.ts';
export { ConnectGuard, EgressDenied, isEgressDenied, guardFor, dialTcp, dialTls, failedSocket } from './guard.ts';
export { guardedAgent, guardedConnector } from './undici.ts';
export { hostsFileAddresses } from './hosts-file.ts';
