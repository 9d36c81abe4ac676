// nuclei/structs (pkg/js/libs/structs, over gostruct): Pack(format, values) -> bytes, Unpack(format,
// bytes) -> values, StructsCalcSize(format), with Python struct's format letters: byte order `<` (the
// default), `>` or `!`; x (pad), c, b/B, ?, h/H, i/I, l/L, q/Q (8 bytes, as numbers or decimal text),
// f, d, and `Ns` (a string of N bytes). A count before any other letter repeats it.
import { bytesOf, type HostOp } from '../host.ts';

interface Item {
  code: string;
  count: number;
}

const SIZES: Record<string, number> = {
  x: 1,
  c: 1,
  b: 1,
  B: 1,
  '?': 1,
  h: 2,
  H: 2,
  i: 4,
  I: 4,
  l: 4,
  L: 4,
  q: 8,
  Q: 8,
  f: 4,
  d: 8,
  s: 1,
};

function parse(format: string): { little: boolean; items: Item[] } {
  let little = true;
  const items: Item[] = [];
  const re = /(\d*)(.)/gs;
  for (const m of format.matchAll(re)) {
    const code = m[2]!;
    if (code === ' ') continue;
    if (code === '<' || code === '=' || code === '@') little = true;
    else if (code === '>' || code === '!') little = false;
    else if (SIZES[code] !== undefined) items.push({ code, count: m[1] ? Number(m[1]) : 1 });
    else throw new Error(`unsupported struct format character '${code}'`);
  }
  return { little, items };
}

export function calcSize(format: string): number {
  return parse(format).items.reduce((n, i) => n + SIZES[i.code]! * i.count, 0);
}

export function pack(format: string, values: unknown): Buffer {
  const { little, items } = parse(format);
  const args = Array.isArray(values) ? values : [values];
  const out = Buffer.alloc(calcSize(format));
  let at = 0;
  let k = 0;
  const next = () => {
    if (k >= args.length) throw new Error('struct.pack: not enough values for the format');
    return args[k++];
  };
  for (const it of items) {
    if (it.code === 's') {
      bytesOf(next()).copy(out, at, 0, it.count);
      at += it.count;
      continue;
    }
    for (let r = 0; r < it.count; r++) {
      const size = SIZES[it.code]!;
      if (it.code === 'x') {
        at += 1;
        continue;
      }
      const v = next();
      switch (it.code) {
        case 'c':
          bytesOf(v).copy(out, at, 0, 1);
          break;
        case '?':
          out[at] = v ? 1 : 0;
          break;
        case 'b':
          out.writeInt8(toInt(v, -128, 127), at);
          break;
        case 'B':
          out.writeUInt8(toInt(v, 0, 255), at);
          break;
        case 'h':
          little ? out.writeInt16LE(toInt(v, -32768, 32767), at) : out.writeInt16BE(toInt(v, -32768, 32767), at);
          break;
        case 'H':
          little ? out.writeUInt16LE(toInt(v, 0, 65535), at) : out.writeUInt16BE(toInt(v, 0, 65535), at);
          break;
        case 'i':
        case 'l':
          little
            ? out.writeInt32LE(toInt(v, -(2 ** 31), 2 ** 31 - 1), at)
            : out.writeInt32BE(toInt(v, -(2 ** 31), 2 ** 31 - 1), at);
          break;
        case 'I':
        case 'L':
          little ? out.writeUInt32LE(toInt(v, 0, 2 ** 32 - 1), at) : out.writeUInt32BE(toInt(v, 0, 2 ** 32 - 1), at);
          break;
        case 'q':
          little ? out.writeBigInt64LE(BigInt(String(v)), at) : out.writeBigInt64BE(BigInt(String(v)), at);
          break;
        case 'Q':
          little ? out.writeBigUInt64LE(BigInt(String(v)), at) : out.writeBigUInt64BE(BigInt(String(v)), at);
          break;
        case 'f':
          little ? out.writeFloatLE(Number(v), at) : out.writeFloatBE(Number(v), at);
          break;
        case 'd':
          little ? out.writeDoubleLE(Number(v), at) : out.writeDoubleBE(Number(v), at);
          break;
      }
      at += size;
    }
  }
  return out;
}

function toInt(v: unknown, min: number, max: number): number {
  const n = Math.trunc(Number(v));
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`struct.pack: ${String(v)} is out of range`);
  return n;
}

export function unpack(format: string, data: Buffer): unknown[] {
  const { little, items } = parse(format);
  const need = calcSize(format);
  if (data.length < need) throw new Error(`struct.unpack: needs ${need} bytes, got ${data.length}`);
  const out: unknown[] = [];
  let at = 0;
  for (const it of items) {
    if (it.code === 's') {
      out.push(data.subarray(at, at + it.count).toString('latin1'));
      at += it.count;
      continue;
    }
    for (let r = 0; r < it.count; r++) {
      switch (it.code) {
        case 'x':
          break;
        case 'c':
          out.push(data.subarray(at, at + 1).toString('latin1'));
          break;
        case '?':
          out.push(data[at] !== 0);
          break;
        case 'b':
          out.push(data.readInt8(at));
          break;
        case 'B':
          out.push(data.readUInt8(at));
          break;
        case 'h':
          out.push(little ? data.readInt16LE(at) : data.readInt16BE(at));
          break;
        case 'H':
          out.push(little ? data.readUInt16LE(at) : data.readUInt16BE(at));
          break;
        case 'i':
        case 'l':
          out.push(little ? data.readInt32LE(at) : data.readInt32BE(at));
          break;
        case 'I':
        case 'L':
          out.push(little ? data.readUInt32LE(at) : data.readUInt32BE(at));
          break;
        case 'q':
          out.push(Number(little ? data.readBigInt64LE(at) : data.readBigInt64BE(at)));
          break;
        case 'Q':
          out.push(Number(little ? data.readBigUInt64LE(at) : data.readBigUInt64BE(at)));
          break;
        case 'f':
          out.push(little ? data.readFloatLE(at) : data.readFloatBE(at));
          break;
        case 'd':
          out.push(little ? data.readDoubleLE(at) : data.readDoubleBE(at));
          break;
      }
      at += SIZES[it.code]!;
    }
  }
  return out;
}

export const structsOps: Record<string, HostOp> = {
  'structs.Pack': (_env, [f, v]) => pack(String(f), v),
  'structs.Unpack': (_env, [f, d]) => unpack(String(f), bytesOf(d)),
  'structs.StructsCalcSize': (_env, [f]) => calcSize(String(f)),
};
