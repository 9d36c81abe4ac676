// Conversions between DSL values that mimic the Go implementation: numbers are doubles, strings are
// text, byte results that are not valid UTF-8 travel as Buffers (Go []byte / raw strings).
import { DslError } from './errors.ts';

export type Vars = Record<string, unknown>;

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Bytes back to a DSL value: text when the bytes are valid UTF-8, else the Buffer itself. */
export function fromBytes(buf: Uint8Array): string | Buffer {
  try {
    return utf8.decode(buf);
  } catch {
    return Buffer.from(buf);
  }
}

/** The bytes Go would see for a value ([]byte(toString(v))). */
export function toBytes(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v);
  return Buffer.from(toStr(v), 'utf8');
}

/** strconv.FormatFloat(f, 'f', -1, 64): never exponent notation. */
export function formatFloatF(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (Object.is(n, -0)) return '0';
  const s = String(n);
  if (!/e/i.test(s)) return s;
  // Expand exponent form exactly from the shortest digits JS gives us.
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!m) return s;
  const [, sign, d1, rest = '', expS] = m;
  const digits = d1 + rest;
  const exp = Number(expS);
  const point = 1 + exp;
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return sign + digits + '0'.repeat(point - digits.length);
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}

/** fmt.Sprint / %v of a float64: shortest 'g' form, exponent when exp < -4 || exp >= 6 (Go prints 1e+06). */
export function formatFloatV(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mant, ex] = n.toExponential().split('e');
  const ev = Number(ex);
  if (ev < -4 || ev >= 6) {
    const abs = Math.abs(ev);
    return `${mant}e${ev < 0 ? '-' : '+'}${abs < 10 ? '0' + abs : abs}`;
  }
  return formatFloatF(n);
}

/** The dsl package's toString(): what functions see when they read an argument as text. */
export function toStr(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return formatFloatF(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return v.toString('latin1');
  if (v instanceof Uint8Array) return Buffer.from(v).toString('latin1');
  return sprint(v);
}

/** fmt.Sprint (%v) formatting: used by govaluate's string concatenation and mmh3. */
export function sprint(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (typeof v === 'number') return formatFloatV(v);
  if (Array.isArray(v)) return '[' + v.map(sprint).join(' ') + ']';
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return toStr(v);
  if (typeof v === 'object') {
    const entries = Object.keys(v as object)
      .sort()
      .map((k) => `${k}:${sprint((v as Record<string, unknown>)[k])}`);
    return 'map[' + entries.join(' ') + ']';
  }
  return toStr(v);
}

/** Text form of a value for concatenation: keeps raw bytes when either side is binary. */
export function isBytes(v: unknown): v is Uint8Array {
  return v instanceof Uint8Array;
}

export function toNumberArg(v: unknown, fn: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && v.trim() !== '' && !Number.isNaN(Number(v))) return Number(v);
  throw new DslError(`${fn}: argument '${toStr(v)}' is not a number`);
}

/** Go's strconv.Atoi on toString(v): integer text only. */
export function atoi(v: unknown): number | undefined {
  const s = toStr(v);
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  return Number.parseInt(s, 10);
}

/** The dsl package's toBool. */
export function toBool(v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const s = toStr(v).trim().toLowerCase();
  return s === 'true' || s === '1' || s === 't' || s === 'yes' || s === 'y' || s === 'on';
}

/** reflect.DeepEqual-like equality used by == and IN. */
export function valuesEqual(a: unknown, b: unknown): boolean {
  if (isBytes(a) || isBytes(b)) {
    if ((isBytes(a) || typeof a === 'string') && (isBytes(b) || typeof b === 'string')) {
      return toBytes(a).equals(toBytes(b));
    }
    return false;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => valuesEqual(x, b[i]));
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => valuesEqual((a as never)[k], (b as never)[k]));
  }
  return a === b || (a == null && b == null);
}
