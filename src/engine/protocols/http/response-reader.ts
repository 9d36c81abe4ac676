// Reads one HTTP/1.x response from a connection as its bytes arrive: the head once, then a body framed
// as RFC 9112 says (none for HEAD/1xx/204/304, chunked, Content-Length, or until the connection closes).
// Incremental so that a 10 MB body in 64 KB reads costs one pass, not one re-parse per read. The one
// response parser of the engine: the keep-alive client (keepalive.ts) and the raw-socket path (unsafe.ts).

const MAX_HEAD_BYTES = 64 * 1024;

export interface ReadResponse {
  version: string;
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
  /** The connection may carry another request (HTTP/1.1 framing intact, no `Connection: close`). */
  reusable: boolean;
  /** The body stopped at maxSize; the rest was not read. */
  truncated: boolean;
  /** Set by the client: milliseconds from send to the end of the body. */
  duration?: number;
  /** The first Content-Encoding named, lower case (the body is as received). */
  encoding?: string;
}

type Framing = 'none' | 'length' | 'chunked' | 'close';

export class ResponseReader {
  private pending: Buffer | undefined; // bytes not yet consumed
  private head:
    | { version: string; status: number; statusText: string; headers: [string, string][]; encoding: string | undefined }
    | undefined;
  private framing: Framing = 'none';
  private remaining = 0; // bytes left in the body (length) or the current chunk (chunked)
  private chunkState: 'size' | 'data' | 'data-crlf' | 'trailers' = 'size';
  private parts: Buffer[] = [];
  private size = 0;
  private keepAlive = false;
  private truncated = false;
  result: ReadResponse | undefined;

  /**
   * `ignoreLength`: read to the end of the connection whatever Content-Length says (a raw request with
   * `read-all`); a chunked body is still decoded.
   */
  constructor(
    private readonly method: string,
    private readonly maxSize: number,
    private readonly ignoreLength = false,
  ) {}

  /** True once some bytes of a response arrived (a reused connection that fails before is retried). */
  get started(): boolean {
    return this.pending !== undefined || this.head !== undefined;
  }

  /** Feeds bytes; returns the response once complete. Throws on a malformed head. */
  push(chunk: Buffer): ReadResponse | undefined {
    let buf = this.pending ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = undefined;
    while (!this.head) {
      // The head is looked for in a latin1 string of what arrived: a string search is one builtin call,
      // where Buffer.indexOf(string) goes through several helpers (this runs for every response).
      const text = buf.toString('latin1', 0, Math.min(buf.length, MAX_HEAD_BYTES + 4));
      const end = text.indexOf('\r\n\r\n');
      let informational: boolean;
      if (end >= 0) {
        informational = this.parseHead(text, end);
        buf = buf.subarray(end + 4);
      } else {
        // A head of bare LF line ends (RFC 9112 lets a recipient accept them; raw servers send them).
        const lf = text.indexOf('\n\n');
        if (lf < 0) {
          if (buf.length > MAX_HEAD_BYTES)
            throw new Error(`malformed HTTP response: head larger than ${MAX_HEAD_BYTES} bytes`);
          this.pending = buf;
          return undefined;
        }
        const head = text.slice(0, lf).replace(/\r?\n/g, '\r\n');
        informational = this.parseHead(head, head.length);
        buf = buf.subarray(lf + 2);
      }
      if (informational) this.head = undefined; // 1xx: the real response follows
    }
    this.readBody(buf);
    return this.result;
  }

  /**
   * The connection closed, or a deadline passed: a response framed by the close ends here, a cut one
   * keeps what arrived (undefined before the head).
   */
  end(): ReadResponse | undefined {
    if (this.result || !this.head) return this.result;
    this.keepAlive = false;
    this.complete();
    return this.result;
  }

  /** Parses the head, text[0, end); true for a 1xx answer (another response follows). */
  private parseHead(text: string, end: number): boolean {
    // Line by line with indexOf: no array of lines (this runs for every response of a scan).
    let eol = text.indexOf('\r\n');
    if (eol < 0 || eol > end) eol = end;
    const { version, status, statusText } = statusLineOf(text, eol);
    const headers: [string, string][] = [];
    let length: string | undefined;
    let chunked = false;
    let connection = '';
    let encoding: string | undefined;
    for (let pos = eol + 2; pos < end; pos = eol + 2) {
      eol = text.indexOf('\r\n', pos);
      if (eol < 0 || eol > end) eol = end;
      const c = text.indexOf(':', pos);
      if (c <= pos || c >= eol) continue; // no name before a colon: not a header line
      const name = text.slice(pos, c).trim();
      // The value without the space after the colon, cut once (slice then trim made two strings).
      let from = c + 1;
      let to = eol;
      while (from < to && isSpace(text.charCodeAt(from))) from++;
      while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
      const value = text.slice(from, to);
      headers.push([name, value]);
      // Only the names the framing needs are compared, picked out by their length first, and without a
      // lower-case copy of each (this runs for every header of every response).
      const n = name.length;
      if (n === 14) {
        if (sameLower(name, 'content-length')) length = value;
      } else if (n === 17) {
        if (sameLower(name, 'transfer-encoding')) chunked = /chunked/i.test(value);
      } else if (n === 10) {
        if (sameLower(name, 'connection')) connection = value.toLowerCase();
      } else if (n === 16 && encoding === undefined && sameLower(name, 'content-encoding'))
        encoding = value.toLowerCase();
    }
    if (status >= 100 && status < 200 && status !== 101) return true;
    this.head = { version, status, statusText, headers, encoding };
    this.keepAlive = version === 'HTTP/1.1' ? !connection.includes('close') : connection.includes('keep-alive');
    if (this.method === 'HEAD' || status === 204 || status === 304 || status === 101) this.framing = 'none';
    else if (chunked) this.framing = 'chunked';
    else if (length !== undefined && !this.ignoreLength && /^\d+$/.test(length)) {
      this.framing = 'length';
      this.remaining = Number(length);
    } else this.framing = 'close';
    if (this.framing === 'close') this.keepAlive = false;
    return false;
  }

  private readBody(buf: Buffer): void {
    switch (this.framing) {
      case 'none':
        if (buf.length) this.keepAlive = false; // bytes nobody asked for: do not reuse
        return this.complete();
      case 'length': {
        const take = Math.min(this.remaining, buf.length);
        this.take(buf.subarray(0, take));
        this.remaining -= take;
        if (buf.length > take) this.keepAlive = false;
        if (this.remaining === 0 || this.truncated) this.complete();
        return;
      }
      case 'close':
        this.take(buf);
        if (this.truncated) this.complete();
        return;
      case 'chunked':
        return this.readChunked(buf);
    }
  }

  private readChunked(buf: Buffer): void {
    let pos = 0;
    while (pos < buf.length && !this.result) {
      if (this.chunkState === 'size' || this.chunkState === 'trailers') {
        const nl = crlf(buf, pos);
        if (nl < 0) {
          this.pending = buf.subarray(pos);
          if (this.pending.length > MAX_HEAD_BYTES)
            throw new Error('malformed HTTP response: chunk size line too long');
          return;
        }
        const start = pos;
        pos = nl + 2;
        if (this.chunkState === 'trailers') {
          if (nl === start) return this.complete(pos < buf.length);
          continue;
        }
        const size = chunkSize(buf, start, nl);
        if (Number.isNaN(size)) {
          // Not chunked after all: keep what was decoded, and do not trust the connection further.
          this.keepAlive = false;
          return this.complete();
        }
        if (size === 0) this.chunkState = 'trailers';
        else {
          this.remaining = size;
          this.chunkState = 'data';
        }
      } else if (this.chunkState === 'data') {
        const take = Math.min(this.remaining, buf.length - pos);
        this.take(buf.subarray(pos, pos + take));
        if (this.truncated) return this.complete();
        pos += take;
        this.remaining -= take;
        if (this.remaining === 0) this.chunkState = 'data-crlf';
      } else {
        // The CRLF after a chunk's data (tolerate it split across reads).
        if (buf[pos] === 0x0d) pos++;
        else if (buf[pos] === 0x0a) {
          pos++;
          this.chunkState = 'size';
        } else this.chunkState = 'size';
      }
    }
  }

  private take(part: Buffer): void {
    if (part.length === 0) return;
    if (this.size + part.length > this.maxSize) {
      part = part.subarray(0, this.maxSize - this.size);
      this.truncated = true;
      this.keepAlive = false;
    }
    this.parts.push(part);
    this.size += part.length;
  }

  private complete(extraBytes = false): void {
    if (this.result || !this.head) return;
    const body = this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts);
    const h = this.head;
    this.result = {
      version: h.version,
      status: h.status,
      statusText: h.statusText,
      headers: h.headers,
      body,
      reusable: this.keepAlive && !extraBytes,
      truncated: this.truncated,
      duration: 0,
      encoding: h.encoding,
    };
  }
}

/** name.toLowerCase() === lower, for a lower-case ASCII `lower` of the same length, without the copy. */
function sameLower(name: string, lower: string): boolean {
  for (let i = 0; i < lower.length; i++) {
    const c = name.charCodeAt(i);
    if (c !== lower.charCodeAt(i) && (c < 65 || c > 90 || c + 32 !== lower.charCodeAt(i))) return false;
  }
  return true;
}

/** What String.prototype.trim removes from a latin1 string (a lone CR or LF can sit in a header line). */
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0;
}

const STATUS_LINE = /^(HTTP\/\d(?:\.\d)?)\s+(\d{3})\s?(.*)$/;

/**
 * The version, status and reason of the status line text[0, eol). The usual `HTTP/1.1 200 OK` is read
 * by position (no match array, the version a constant); anything else goes through the regex.
 */
function statusLineOf(text: string, eol: number): { version: string; status: number; statusText: string } {
  if (eol >= 12 && text.startsWith('HTTP/1.1 ') && (eol === 12 || text.charCodeAt(12) === 32)) {
    const a = text.charCodeAt(9) - 48;
    const b = text.charCodeAt(10) - 48;
    const c = text.charCodeAt(11) - 48;
    const reason = eol > 13 ? text.slice(13, eol) : '';
    // (a lone CR or LF in the reason fails the regex, as it always did)
    if (a >= 0 && a <= 9 && b >= 0 && b <= 9 && c >= 0 && c <= 9 && !/[\r\n]/.test(reason))
      return { version: 'HTTP/1.1', status: a * 100 + b * 10 + c, statusText: reason };
  }
  const statusLine = text.slice(0, eol);
  const m = STATUS_LINE.exec(statusLine);
  if (!m) throw new Error(`malformed HTTP response status line: ${JSON.stringify(statusLine.slice(0, 80))}`);
  return { version: m[1]!, status: Number(m[2]), statusText: m[3] ?? '' };
}

/**
 * The size a chunk-size line [start, end) gives (hex, then maybe `;extensions`), NaN when it gives none.
 * Plain hex digits, the usual line, are read from the bytes; anything else goes through parseInt.
 */
function chunkSize(buf: Buffer, start: number, end: number): number {
  if (end - start <= 8) {
    let size = 0;
    let i = start;
    for (; i < end; i++) {
      const c = buf[i]!;
      const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
      if (d < 0) break;
      size = size * 16 + d;
    }
    if (i === end && end > start) return size;
  }
  return parseInt(buf.toString('latin1', start, end).split(';', 1)[0]!.trim(), 16);
}

/** Where the first CRLF at or after `from` starts, or -1: chunk-size lines are a few bytes long. */
function crlf(buf: Buffer, from: number): number {
  for (let i = from; i + 1 < buf.length; i++) if (buf[i] === 13 && buf[i + 1] === 10) return i;
  return -1;
}
