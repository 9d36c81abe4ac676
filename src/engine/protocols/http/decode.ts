// Content-Encoding: the body as the clients hand it on, decoded within the response size cap.
import { lazy } from '../../lazy.ts';
// Loaded by the first encoded body: most scans never see one.
const zlib = lazy<typeof import('node:zlib')>('node:zlib');

/**
 * Decompresses a body, never past `limit` bytes: any scanned site can send a 1 MB gzip bomb that
 * inflates to 1 GB. A body that would inflate past the limit (or does not decode) is kept as received.
 */
function decode(body: Buffer, encoding: string | undefined, limit: number): Buffer {
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
  let enc: string | undefined;
  for (const [k, v] of headers) if (k.length === 16 && k.toLowerCase() === 'content-encoding') { enc = v; break; }
  return enc ? decode(body, enc.toLowerCase(), limit) : body;
}
