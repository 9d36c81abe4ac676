// Content-Encoding: the body as the clients hand it on, decoded within the response size cap.
import { zlib } from '../../lazy.ts';

/**
 * Decompresses a body (`encoding` in lower case), never past `limit` bytes: any scanned site can send a
 * 1 MB gzip bomb that inflates to 1 GB. A body that would inflate past the limit (or does not decode) is
 * kept as received.
 */
export function decode(body: Buffer, encoding: string, limit: number): Buffer {
  const opts = { maxOutputLength: Math.max(1, limit) };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return zlib().gunzipSync(body, opts);
    if (encoding === 'deflate') return zlib().inflateSync(body, opts);
    if (encoding === 'br') return zlib().brotliDecompressSync(body, opts);
  } catch {
    // Too large or not compressed after all: the bytes as received.
  }
  return body;
}

/** The body decoded when the response names a Content-Encoding, else as received. */
export function decodedBody(headers: [string, string][], body: Buffer, limit: number): Buffer {
  for (let i = 0; i < headers.length; i++) {
    const k = headers[i]![0];
    if (k.length === 16 && k.toLowerCase() === 'content-encoding')
      return decode(body, headers[i]![1].toLowerCase(), limit);
  }
  return body;
}
