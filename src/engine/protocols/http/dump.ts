// Text forms of requests and responses for result events: the raw request, the raw response, a curl
// command, and redaction of secret values from all of them.
import type { HttpResponse, PreparedRequest } from './types.ts';
import { http } from '../../lazy.ts';

/** The request as it would appear on the wire (for undici-sent requests, as we asked undici to send it). */
export function serializeRequest(r: PreparedRequest): string {
  if (r.unsafe && r.rawBytes !== undefined) return r.rawBytes;
  // Built for every response (the `request` value): plain concatenation, no intermediate arrays.
  let text = `${r.method} ${r.path} HTTP/1.1`;
  const headers = r.headers;
  for (let i = 0; i < headers.length; i++) text += `\r\n${headers[i]![0]}: ${headers[i]![1]}`;
  return `${text}\r\n\r\n${r.body ?? ''}`;
}

/** Go-style canonical header names for display (content-type -> Content-Type). */
const canonical = new Map<string, string>();
export function canonicalHeader(name: string): string {
  let c = canonical.get(name);
  if (c === undefined) {
    c = name.replace(/(^|-)([a-z])/g, (_m, d: string, ch: string) => d + ch.toUpperCase());
    if (canonical.size < 5000) canonical.set(name, c);
  }
  return c;
}

export function headerBlock(res: HttpResponse): string {
  const statusText = (res.statusText || http().STATUS_CODES[res.status] || '').trimEnd();
  let text = statusText ? `${res.version} ${res.status} ${statusText}` : `${res.version} ${res.status}`;
  const headers = res.headers;
  for (let i = 0; i < headers.length; i++) text += `\r\n${canonicalHeader(headers[i]![0])}: ${headers[i]![1]}`;
  return `${text}\r\n`;
}

export function serializeResponse(res: HttpResponse, body: string): string {
  return `${headerBlock(res)}\r\n${body}`;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

export function curlCommand(r: PreparedRequest): string {
  const parts = ['curl', '-X', r.method];
  for (const [k, v] of r.headers) if (k.toLowerCase() !== 'content-length') parts.push('-H', shellQuote(`${k}: ${v}`));
  if (r.body) parts.push('-d', shellQuote(r.body));
  parts.push(shellQuote(r.origin + (r.path.startsWith('/') ? r.path : `/${r.path}`)));
  return parts.join(' ');
}

/** Replaces every secret value (longest first, so overlapping values redact fully) with [REDACTED]. */
export function redact(text: string, secrets: string[]): string {
  if (secrets.length === 0) return text;
  let out = text;
  for (const s of [...secrets].filter((x) => x.length > 0).sort((a, b) => b.length - a.length)) {
    out = out.split(s).join('[REDACTED]');
  }
  return out;
}
