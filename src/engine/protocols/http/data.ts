// The map of response values that matchers, extractors and the DSL read (see engine-notes: lowercased
// `_` header names, cookies by name, body, header, all_headers, response, request, status_code ...).
import { isUtf8 } from 'node:buffer';
import { headerBlock } from './dump.ts';
import { READS_ALL, type Reads } from './reads.ts';
import type { HttpResponse } from './types.ts';

export interface ResponseContext {
  requestText: string;
  matchedUrl: string;
  host: string;
  ip: string;
  templateId: string;
  templatePath: string;
}

export function headerKey(name: string): string {
  return name.toLowerCase().replace(/-/g, '_');
}

/** Cookie name -> value from Set-Cookie headers (only the leading name=value pair counts). */
export function cookiesOf(headers: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) {
    if (k.toLowerCase() !== 'set-cookie') continue;
    const pair = v.split(';')[0];
    const eq = pair.indexOf('=');
    if (eq > 0) out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
  }
  return out;
}

const headerKeys = new Map<string, string>();
function cachedHeaderKey(name: string): string {
  let k = headerKeys.get(name);
  if (k === undefined) {
    k = headerKey(name);
    if (headerKeys.size < 5000) headerKeys.set(name, k);
  }
  return k;
}

/**
 * The response values. With `into`, they are written over that map (the request's values), as if
 * merged after it, which saves a copy per response. `bodyIsText`: the body was valid UTF-8 (the caller
 * already checked, to decode it). `reads`: the values the block's operators can read (reads.ts); the
 * others are left out (a result event builds its request and response text itself).
 *
 * Runs for every response, mostly before V8 has optimised it (the first few thousand of a scan): plain
 * indexed loops, no iterators or intermediate arrays, because unoptimised code pays for each of those.
 */
export function responseData(
  res: HttpResponse,
  bodyText: string,
  ctx: ResponseContext,
  into?: Record<string, unknown>,
  bodyIsText = isUtf8(res.body),
  reads: Reads = READS_ALL,
): Record<string, unknown> {
  const data: Record<string, unknown> = into ?? {};
  const headers = res.headers;
  let contentLength: string | undefined;
  let cookies = false;
  for (let i = 0; i < headers.length; i++) {
    const k = headers[i]![0];
    if (k.length === 10 && k.toLowerCase() === 'set-cookie') cookies = true;
    else if (k.length === 14 && cachedHeaderKey(k) === 'content_length') contentLength = headers[i]![1];
  }
  // Cookies first so a header of the same name wins (nuclei).
  if (cookies && reads.headers) setCookieValues(headers, data);
  // Repeated headers are joined with a space (nuclei); a repeat is found by looking back (a handful of headers).
  for (let i = 0; reads.headers && i < headers.length; i++) {
    const h = headers[i]!;
    const key = cachedHeaderKey(h[0]);
    let repeat = false;
    for (let j = 0; j < i; j++) {
      if (cachedHeaderKey(headers[j]![0]) === key) {
        repeat = true;
        break;
      }
    }
    data[key] = repeat ? `${data[key]} ${h[1]}` : h[1];
  }
  const clNum =
    contentLength !== undefined && /^\s*\d+\s*$/.test(contentLength) ? Number(contentLength) : res.body.length;
  data.status_code = res.status;
  // A body that is not UTF-8 text (images, archives, binary protocols) is handed to the DSL as its bytes,
  // as nuclei's Go string is: hex_encode(body), len(body) and byte regexes see exactly what arrived.
  // Matchers read it through the same bytes as a latin1 string (one character per byte).
  data.body = bodyIsText ? bodyText : res.body;
  if (reads.head) {
    const head = headerBlock(res);
    data.header = head;
    data.all_headers = head;
    data.response = `${head}\r\n${bodyText}`;
  }
  if (reads.request) data.request = ctx.requestText;
  data.content_length = clNum;
  data.duration = res.duration / 1000;
  data.host = ctx.host;
  data.ip = ctx.ip;
  data.matched = ctx.matchedUrl;
  data['template-id'] = ctx.templateId;
  data['template-path'] = ctx.templatePath;
  data.type = 'http';
  return data;
}

/** Cookie values by name from Set-Cookie headers, the first of each name winning. */
function setCookieValues(headers: [string, string][], data: Record<string, unknown>): void {
  const names = new Set<string>();
  for (const [k, v] of headers) {
    if (k.length !== 10 || k.toLowerCase() !== 'set-cookie') continue;
    const pair = v.split(';', 1)[0]!;
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (names.has(name)) continue;
    names.add(name);
    data[name] = pair.slice(eq + 1).trim();
  }
}

/** The keys copied under `<name>_<key>` for later requests and blocks (req-condition, block ids). */
export const SHARED_KEYS = [
  'status_code',
  'body',
  'header',
  'all_headers',
  'response',
  'request',
  'content_length',
  'duration',
];
