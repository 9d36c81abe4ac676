// Puts one resolved secret into a request. Header names compare case-insensitively, so a template's own
// `authorization` header is replaced rather than sent twice.
import { mergeCookieHeader, parseRawCookie } from './cookie.ts';
import type { StaticSecret, SecretTargetRequest } from './types.ts';

function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const key of Object.keys(headers)) if (key.toLowerCase() === lower) delete headers[key];
  headers[name] = value;
}

function findHeader(headers: Record<string, string>, name: string): string | undefined {
  const lower = name.toLowerCase();
  const key = Object.keys(headers).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : headers[key];
}

/** The Basic credentials as sent: base64 of `username:password`. */
export function basicCredentials(username: string, password: string): string {
  return Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
}

/** The concrete name=value pairs of a cookie secret (raw cookies reduced to their first pair). */
export function cookiePairs(secret: StaticSecret): Array<{ key: string; value: string }> {
  const pairs: Array<{ key: string; value: string }> = [];
  for (const c of secret.cookies ?? []) {
    if (c.raw !== undefined) {
      const pair = parseRawCookie(c.raw);
      if (pair) pairs.push(pair);
    } else if (c.key !== undefined && c.value !== undefined) pairs.push({ key: c.key, value: c.value });
  }
  return pairs;
}

/**
 * Appends parameters as text: going through url.searchParams would re-encode the whole query and alter
 * the template's own (possibly deliberately odd) parameters.
 */
function appendQuery(url: URL, params: Array<{ key: string; value: string }>): void {
  if (params.length === 0) return;
  const added = params.map(({ key, value }) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
  const current = url.search.replace(/^\?/, '');
  url.search = current ? `${current}&${added}` : added;
}

export function applySecret(secret: StaticSecret, req: SecretTargetRequest): void {
  switch (secret.type) {
    case 'basicauth':
      setHeader(
        req.headers,
        'Authorization',
        `Basic ${basicCredentials(secret.username ?? '', secret.password ?? '')}`,
      );
      break;
    case 'bearertoken':
      setHeader(req.headers, 'Authorization', `Bearer ${secret.token ?? ''}`);
      break;
    case 'header':
      for (const { key, value } of secret.headers ?? []) setHeader(req.headers, key, value);
      break;
    case 'cookie':
      setHeader(req.headers, 'Cookie', mergeCookieHeader(findHeader(req.headers, 'Cookie'), cookiePairs(secret)));
      break;
    case 'query':
      appendQuery(req.url, secret.params ?? []);
      break;
  }
}
