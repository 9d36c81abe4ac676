// Encoding and conversion helpers: base64 variants, URL and HTML escaping, hex, number bases, JSON,
// IP formats, struct unpacking and xor.
import { lazy } from '../../lazy.ts';

const entities = lazy<typeof import('entities')>('entities');
import { DslError } from '../errors.ts';
import { atoi, fromBytes, toBool, toBytes, toStr } from '../values.ts';
import { define, invalid } from './registry.ts';
import { goJsonMarshal, goJsonIndent } from './gojson.ts';
import { ipFormat } from './ipformat.ts';

/** Go's base64.StdEncoding.DecodeString: padding required, CR/LF ignored, anything else is an error. */
export function goBase64Decode(input: string): Buffer {
  const s = input.replace(/[\r\n]/g, '');
  if (s.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(={0,2})$/.test(s) || /=[^=]/.test(s)) {
    throw new DslError(`illegal base64 data at input byte ${firstBadBase64(s)}`);
  }
  return Buffer.from(s, 'base64');
}

function firstBadBase64(s: string): number {
  const i = s.search(/[^A-Za-z0-9+/=]/);
  return i >= 0 ? i : s.length - (s.length % 4);
}

export function goHexDecode(s: string): Buffer {
  const bad = s.search(/[^0-9a-fA-F]/);
  if (bad >= 0)
    throw new DslError(
      `encoding/hex: invalid byte: U+${s.charCodeAt(bad).toString(16).toUpperCase().padStart(4, '0')} '${s[bad]}'`,
    );
  if (s.length % 2 !== 0) throw new DslError('encoding/hex: odd length hex string');
  return Buffer.from(s, 'hex');
}

function urlEncode(s: string, all: boolean): string {
  let out = '';
  for (const ch of s) {
    const keep = /[A-Za-z0-9]/.test(ch) || (!all && /[-_.!~*'()]/.test(ch));
    if (keep) out += ch;
    else for (const b of Buffer.from(ch, 'utf8')) out += '%' + b.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function urlDecode(s: string): string | Buffer {
  const src = Buffer.from(s, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < src.length; i++) {
    if (src[i] === 0x25 && i + 2 < src.length) {
      const hex = src.subarray(i + 1, i + 3).toString('latin1');
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        out.push(Number.parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    out.push(src[i]);
  }
  return fromBytes(Buffer.from(out));
}

function numberFromString(input: string, prefix: string, base: number): number {
  let s = input;
  let b = base;
  if (s.startsWith(prefix)) {
    s = s.slice(prefix.length);
    b = base;
  }
  const digits = b === 16 ? /^[+-]?[0-9a-fA-F]+$/ : b === 8 ? /^[+-]?[0-7]+$/ : /^[+-]?[01]+$/;
  if (!digits.test(s)) throw new DslError(`invalid number: ${input}`);
  const v = BigInt.asIntN(
    64,
    BigInt((s.startsWith('-') ? '-' : '') + (b === 16 ? '0x' : b === 8 ? '0o' : '0b') + s.replace(/^[+-]/, '')),
  );
  return Number(v);
}

/** Python struct.unpack of one value (the dsl function unpacks only the first). */
function unpack(format: string, data: Buffer): number | string | boolean {
  let little = true;
  let i = 0;
  if ('<>!=@'.includes(format[0] ?? '')) {
    little = format[0] === '<' || format[0] === '=' || format[0] === '@';
    i = 1;
  }
  const code = format[i];
  const need = (n: number) => {
    if (data.length < n) throw new DslError(`unpack: need ${n} bytes, got ${data.length}`);
  };
  switch (code) {
    case 'b':
      need(1);
      return data.readInt8(0);
    case 'B':
      need(1);
      return data.readUInt8(0);
    case 'c':
      need(1);
      return data.subarray(0, 1).toString('latin1');
    case '?':
      need(1);
      return data[0] !== 0;
    case 'h':
      need(2);
      return little ? data.readInt16LE(0) : data.readInt16BE(0);
    case 'H':
      need(2);
      return little ? data.readUInt16LE(0) : data.readUInt16BE(0);
    case 'i':
    case 'l':
      need(4);
      return little ? data.readInt32LE(0) : data.readInt32BE(0);
    case 'I':
    case 'L':
      need(4);
      return little ? data.readUInt32LE(0) : data.readUInt32BE(0);
    case 'q':
      need(8);
      return Number(little ? data.readBigInt64LE(0) : data.readBigInt64BE(0));
    case 'Q':
      need(8);
      return Number(little ? data.readBigUInt64LE(0) : data.readBigUInt64BE(0));
    case 'f':
      need(4);
      return little ? data.readFloatLE(0) : data.readFloatBE(0);
    case 'd':
      need(8);
      return little ? data.readDoubleLE(0) : data.readDoubleBE(0);
    default:
      throw new DslError(`unpack: unsupported format '${format}'`);
  }
}

export function registerEncoding(): void {
  define('base64', 1, ([s]) => toBytes(s).toString('base64'));
  define('base64_decode', 1, ([s]) => fromBytes(goBase64Decode(toStr(s))));
  define('base64_py', 1, ([s]) => {
    const b64 = toBytes(s).toString('base64');
    return (b64.match(/.{1,76}/g) ?? []).join('\n') + '\n';
  });
  define('url_encode', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('url_encode');
    const all = a.length > 1 && (a[1] === true || a[1] === 1);
    return urlEncode(toStr(a[0]), all);
  });
  define('url_decode', 1, ([s]) => urlDecode(toStr(s)));
  define('hex_encode', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('hex_encode');
    // Only text and bytes are encoded; other values give "" (projectdiscovery/utils hex.Encode).
    if (typeof a[0] !== 'string' && !(a[0] instanceof Uint8Array)) return '';
    const hex = toBytes(a[0]).toString('hex');
    const format = a.length === 2 ? toStr(a[1]).toLowerCase() : '';
    return format === 'x' ? hex.replace(/(..)/g, '\\x$1') : hex;
  });
  define('hex_decode', 1, ([s]) => fromBytes(goHexDecode(toStr(s))));
  define('html_escape', undefined, (a) => {
    if (a.length < 1 || a.length > 2) throw invalid('html_escape');
    const s = toStr(a[0]);
    if (a.length > 1 && toBool(a[1])) {
      // Every character becomes an entity: named where HTML has one, else numeric.
      return Array.from(s)
        .map((ch) => {
          const named = entities().encodeHTML(ch);
          return named !== ch ? named : `&#${ch.codePointAt(0)};`;
        })
        .join('');
    }
    return entities().encodeHTML(s);
  });
  define('html_unescape', 1, ([s]) => entities().decodeHTML(toStr(s)));
  define('dec_to_hex', 1, ([n]) => {
    if (typeof n !== 'number') throw new DslError(`dec_to_hex: invalid number: ${typeof n}`);
    return BigInt.asIntN(64, BigInt(Math.trunc(n))).toString(16);
  });
  define('hex_to_dec', 1, ([s]) => numberFromString(toStr(s), '0x', 16));
  define('oct_to_dec', 1, ([s]) => numberFromString(toStr(s), '0o', 8));
  define('bin_to_dec', 1, ([s]) => numberFromString(toStr(s), '0b', 2));
  define('json_minify', 1, ([s]) => {
    let data: unknown;
    try {
      data = JSON.parse(toStr(s));
    } catch (e) {
      throw new DslError(`json_minify: ${(e as Error).message}`);
    }
    if (!data || typeof data !== 'object' || Array.isArray(data))
      throw new DslError('json_minify: input is not a JSON object');
    return goJsonMarshal(data);
  });
  define('json_prettify', 1, ([s]) => goJsonIndent(toStr(s), '    '));
  define('ip_format', 2, ([ip, f]) => {
    const format = atoi(f);
    if (format === undefined) throw new DslError(`ip_format: invalid format '${toStr(f)}'`);
    if (format <= 0 || format > 11) throw new DslError('ip_format: invalid format, format must be in range 1-11');
    return ipFormat(toStr(ip), format);
  });
  define('unpack', 2, ([f, d]) => {
    if (typeof f !== 'string') throw new DslError('unpack: invalid format');
    if (typeof d !== 'string' && !(d instanceof Uint8Array)) throw new DslError('unpack: invalid data');
    return unpack(f, toBytes(d));
  });
  define('xor', undefined, (a) => {
    if (a.length < 2) throw new DslError('xor: at least two arguments needed');
    const bufs = a.map((x) => {
      if (typeof x !== 'string' && !(x instanceof Uint8Array))
        throw new DslError(`xor: invalid argument type ${typeof x}`);
      return toBytes(x);
    });
    const n = bufs[0].length;
    if (bufs.some((b) => b.length !== n)) throw new DslError('xor: all arguments must have the same length');
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) for (const b of bufs) out[i] ^= b[i];
    return out;
  });
}
