// The map of response values that matchers, extractors and the DSL read (see engine-notes: lowercased
// `_` header names, cookies by name, body, header, all_headers, response, request, status_code ...).
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

export function responseData(res: HttpResponse, bodyText: string, ctx: ResponseContext): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  // Cookies first so a header of the same name wins.
  Object.assign(data, cookiesOf(res.headers));
  // Repeated headers are joined with a space, as nuclei does.
  const grouped = new Map<string, string[]>();
  for (const [k, v] of res.headers) {
    const key = headerKey(k);
    const list = grouped.get(key);
    if (list) list.push(v);
    else grouped.set(key, [v]);
  }
  for (const [k, list] of grouped) data[k] = list.join(' ');
  const head = headerBlock(res);
  const cl = res.headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1];
  const clNum = cl !== undefined && /^\d+$/.test(cl.trim()) ? Number(cl) : Buffer.byteLength(bodyText);
  Object.assign(data, {
    status_code: res.status,
    body: bodyText,
    header: head,
    all_headers: head,
    response: `${head}\r\n${bodyText}`,
    request: ctx.requestText,
    content_length: clNum,
    duration: res.duration / 1000,
    host: ctx.host,
    ip: ctx.ip,
    matched: ctx.matchedUrl,
    'template-id': ctx.templateId,
    'template-path': ctx.templatePath,
    type: 'http',
  });
  return data;
}

/** The keys copied under `<name>_<key>` for later requests and blocks (req-condition, block ids). */
export const SHARED_KEYS = ['status_code', 'body', 'header', 'all_headers', 'response', 'request', 'content_length', 'duration'];
