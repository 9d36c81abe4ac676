// Raw request text: annotations (@timeout, @tls-sni), request line, headers, body; and merging the
// request path with the input's path and query the way nuclei does.

export interface Annotations {
  timeout?: number; // ms
  tlsSni?: string;
}

export interface ParsedRaw {
  method: string;
  /** Request target as written: '/path?q', '?q', 'path', or an absolute URL. */
  target: string;
  version: string;
  headers: [string, string][];
  body?: string;
  annotations: Annotations;
}

/** Parses durations like `5s`, `500ms`, `1m`, or a bare number of seconds. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return n * (unit === 'ms' ? 1 : unit === 's' ? 1000 : unit === 'm' ? 60_000 : 3_600_000);
}

/** Splits leading `@name: value` lines off a raw request. */
export function stripAnnotations(raw: string): { text: string; annotations: Annotations } {
  const annotations: Annotations = {};
  const lines = raw.replace(/^\s*\n/, '').split('\n');
  let i = 0;
  for (; i < lines.length; i++) {
    const m = /^@([a-z-]+):\s*(.*?)\r?$/i.exec(lines[i].trimStart());
    if (!m) break;
    const key = m[1].toLowerCase();
    if (key === 'timeout') annotations.timeout = parseDuration(m[2]);
    else if (key === 'tls-sni') annotations.tlsSni = m[2].trim();
  }
  return { text: lines.slice(i).join('\n'), annotations };
}

export function parseRaw(raw: string): ParsedRaw {
  const { text, annotations } = stripAnnotations(raw);
  const normalized = text.replace(/^\s+/, '');
  const sep = /\r?\n\r?\n/.exec(normalized);
  const head = sep ? normalized.slice(0, sep.index) : normalized.replace(/\r?\n$/, '');
  let body = sep ? normalized.slice(sep.index + sep[0].length) : undefined;
  // YAML block scalars leave a trailing newline after the body; it is not part of the payload.
  if (body !== undefined) body = body.replace(/(\r?\n)+$/, '');
  if (body === '') body = undefined;
  const lines = head.split(/\r?\n/);
  const first = lines[0].trim();
  const parts = first.split(/\s+/);
  let version = 'HTTP/1.1';
  if (parts.length >= 3 && /^HTTP\//i.test(parts[parts.length - 1])) version = parts.pop()!;
  const method = parts.shift() ?? 'GET';
  const target = parts.join(' ');
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    if (!line.trim()) continue;
    const c = line.indexOf(':');
    if (c <= 0) continue;
    headers.push([line.slice(0, c).trim(), line.slice(c + 1).trim()]);
  }
  return { method, target, version, headers, body, annotations };
}

function splitQuery(p: string): [string, string] {
  const q = p.indexOf('?');
  return q >= 0 ? [p.slice(0, q), p.slice(q + 1)] : [p, ''];
}

/** Joins two query strings, keeping the input's parameters first and dropping exact duplicates. */
export function mergeQuery(a: string, b: string): string {
  if (!a) return b;
  if (!b) return a;
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of [...a.split('&'), ...b.split('&')]) {
    if (!part || seen.has(part)) continue;
    seen.add(part);
    out.push(part);
  }
  return out.join('&');
}

/**
 * Merges the input's path and query with a request path: input `/api/v1` + `/x` -> `/api/v1/x`,
 * input `/index.php` + `/` -> `/index.php`, input `?a=1` + `/?b=2` -> `/?a=1&b=2`.
 * Everything stays as written (no dot-segment or escape normalisation).
 */
export function mergePaths(inputPath: string, inputQuery: string, reqPath: string): string {
  let [p, q] = splitQuery(reqPath);
  if (p !== '' && !p.startsWith('/')) p = `/${p}`;
  const base = inputPath.replace(/\/+$/, '');
  let merged: string;
  if (p === '' || p === '/') merged = inputPath || '/';
  else if (base === '') merged = p;
  else if (p.startsWith(base + '/') || p === base)
    merged = p; // already carries the input path
  else merged = base + p;
  const query = mergeQuery(inputQuery, q);
  return query ? `${merged}?${query}` : merged;
}

/** Index of the first header named `lower` (compared case-insensitively), or -1. Runs several times per request. */
function headerIndex(headers: [string, string][], lower: string): number {
  for (let i = 0; i < headers.length; i++) {
    const k = headers[i][0];
    if (k.length === lower.length && k.toLowerCase() === lower) return i;
  }
  return -1;
}

export function getHeader(headers: [string, string][], name: string): string | undefined {
  const i = headerIndex(headers, name.toLowerCase());
  return i >= 0 ? headers[i][1] : undefined;
}

/** Replaces (or appends) a header, keeping the original position and spelling of the first one. */
export function setHeader(headers: [string, string][], name: string, value: string): void {
  const lower = name.toLowerCase();
  const i = headerIndex(headers, lower);
  if (i >= 0) {
    headers[i] = [headers[i][0], value];
    for (let j = headers.length - 1; j > i; j--) if (headers[j][0].toLowerCase() === lower) headers.splice(j, 1);
  } else headers.push([name, value]);
}

export function deleteHeader(headers: [string, string][], name: string): void {
  const lower = name.toLowerCase();
  for (let j = headers.length - 1; j >= 0; j--) if (headers[j][0].toLowerCase() === lower) headers.splice(j, 1);
}
