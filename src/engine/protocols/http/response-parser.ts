// Parses an HTTP/1.x response from raw bytes (the unsafe/raw-socket path): status line, headers and a
// body delimited by Content-Length, chunked encoding or the end of the connection.

export interface ParsedResponse {
  version: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
}

/** Returns the parsed response once `buf` holds a complete one, or undefined when more bytes are needed. */
export function tryParseResponse(buf: Buffer, ended: boolean, method = 'GET', ignoreLength = false): ParsedResponse | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  const lfEnd = headEnd < 0 ? buf.indexOf('\n\n') : -1;
  if (headEnd < 0 && lfEnd < 0) {
    if (!ended) return undefined;
    throw new Error('malformed HTTP response: no header terminator');
  }
  const headLen = headEnd >= 0 ? headEnd : lfEnd;
  const bodyStart = headLen + (headEnd >= 0 ? 4 : 2);
  const lines = buf.subarray(0, headLen).toString('latin1').split(/\r?\n/);
  const m = /^(HTTP\/\d(?:\.\d)?)\s+(\d{3})\s?(.*)$/.exec(lines[0]);
  if (!m) throw new Error(`malformed HTTP response status line: ${JSON.stringify(lines[0].slice(0, 80))}`);
  const headers: [string, string][] = [];
  for (const line of lines.slice(1)) {
    const c = line.indexOf(':');
    if (c > 0) headers.push([line.slice(0, c).trim(), line.slice(c + 1).trim()]);
  }
  const status = Number(m[2]);
  const base = { version: m[1], status, statusText: m[3], headers };
  const rest = buf.subarray(bodyStart);
  if (method === 'HEAD' || status === 204 || status === 304 || (status >= 100 && status < 200)) {
    return { ...base, body: Buffer.alloc(0) };
  }
  const te = headers.find(([k]) => k.toLowerCase() === 'transfer-encoding')?.[1]?.toLowerCase();
  if (te?.includes('chunked')) {
    const body = dechunk(rest);
    if (body) return { ...base, body };
    return ended ? { ...base, body: rest } : undefined;
  }
  const cl = headers.find(([k]) => k.toLowerCase() === 'content-length')?.[1];
  const len = !ignoreLength && cl !== undefined && /^\d+$/.test(cl) ? Number(cl) : undefined;
  if (len !== undefined) {
    if (rest.length >= len) return { ...base, body: rest.subarray(0, len) };
    return ended ? { ...base, body: rest } : undefined;
  }
  return ended ? { ...base, body: rest } : undefined;
}

/** Decodes a complete chunked body; undefined while the terminating chunk has not arrived. */
function dechunk(buf: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let pos = 0;
  for (;;) {
    const nl = buf.indexOf('\r\n', pos);
    if (nl < 0) return undefined;
    const size = parseInt(buf.subarray(pos, nl).toString('latin1').split(';')[0].trim(), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    pos = nl + 2;
    if (size === 0) return Buffer.concat(parts);
    if (buf.length < pos + size) return undefined;
    parts.push(buf.subarray(pos, pos + size));
    pos += size + 2;
  }
}
