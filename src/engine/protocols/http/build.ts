// Turns one `path` or `raw` entry of a request block, with the values of the moment, into a request
// ready for the wire: rendering, Host rewriting, path merging and Content-Length fixing.
import type { HttpRequest } from '../../template/types.ts';
import type { ParsedInput } from './input.ts';
import { deleteHeader, getHeader, mergeQuery, mergePaths, parseRaw, setHeader, stripAnnotations } from './raw.ts';
import type { PreparedRequest } from './types.ts';

export type Render = (text: string, vars: Record<string, unknown>) => string;

export const DEFAULT_USER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

/** `§name§` payload markers are plain placeholders. */
export function payloadMarkers(text: string): string {
  if (!text.includes('§')) return text;
  return text.replace(/\u00a7([^\u00a7\s]+)\u00a7/g, '{{$1}}'); // § in escapes: the bundle stays ASCII
}

function splitQuery(p: string): [string, string] {
  const q = p.indexOf('?');
  return q >= 0 ? [p.slice(0, q), p.slice(q + 1)] : [p, ''];
}

/** scheme://host[:port] and the request target of an absolute URL, the target kept as written. */
/** host[:port] of a normalised origin (scheme://host[:port]). */
export function hostOf(origin: string): string {
  return origin.slice(origin.indexOf('//') + 2);
}

const origins = new Map<string, string>();
function originOf(schemeHost: string): string {
  let o = origins.get(schemeHost);
  if (o === undefined) {
    const u = new URL(schemeHost);
    o = `${u.protocol}//${u.host}`;
    if (origins.size < 10000) origins.set(schemeHost, o);
  }
  return o;
}

export function splitAbsolute(url: string): { origin: string; path: string } {
  const m = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]*)(.*)$/i.exec(url);
  if (!m) throw new Error(`not an absolute URL: ${url}`);
  let path = m[2].split('#')[0];
  if (!path.startsWith('/')) path = `/${path}`;
  return { origin: originOf(m[1]), path };
}

/** A path entry split once: `{{BaseURL}}` or `{{RootURL}}` at its start (if any) and the rest. */
const pathCache = new Map<string, { tpl: string; base?: string; rest: string }>();
function pathParts(pathTpl: string): { tpl: string; base?: string; rest: string } {
  let hit = pathCache.get(pathTpl);
  if (hit === undefined) {
    const tpl = payloadMarkers(pathTpl);
    const m = /^\{\{\s*(BaseURL|RootURL)\s*\}\}/.exec(tpl);
    hit = m ? { tpl, base: m[1], rest: tpl.slice(m[0].length) } : { tpl, rest: tpl };
    if (pathCache.size >= 50000) pathCache.clear();
    pathCache.set(pathTpl, hit);
  }
  return hit;
}

/** BaseURL/RootURL split once per value (every request of a target shares it): origin, path without trailing slashes, query. */
const bases = new Map<string, { origin: string; path: string; query: string }>();
function baseParts(base: string): { origin: string; path: string; query: string } {
  let hit = bases.get(base);
  if (hit === undefined) {
    const abs = splitAbsolute(base);
    const [bp, bq] = splitQuery(abs.path);
    hit = { origin: abs.origin, path: bp.replace(/\/+$/, ''), query: bq };
    if (bases.size >= 10000) bases.clear();
    bases.set(base, hit);
  }
  return hit;
}

function finishHeaders(headers: [string, string][], body: string | undefined, host: string, keepHost: boolean): void {
  if (headers.length === 0 && (body === undefined || body === '')) {
    // A request without headers of its own (most path requests): the two it gets, as below, looked up in nothing.
    headers.push(['Host', host], ['User-Agent', DEFAULT_USER_AGENT]);
    return;
  }
  if (!keepHost || !getHeader(headers, 'host')) setHeader(headers, 'Host', host);
  if (!getHeader(headers, 'user-agent')) headers.push(['User-Agent', DEFAULT_USER_AGENT]);
  if (body !== undefined && body !== '') setHeader(headers, 'Content-Length', String(Buffer.byteLength(body)));
  else if (getHeader(headers, 'content-length') !== undefined) deleteHeader(headers, 'content-length');
}

export function buildFromPath(
  r: HttpRequest,
  pathTpl: string,
  vars: Record<string, unknown>,
  input: ParsedInput | undefined,
  render: Render,
): PreparedRequest {
  const { tpl, base: baseName, rest: restTpl } = pathParts(pathTpl);
  let origin: string;
  let path: string;
  let displayUrl: string | undefined;
  if (baseName && input) {
    const rendered = render(restTpl, vars);
    // A fragment is never sent (Go's client drops it); it stays in the URL results show.
    const hash = rendered.indexOf('#');
    const rest = hash >= 0 ? rendered.slice(0, hash) : rendered;
    const fragment = hash >= 0 ? rendered.slice(hash) : '';
    const base = baseParts(String(vars[baseName] ?? ''));
    origin = base.origin;
    const [rp, rq] = splitQuery(rest);
    // nuclei trims the input's trailing slash only where the template appends a path ({{BaseURL}}/x);
    // a bare {{BaseURL}} requests the input as given (http://h/app/ stays /app/).
    const basePath = rp === '' && baseName === 'BaseURL' ? input.rawPath : base.path;
    let p = basePath + rp;
    if (!p.startsWith('/')) p = `/${p}`;
    const q = mergeQuery(base.query, rq);
    path = q ? `${p}?${q}` : p;
    displayUrl = origin + basePath + rp + (q ? `?${q}` : '') + fragment;
  } else {
    let url = render(tpl, vars);
    // Only a bare host gets http:// in front; text that names a scheme nuclei's URL parser refuses
    // ("_db.http://target/", from `{{paths}}.{{BaseURL}}`) fails the request instead of going to a
    // host made of its pieces.
    if (!url.includes('://')) url = `http://${url.replace(/^\/+/, '')}`;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1]?.toLowerCase();
    if (!scheme) throw new Error(`invalid URL "${url.slice(0, 200)}": first path segment in URL cannot contain colon`);
    if (scheme !== 'http' && scheme !== 'https') throw new Error(`unsupported protocol scheme "${scheme}"`);
    ({ origin, path } = splitAbsolute(url));
  }
  const headers: [string, string][] = [];
  for (const k in r.headers)
    headers.push([render(payloadMarkers(k), vars), render(payloadMarkers(r.headers[k]), vars)]);
  const body = r.body !== undefined ? render(payloadMarkers(r.body), vars) : undefined;
  finishHeaders(headers, body, hostOf(origin), false);
  return { method: r.method || 'GET', origin, path, headers, body, unsafe: false, displayUrl };
}

export function buildFromRaw(
  r: HttpRequest,
  rawTpl: string,
  vars: Record<string, unknown>,
  input: ParsedInput | undefined,
  selfContained: boolean,
  render: Render,
): PreparedRequest {
  const rendered = render(payloadMarkers(rawTpl), vars);
  const parsed = parseRaw(rendered);
  let origin: string;
  let path: string;
  const hostHeader = getHeader(parsed.headers, 'host');
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(parsed.target);
  const absoluteToInput = absolute && !!input && !selfContained;
  if (absoluteToInput) {
    // Absolute form (`GET http://other/ HTTP/1.1`): nuclei connects to the scan input and sends the
    // request line as written; the engine never goes to a host a raw request merely names.
    origin = `${input.url.protocol}//${input.url.host}`;
    path = parsed.target;
  } else if (absolute) {
    ({ origin, path } = splitAbsolute(parsed.target));
  } else if (input && !selfContained) {
    origin = `${input.url.protocol}//${input.url.host}`;
    path = r.disablePathAutomerge
      ? parsed.target.startsWith('/')
        ? parsed.target
        : `/${parsed.target}`
      : mergePaths(input.rawPath, input.rawQuery, parsed.target);
  } else {
    if (!hostHeader) throw new Error('raw request has no target: no input, no absolute URL and no Host header');
    origin = `http://${hostHeader}`;
    path = parsed.target.startsWith('/') ? parsed.target : `/${parsed.target}`;
  }
  const host = hostOf(origin);
  // As nuclei: a Host header the raw request writes is the Host sent (virtual hosts), whatever it connects to.
  const keepHost = selfContained || (absolute && !input) || hostHeader !== undefined;
  const headers = parsed.headers.map(([k, v]) => [k, v] as [string, string]);
  let sni = parsed.annotations.tlsSni;
  if (sni === 'request.host') sni = (getHeader(headers, 'host') ?? host).replace(/:\d+$/, '');
  if (r.unsafe) {
    // Everything after the request line goes out exactly as written; only line endings become CRLF.
    const text = stripAnnotations(rendered).text.replace(/^\s+/, '');
    const nl = text.indexOf('\n');
    const rest = nl >= 0 ? text.slice(nl + 1) : '';
    let bytes = `${parsed.method} ${path} ${parsed.version}\r\n${rest.replace(/\r?\n/g, '\r\n')}`;
    if (!/\r\n\r\n/.test(bytes)) bytes = bytes.endsWith('\r\n') ? `${bytes}\r\n` : `${bytes}\r\n\r\n`;
    return {
      method: parsed.method,
      origin,
      path,
      headers,
      body: parsed.body,
      unsafe: true,
      rawBytes: bytes,
      timeout: parsed.annotations.timeout,
      sni,
      readAll: r.readAll,
      displayUrl: absoluteToInput ? input!.url.href : undefined,
    };
  }
  finishHeaders(headers, parsed.body, host, keepHost);
  if (keepHost && hostHeader && !absolute && !input) setHeader(headers, 'Host', hostHeader);
  return {
    method: parsed.method,
    origin,
    path,
    headers,
    body: parsed.body,
    unsafe: false,
    timeout: parsed.annotations.timeout,
    sni,
    displayUrl: absoluteToInput ? input!.url.href : undefined,
  };
}
