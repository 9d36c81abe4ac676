// JARM active TLS fingerprint (salesforce/jarm v1.0): ten crafted ClientHellos, the server's answers
// reduced to cipher, version, ALPN and extension list, then the JARM fuzzy hash. Runs in net-child.ts.
import net from 'node:net';
import { crypto } from '../../lazy.ts';

type Probe = {
  version: 'TLS_1.1' | 'TLS_1.2' | 'TLS_1.3';
  ciphers: 'ALL' | 'NO1.3';
  order: string;
  grease: boolean;
  rareAlpn: boolean;
  support: '1.2_SUPPORT' | '1.3_SUPPORT' | 'NO_SUPPORT';
  extOrder: string;
};

const PROBES: Probe[] = [
  {
    version: 'TLS_1.2',
    ciphers: 'ALL',
    order: 'FORWARD',
    grease: false,
    rareAlpn: false,
    support: '1.2_SUPPORT',
    extOrder: 'REVERSE',
  },
  {
    version: 'TLS_1.2',
    ciphers: 'ALL',
    order: 'REVERSE',
    grease: false,
    rareAlpn: false,
    support: '1.2_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.2',
    ciphers: 'ALL',
    order: 'TOP_HALF',
    grease: false,
    rareAlpn: false,
    support: 'NO_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.2',
    ciphers: 'ALL',
    order: 'BOTTOM_HALF',
    grease: false,
    rareAlpn: true,
    support: 'NO_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.2',
    ciphers: 'ALL',
    order: 'MIDDLE_OUT',
    grease: true,
    rareAlpn: true,
    support: 'NO_SUPPORT',
    extOrder: 'REVERSE',
  },
  {
    version: 'TLS_1.1',
    ciphers: 'ALL',
    order: 'FORWARD',
    grease: false,
    rareAlpn: false,
    support: 'NO_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.3',
    ciphers: 'ALL',
    order: 'FORWARD',
    grease: false,
    rareAlpn: false,
    support: '1.3_SUPPORT',
    extOrder: 'REVERSE',
  },
  {
    version: 'TLS_1.3',
    ciphers: 'ALL',
    order: 'REVERSE',
    grease: false,
    rareAlpn: false,
    support: '1.3_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.3',
    ciphers: 'NO1.3',
    order: 'FORWARD',
    grease: false,
    rareAlpn: false,
    support: '1.3_SUPPORT',
    extOrder: 'FORWARD',
  },
  {
    version: 'TLS_1.3',
    ciphers: 'ALL',
    order: 'MIDDLE_OUT',
    grease: true,
    rareAlpn: false,
    support: '1.3_SUPPORT',
    extOrder: 'REVERSE',
  },
];

const ALL_CIPHERS =
  '0016 0033 0067 c09e c0a2 009e 0039 006b c09f c0a3 009f 0045 00be 0088 00c4 009a c008 c009 c023 c0ac c0ae c02b c00a c024 c0ad c0af c02c c072 c073 cca9 1302 1301 cc14 c007 c012 c013 c027 c02f c014 c028 c030 c060 c061 c076 c077 cca8 1305 1304 1303 cc13 c011 000a 002f 003c c09c c0a0 009c 0035 003d c09d c0a1 009d 0041 00ba 0084 00c0 0007 0004 0005'.split(
    ' ',
  );
const TLS13_CIPHERS = new Set(['1301', '1302', '1303', '1304', '1305']);
// Order used by the fuzzy hash: a cipher's 1-based position here, in hex.
const HASH_CIPHERS =
  '0004 0005 0007 000a 0016 002f 0033 0035 0039 003c 003d 0041 0045 0067 006b 0084 0088 009a 009c 009d 009e 009f 00ba 00be 00c0 00c4 c007 c008 c009 c00a c011 c012 c013 c014 c023 c024 c027 c028 c02b c02c c02f c030 c060 c061 c072 c073 c076 c077 c09c c09d c09e c09f c0a0 c0a1 c0a2 c0a3 c0ac c0ad c0ae c0af cc13 cc14 cca8 cca9 1301 1302 1303 1304 1305'.split(
    ' ',
  );

const ascii = (s: string) => Buffer.concat([Buffer.from([s.length]), Buffer.from(s)]);
// As in the reference implementation, "spdy/3" and "h2" form a single list entry.
const ALPNS = [
  ascii('http/0.9'),
  ascii('http/1.0'),
  ascii('http/1.1'),
  ascii('spdy/1'),
  ascii('spdy/2'),
  Buffer.concat([ascii('spdy/3'), ascii('h2')]),
  ascii('h2c'),
  ascii('hq'),
];
const RARE_ALPNS = [
  ascii('http/0.9'),
  ascii('http/1.0'),
  ascii('spdy/1'),
  ascii('spdy/2'),
  ascii('spdy/3'),
  ascii('h2c'),
  ascii('hq'),
];

function grease(): Buffer {
  const b = (crypto().randomInt(16) << 4) | 0x0a;
  return Buffer.from([b, b]);
}

const u16 = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);

export function mung<T>(items: T[], how: string): T[] {
  const n = items.length;
  const half = Math.floor(n / 2);
  switch (how) {
    case 'REVERSE':
      return [...items].reverse();
    case 'BOTTOM_HALF':
      return n % 2 === 1 ? items.slice(half + 1) : items.slice(half);
    case 'TOP_HALF':
      return [...(n % 2 === 1 ? [items[half]] : []), ...mung(mung(items, 'REVERSE'), 'BOTTOM_HALF')];
    case 'MIDDLE_OUT': {
      const out: T[] = [];
      if (n % 2 === 1) {
        out.push(items[half]);
        for (let i = 1; i <= half; i++) out.push(items[half + i], items[half - i]);
      } else {
        for (let i = 1; i <= half; i++) out.push(items[half - 1 + i], items[half - i]);
      }
      return out;
    }
    default:
      return items;
  }
}

function extensions(host: string, p: Probe): Buffer {
  const parts: Buffer[] = [];
  if (p.grease) parts.push(grease(), Buffer.from([0, 0]));
  const name = Buffer.from(host);
  parts.push(Buffer.from([0, 0]), u16(name.length + 5), u16(name.length + 3), Buffer.from([0]), u16(name.length), name);
  parts.push(Buffer.from('00170000', 'hex'), Buffer.from('0001000101', 'hex'), Buffer.from('ff01000100', 'hex'));
  parts.push(
    Buffer.from('000a000a0008001d001700180019', 'hex'),
    Buffer.from('000b00020100', 'hex'),
    Buffer.from('00230000', 'hex'),
  );
  let alpns = p.rareAlpn ? RARE_ALPNS : ALPNS;
  if (p.extOrder !== 'FORWARD') alpns = mung(alpns, p.extOrder);
  const alpnBytes = Buffer.concat(alpns);
  parts.push(Buffer.from([0, 0x10]), u16(alpnBytes.length + 2), u16(alpnBytes.length), alpnBytes);
  parts.push(Buffer.from('000d00140012040308040401050308050501080606010201', 'hex'));
  const share = Buffer.concat([
    p.grease ? Buffer.concat([grease(), Buffer.from([0, 1, 0])]) : Buffer.alloc(0),
    Buffer.from('001d0020', 'hex'),
    crypto().randomBytes(32),
  ]);
  parts.push(Buffer.from([0, 0x33]), u16(share.length + 2), u16(share.length), share);
  parts.push(Buffer.from('002d00020101', 'hex'));
  if (p.version === 'TLS_1.3' || p.support === '1.2_SUPPORT') {
    let versions = p.support === '1.2_SUPPORT' ? ['0301', '0302', '0303'] : ['0301', '0302', '0303', '0304'];
    if (p.extOrder !== 'FORWARD') versions = mung(versions, p.extOrder);
    const v = Buffer.concat([p.grease ? grease() : Buffer.alloc(0), ...versions.map((x) => Buffer.from(x, 'hex'))]);
    parts.push(Buffer.from([0, 0x2b]), u16(v.length + 1), Buffer.from([v.length]), v);
  }
  const all = Buffer.concat(parts);
  return Buffer.concat([u16(all.length), all]);
}

export function clientHello(host: string, p: Probe): Buffer {
  const recordVersion = p.version === 'TLS_1.1' ? '0302' : p.version === 'TLS_1.2' ? '0303' : '0301';
  const helloVersion = p.version === 'TLS_1.1' ? '0302' : '0303';
  let ciphers = p.ciphers === 'ALL' ? ALL_CIPHERS : ALL_CIPHERS.filter((c) => !TLS13_CIPHERS.has(c));
  if (p.order !== 'FORWARD') ciphers = mung(ciphers, p.order);
  const cipherBytes = Buffer.concat([...(p.grease ? [grease()] : []), ...ciphers.map((c) => Buffer.from(c, 'hex'))]);
  const body = Buffer.concat([
    Buffer.from(helloVersion, 'hex'),
    crypto().randomBytes(32),
    Buffer.from([32]),
    crypto().randomBytes(32),
    u16(cipherBytes.length),
    cipherBytes,
    Buffer.from([1, 0]),
    extensions(host, p),
  ]);
  const handshake = Buffer.concat([Buffer.from([1, 0]), u16(body.length), body]);
  return Buffer.concat([Buffer.from('16' + recordVersion, 'hex'), u16(handshake.length), handshake]);
}

/** Decode one ServerHello into "cipher|version|alpn|ext-ext-..." ("|||" when there is none). */
export function readServerHello(data: Buffer | null): string {
  try {
    if (!data || data.length === 0) return '|||';
    if (data[0] === 21) return '|||';
    if (!(data[0] === 22 && data[5] === 2)) return '|||';
    const at = (i: number) => {
      if (i >= data.length) throw new RangeError('short');
      return data[i];
    };
    const counter = at(43);
    const cipher = data.subarray(counter + 44, counter + 46).toString('hex');
    const version = data.subarray(9, 11).toString('hex');
    return `${cipher}|${version}|${extensionInfo(data, counter, at)}`;
  } catch {
    return '|||';
  }
}

function extensionInfo(data: Buffer, counter: number, at: (i: number) => number): string {
  try {
    if (at(counter + 47) === 11) return '|||';
    if (
      data.subarray(counter + 50, counter + 53).toString('hex') === '0eac0b' ||
      data.subarray(82, 85).toString('hex') === '0ff00b'
    )
      return '|||';
    let count = 49 + counter;
    const lenBytes = data.subarray(counter + 47, counter + 49);
    if (lenBytes.length === 0) throw new Error('no extension length');
    const length = Number.parseInt(lenBytes.toString('hex'), 16);
    const maximum = length + (count - 1);
    const types: Buffer[] = [];
    const values: Buffer[] = [];
    while (count < maximum) {
      types.push(data.subarray(count, count + 2));
      const l = data.subarray(count + 2, count + 4);
      if (l.length === 0) throw new Error('short extension');
      const extLen = Number.parseInt(l.toString('hex'), 16);
      values.push(data.subarray(count + 4, count + 4 + extLen));
      count += extLen + 4;
      if (count > data.length + 4 && extLen === 0) at(count); // mimic IndexError on truncated data
    }
    const i = types.findIndex((t) => t.toString('hex') === '0010');
    const alpn = i >= 0 ? values[i].subarray(3).toString('utf8') : '';
    return `${alpn}|${types.map((t) => t.toString('hex')).join('-')}`;
  } catch (e) {
    if (e instanceof RangeError) return '|||';
    throw e;
  }
}

export function jarmFuzzyHash(raw: string[]): string {
  if (raw.every((r) => r === '|||')) return '0'.repeat(62);
  let fuzzy = '';
  let rest = '';
  for (const handshake of raw) {
    const [cipher, version, alpn, exts] = handshake.split('|');
    fuzzy +=
      cipher === ''
        ? '00'
        : (HASH_CIPHERS.indexOf(cipher) < 0 ? HASH_CIPHERS.length + 1 : HASH_CIPHERS.indexOf(cipher) + 1)
            .toString(16)
            .padStart(2, '0');
    fuzzy += version === '' ? '0' : 'abcdef'[Number(version[3])];
    rest += alpn + exts;
  }
  return fuzzy + crypto().createHash('sha256').update(rest).digest('hex').slice(0, 32);
}

class Timeout extends Error {}

function probe(host: string, port: number, packet: Buffer, timeoutMs: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const sock = net.connect({ host, port });
    const done = (v: Buffer | null) => {
      sock.destroy();
      resolve(v);
    };
    sock.setTimeout(timeoutMs, () => {
      sock.destroy();
      reject(new Timeout());
    });
    sock.on('connect', () => sock.write(packet));
    sock.on('data', (d: Buffer) => {
      chunks.push(d);
      size += d.length;
      const buf = Buffer.concat(chunks);
      // One read of up to 1484 bytes in the reference; wait for the whole first record when it is split.
      const need = buf.length >= 5 ? 5 + buf.readUInt16BE(3) : Infinity;
      if (size >= 1484 || buf.length >= need) done(buf.subarray(0, 1484));
    });
    sock.on('end', () => done(chunks.length ? Buffer.concat(chunks).subarray(0, 1484) : null));
    sock.on('error', () => done(chunks.length ? Buffer.concat(chunks).subarray(0, 1484) : null));
  });
}

/** `address`: where to connect when it is not `host` (an address the caller's connect guard decided on). */
export async function jarmHash(host: string, port: number, timeoutMs = 10000, address = host): Promise<string> {
  const raw: string[] = [];
  for (const p of PROBES) {
    let answer: Buffer | null;
    try {
      answer = await probe(address, port, clientHello(host, p), timeoutMs);
    } catch (e) {
      if (e instanceof Timeout) return '0'.repeat(62);
      answer = null;
    }
    raw.push(readServerHello(answer));
  }
  return jarmFuzzyHash(raw);
}
