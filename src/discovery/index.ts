// Asset discovery, standalone like the engine: DNS, ports, HTTP probing, TLS, screenshots.
export * from './types.ts';
export { runDiscovery, checkConfig, DEFAULT_STEPS, type DiscoveryConfig } from './run.ts';
export { Resolver, parseResolver } from './dns.ts';
export { parsePorts, parsePortRanges, portCount, scanPorts, tcpOpen, TOP_100 } from './ports.ts';
export { workOf, type DiscoveryWork } from './work.ts';
export { probeHttp } from './http-probe.ts';
export { scanTls } from './tls-scan.ts';
export { bruteforce, candidateWords, detectWildcard } from './bruteforce.ts';
export { passiveSubdomains, parseProviderConfig, SOURCES } from './passive.ts';
export { faviconHash } from './favicon.ts';
// Technology fingerprinting with the engine's templates (the `technologies` hook of a run).
export { techHook, techName, type TechHook, type TechOptions } from './technologies.ts';
export {
  listCloudAssets,
  parseCloudConfig,
  parseCloudEndpoints,
  redact,
  CLOUD_CLIENTS,
  type CloudAsset,
  type ProviderEntry,
} from './cloud/index.ts';
export { parseRoot, scopeOf, addressesOf, checkPattern, type Scope } from './scope.ts';
