// Built-in variables for one scan input, as nuclei names them (BaseURL, RootURL, Hostname, Host ...).
import { isIP } from 'node:net';
import { lazy } from '../../lazy.ts';

// The public-suffix list loads only for inputs that are names (an IP has no registrable domain).
const tldts = lazy<typeof import('tldts')>('tldts');

/** Targets may come without a scheme (`example.com:8443`); nuclei probes, we pick https for 443, else http. */
export function normalizeTarget(target: string): string {
  const t = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return t;
  const port = /:(\d+)(?:\/|$)/.exec(t)?.[1];
  return `${port === '443' ? 'https' : 'http'}://${t}`;
}

export interface ParsedInput {
  url: URL;
  /** The input path exactly as given (no normalisation), '' when absent. */
  rawPath: string;
  /** The query string without '?', '' when absent. */
  rawQuery: string;
}

export function parseInput(target: string): ParsedInput {
  const norm = normalizeTarget(target);
  const url = new URL(norm);
  // Take path and query from the text itself so odd paths survive verbatim.
  const afterHost = norm.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, '');
  const noHash = afterHost.split('#')[0];
  const q = noHash.indexOf('?');
  return {
    url,
    rawPath: q >= 0 ? noHash.slice(0, q) : noHash,
    rawQuery: q >= 0 ? noHash.slice(q + 1) : '',
  };
}

export function defaultPort(scheme: string): string {
  return scheme === 'https' ? '443' : '80';
}

export function inputVariables(target: string): Record<string, string> {
  const { url, rawPath, rawQuery } = parseInput(target);
  const scheme = url.protocol.replace(/:$/, '');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = url.port || defaultPort(scheme);
  const hostname = url.port ? `${url.hostname}:${url.port}` : url.hostname;
  const trimmed = rawPath.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  const dir = slash > 0 ? trimmed.slice(0, slash) : slash === 0 && trimmed.length > 1 ? '/' : '';
  const file = slash >= 0 ? trimmed.slice(slash + 1) : trimmed;
  const isIp = isIP(host) !== 0;
  const d = isIp ? { domain: host, domainWithoutSuffix: '', publicSuffix: '', subdomain: '' } : tldts().parse(host);
  const base = `${scheme}://${hostname}${trimmed}${rawQuery ? `?${rawQuery}` : ''}`;
  return {
    BaseURL: base,
    RootURL: `${scheme}://${hostname}`,
    Hostname: hostname,
    Host: host,
    Port: port,
    Path: dir,
    File: file,
    Query: rawQuery,
    Scheme: scheme,
    Input: target,
    FQDN: host,
    RDN: isIp ? host : (d.domain ?? host),
    DN: isIp ? '' : (d.domainWithoutSuffix ?? ''),
    TLD: isIp ? '' : (d.publicSuffix ?? ''),
    SD: isIp ? '' : (d.subdomain ?? ''),
  };
}
