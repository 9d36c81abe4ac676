// gzip / zlib / raw deflate and zip archives. Output bytes decompress to the same data as Go's, but the
// compressed bytes themselves come from zlib, not Go's compress/flate. Reads are capped at 10 MiB by
// default, like the Go library, and truncated (not failed) at the limit.
import { lazy, zlib } from '../../lazy.ts';

const fflate = lazy<typeof import('fflate')>('fflate');
import { DslError } from '../errors.ts';
import { fromBytes, toBytes, toStr } from '../values.ts';
import { define, invalid } from './registry.ts';

export const MAX_DECOMPRESSION = 10 * 1024 * 1024;

function gzipGo(data: Buffer): Buffer {
  const out = zlib().gzipSync(data);
  out[8] = 0; // XFL
  out[9] = 0xff; // OS unknown, as Go writes
  return out;
}

function readLimit(a: unknown[]): number {
  return a.length > 1 && typeof a[1] === 'number' ? Math.max(0, Math.trunc(a[1])) : MAX_DECOMPRESSION;
}

function decompress(kind: 'gunzip' | 'inflate' | 'inflateRaw', data: Buffer, limit: number): Buffer {
  const opts = { finishFlush: zlib().constants.Z_SYNC_FLUSH, maxOutputLength: Math.max(limit, 1) + MAX_DECOMPRESSION };
  let out: Buffer;
  try {
    out =
      kind === 'gunzip'
        ? zlib().gunzipSync(data, opts)
        : kind === 'inflate'
          ? zlib().inflateSync(data, opts)
          : zlib().inflateRawSync(data, opts);
  } catch (e) {
    throw new DslError(`${kind}: ${(e as Error).message}`);
  }
  return out.subarray(0, limit);
}

export function registerCompression(): void {
  define('gzip', 1, ([s]) => fromBytes(gzipGo(toBytes(s))));
  define('zlib', 1, ([s]) => fromBytes(zlib().deflateSync(toBytes(s))));
  define('deflate', 1, ([s]) => fromBytes(zlib().deflateRawSync(toBytes(s))));
  define('gzip_decode', undefined, (a) => {
    if (a.length === 0) throw invalid('gzip_decode');
    return fromBytes(decompress('gunzip', toBytes(a[0]), readLimit(a)));
  });
  define('zlib_decode', undefined, (a) => {
    if (a.length === 0) throw invalid('zlib_decode');
    return fromBytes(decompress('inflate', toBytes(a[0]), readLimit(a)));
  });
  define('inflate', undefined, (a) => {
    if (a.length === 0) throw invalid('inflate');
    return fromBytes(decompress('inflateRaw', toBytes(a[0]), readLimit(a)));
  });
  define('gzip_mtime', 1, ([s]) => {
    const b = toBytes(s);
    if (b.length < 10 || b[0] !== 0x1f || b[1] !== 0x8b) throw new DslError('gzip_mtime: gzip: invalid header');
    return b.readUInt32LE(4);
  });
  define('zip', undefined, (a) => {
    if (a.length === 0 || a.length % 2 !== 0)
      throw new DslError('zip function requires pairs of file entry and content');
    const files: Record<string, Uint8Array> = {};
    for (let i = 0; i < a.length; i += 2) {
      if (typeof a[i] !== 'string') throw new DslError('zip: file entry must be a string');
      if (typeof a[i + 1] !== 'string' && !(a[i + 1] instanceof Uint8Array))
        throw new DslError('zip: content must be a string');
      files[toStr(a[i])] =
        a[i + 1] instanceof Uint8Array ? (a[i + 1] as Uint8Array) : fflate().strToU8(a[i + 1] as string);
    }
    return Buffer.from(fflate().zipSync(files, { level: 6, mtime: new Date('1980-01-01T00:00:00Z') }));
  });
}
