// Which targets a secret belongs to. The matching key is `host[:port]`, lower case, with the default
// web ports 80 and 443 dropped, so `example.com`, `example.com:443` and https://example.com/ agree.

const DEFAULT_PORTS = new Set(['80', '443']);

/** Drops a trailing :80 / :443 from `host[:port]` (IPv6 hosts must be bracketed to carry a port). */
function dropDefaultPort(hostPort: string): string {
  const m = /^(\[[^\]]*\]|[^:]*):(\d+)$/.exec(hostPort);
  if (m && DEFAULT_PORTS.has(m[2]!)) return m[1]!;
  return hostPort;
}

/** The matching key of a domain written in the file. */
export function normaliseDomain(domain: string): string {
  return dropDefaultPort(domain.trim().toLowerCase());
}

/** The matching key of a request URL. */
export function targetKey(url: URL): string {
  const host = url.hostname.toLowerCase();
  return url.port && !DEFAULT_PORTS.has(url.port) ? `${host}:${url.port}` : host;
}

export interface Scope {
  domains: string[];
  domainsRegex: RegExp[];
}

export function matchesDomains(scope: Scope, key: string): boolean {
  return scope.domains.includes(key);
}

/** Regular expressions are unanchored: `corp` matches `intranet.corp.example`. */
export function matchesRegex(scope: Scope, key: string): boolean {
  return scope.domainsRegex.some((re) => re.test(key));
}

/**
 * Picks the one secret for a target: the first entry listing the key in `domains`, else the first
 * entry whose `domains-regex` matches it (file order within each group).
 */
export function pickForKey<T extends { secret: Scope }>(entries: readonly T[], key: string): T | undefined {
  return entries.find((e) => matchesDomains(e.secret, key)) ?? entries.find((e) => matchesRegex(e.secret, key));
}
