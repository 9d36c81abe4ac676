// What discovery steps produce and report. Standalone: nothing here knows about the platform.

export const STEPS = [
  'dns_resolve',
  'dns_bruteforce',
  'dns_passive',
  'port_scan',
  'http_probe',
  'tls_scan',
  'http_screenshot',
] as const;
export type Step = (typeof STEPS)[number];

export interface HostRecord {
  host: string;
  /** IPv4 and IPv6 addresses the name resolves to (an IP root: itself). */
  ip: string[];
  /** The CNAME chain, first hop first. */
  cname: string[];
  /** Where the name came from: root, dns_bruteforce, dns_passive:<source>, redirect... */
  source: string;
}

export interface TlsInfo {
  host: string;
  port: number;
  version?: string;
  versions: string[];
  subject_cn?: string;
  subject_org?: string;
  subject_an: string[];
  issuer_cn?: string;
  issuer_org?: string;
  serial_number?: string;
  not_before?: string;
  not_after?: string;
  expired: boolean;
  self_signed: boolean;
  mismatched: boolean;
}

export interface HttpInfo {
  url: string;
  scheme: 'http' | 'https';
  status_code: number;
  title: string;
  webserver: string;
  content_length: number;
  technologies: string[];
  /** Shodan-style favicon hash (mmh3 of the base64 text), as a decimal string; '' when there is none. */
  favicon: string;
  /** Status codes of the redirect chain, first response first (the final one last). */
  chain_status_codes: number[];
  chain: { url: string; status_code: number }[];
  /** Final URL after redirects ('' when none). */
  redirect_location: string;
  /** Names of the certificate the server presented (https only). */
  tls_names: string[];
}

/** One service (host:port) or, for a host with nothing probed, the host alone. */
export interface DiscoveredAsset {
  host: string;
  port?: number;
  ip: string[];
  cname: string[];
  sources: string[];
  http?: HttpInfo;
  tls?: TlsInfo;
  /** PNG of the page, base64 (http_screenshot). */
  screenshot?: string;
}

export type DiscoveryEvent =
  | { type: 'host'; record: HostRecord }
  | { type: 'port'; host: string; ip: string; port: number }
  | { type: 'http'; host: string; port: number; info: HttpInfo }
  | { type: 'tls'; info: TlsInfo }
  | { type: 'screenshot'; host: string; port: number; url: string; bytes: number }
  | { type: 'notice'; step: Step | 'input' | 'cloudlist'; message: string }
  | { type: 'progress'; step: Step; done: number; total: number };

export type EventSink = (e: DiscoveryEvent) => void;

/** Limits every step shares, as the engine's: concurrency, requests per second and timeouts. */
export interface Limits {
  concurrency: number;
  /** Operations per second over the whole run; 0: no limit. */
  rateLimit: number;
  /** Milliseconds per connection / query. */
  timeoutMs: number;
  /** Address-port pairs a run probes at most (port_scan, or the direct probes without it); default no limit. */
  maxProbes?: number;
  signal?: AbortSignal;
}

export const DEFAULT_LIMITS: Limits = { concurrency: 50, rateLimit: 0, timeoutMs: 3000 };
