// The map of response values that matchers, extractors and the DSL read (see engine-notes: lowercased
// `_` header names, cookies by name, body, header, all_headers, response, request, status_code ...).
import { isUtf8 } from 'node:buffer';
import { headerBlock } from './dump.ts';
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
 * merged after it, which saves a copy per response.
 */
export function responseData(res: HttpResponse, bodyText: string, ctx: ResponseContext, into?: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = into ?? {};
  let contentLength: string | undefined;
  let cookies: Set<string> | undefined;
  // Cookies first so a header of the same name wins; repeated headers are joined with a space (nuclei).
  for (const [k, v] of res.headers) {
    const key = cachedHeaderKey(k);
    if (key === 'set_cookie') {
      const pair = v.split(';', 1)[0];
      const eq = pair.indexOf('=');
      if (eq > 0) {
        const name = pair.slice(0, eq).trim();
        cookies ??= new Set();
        if (!cookies.has(name)) {
          cookies.add(name);
          data[name] = pair.slice(eq + 1).trim();
        }
      }
    } else if (key === 'content_length') contentLength = v;
  }
  const seen: string[] = []; // a handful of headers: a list is cheaper than a Set
  for (const [k, v] of res.headers) {
    const key = cachedHeaderKey(k);
    if (seen.includes(key)) data[key] = `${data[key]} ${v}`;
    else {
      seen.push(key);
      data[key] = v;
    }
  }
  const head = headerBlock(res);
  const clNum = contentLength !== undefined && /^\s*\d+\s*$/.test(contentLength) ? Number(contentLength) : res.body.length;
  data.status_code = res.status;
  // A body that is not UTF-8 text (images, archives, binary protocols) is handed to the DSL as its bytes,
  // as nuclei's Go string is: hex_encode(body), len(body) and byte regexes see exactly what arrived.
  // Matchers read it through the same bytes as a latin1 string (one character per byte).
  data.body = isUtf8(res.body) ? bodyText : res.body;
  data.header = head;
  data.all_headers = head;
  data.response = `${head}\r\n${bodyText}`;
  data.request = ctx.requestText;
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

/** The keys copied under `<name>_<key>` for later requests and blocks (req-condition, block ids). */
export const SHARED_KEYS = ['status_code', 'body', 'header', 'all_headers', 'response', 'request', 'content_length', 'duration'];
