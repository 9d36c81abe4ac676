// NTLMSSP (MS-NLMP) for SMB session setup: the NEGOTIATE message, the server's CHALLENGE (its flags,
// challenge, version and target info: the names fingerprintx and zgrab2 report), and an NTLMv2
// AUTHENTICATE. MD4 (the NT hash) comes from js-md4: OpenSSL 3 no longer offers it to Node.
import { crypto, lazy } from '../../../../lazy.ts';

const md4 = lazy<{ arrayBuffer(m: Uint8Array): ArrayBuffer }>('js-md4');

const F = {
  UNICODE: 0x00000001,
  REQUEST_TARGET: 0x00000004,
  SIGN: 0x00000010,
  NTLM: 0x00000200,
  ALWAYS_SIGN: 0x00008000,
  EXTENDED_SESSIONSECURITY: 0x00080000,
  TARGET_INFO: 0x00800000,
  VERSION: 0x02000000,
  N128: 0x20000000,
  N56: 0x80000000,
};
const FLAGS =
  (F.UNICODE |
    F.REQUEST_TARGET |
    F.SIGN |
    F.NTLM |
    F.ALWAYS_SIGN |
    F.EXTENDED_SESSIONSECURITY |
    F.TARGET_INFO |
    F.VERSION |
    F.N128 |
    F.N56) >>>
  0;

const SIGNATURE = Buffer.from('NTLMSSP\0', 'latin1');

/** NEGOTIATE_MESSAGE without domain or workstation. */
export function negotiateMessage(flags = FLAGS): Buffer {
  const b = Buffer.alloc(40);
  SIGNATURE.copy(b, 0);
  b.writeUInt32LE(1, 8);
  b.writeUInt32LE(flags >>> 0, 12);
  return b;
}

/** The CHALLENGE message a probe sends in fingerprintx (its flags ask for the server's version). */
export const PROBE_FLAGS = 0xe2dbbaf7;

export interface Challenge {
  flags: number;
  serverChallenge: Buffer;
  targetName: string;
  /** 8 bytes: major, minor, build (LE), 3 reserved, NTLM revision. */
  version: Buffer;
  targetInfo: Buffer;
  /** AV pairs by id (1 NetBIOS computer, 2 NetBIOS domain, 3 DNS computer, 4 DNS domain, 5 DNS tree). */
  av: Map<number, string>;
}

export function parseChallenge(t: Buffer): Challenge {
  if (t.length < 48 || !t.subarray(0, 8).equals(SIGNATURE) || t.readUInt32LE(8) !== 2)
    throw new Error('ntlm: not a CHALLENGE message');
  const field = (at: number) => {
    const len = t.readUInt16LE(at);
    const off = t.readUInt32LE(at + 4);
    return off + len <= t.length ? t.subarray(off, off + len) : Buffer.alloc(0);
  };
  const targetInfo = Buffer.from(field(40));
  const av = new Map<number, string>();
  for (let at = 0; at + 4 <= targetInfo.length;) {
    const id = targetInfo.readUInt16LE(at);
    const len = targetInfo.readUInt16LE(at + 2);
    if (id === 0 || at + 4 + len > targetInfo.length) break;
    if (id >= 1 && id <= 5) av.set(id, targetInfo.toString('utf16le', at + 4, at + 4 + len));
    at += 4 + len;
  }
  return {
    flags: t.readUInt32LE(20),
    serverChallenge: Buffer.from(t.subarray(24, 32)),
    targetName: field(12).toString('utf16le'),
    version: t.length >= 56 ? Buffer.from(t.subarray(48, 56)) : Buffer.alloc(8),
    targetInfo,
    av,
  };
}

const hmacMd5 = (key: Buffer, ...data: Buffer[]) => {
  const h = crypto().createHmac('md5', key);
  for (const d of data) h.update(d);
  return h.digest();
};

/** NTLMv2 AUTHENTICATE for `user` in `domain`; its session base key signs the session (no key exchange). */
export function authenticateMessage(
  c: Challenge,
  user: string,
  password: string,
  domain: string,
): { message: Buffer; sessionKey: Buffer } {
  const ntHash = Buffer.from(md4().arrayBuffer(Buffer.from(password, 'utf16le')));
  const ntowf = hmacMd5(ntHash, Buffer.from(user.toUpperCase() + domain, 'utf16le'));
  const clientChallenge = crypto().randomBytes(8);
  const time = Buffer.alloc(8);
  time.writeBigUInt64LE((BigInt(Date.now()) + 11_644_473_600_000n) * 10_000n);
  const temp = Buffer.concat([
    Buffer.from([1, 1, 0, 0, 0, 0, 0, 0]),
    time,
    clientChallenge,
    Buffer.alloc(4),
    c.targetInfo,
    Buffer.alloc(4),
  ]);
  const proof = hmacMd5(ntowf, c.serverChallenge, temp);
  const nt = Buffer.concat([proof, temp]);
  const lm = Buffer.concat([hmacMd5(ntowf, c.serverChallenge, clientChallenge), clientChallenge]);
  const sessionKey = hmacMd5(ntowf, proof);
  const anonymous = user === '' && password === '';
  const fields: Buffer[] = [
    anonymous ? Buffer.alloc(1) : lm,
    anonymous ? Buffer.alloc(0) : nt,
    Buffer.from(domain, 'utf16le'),
    Buffer.from(user, 'utf16le'),
    Buffer.from('VIGIL', 'utf16le'),
    Buffer.alloc(0),
  ];
  const head = Buffer.alloc(72);
  SIGNATURE.copy(head, 0);
  head.writeUInt32LE(3, 8);
  let off = head.length;
  fields.forEach((f, i) => {
    head.writeUInt16LE(f.length, 12 + 8 * i);
    head.writeUInt16LE(f.length, 14 + 8 * i);
    head.writeUInt32LE(off, 16 + 8 * i);
    off += f.length;
  });
  head.writeUInt32LE((FLAGS & c.flags) >>> 0 || FLAGS, 60);
  head.set([6, 1, 0xb1, 0x1d, 0, 0, 0, 15], 64); // version 6.1.7601, NTLM revision 15
  return { message: Buffer.concat([head, ...fields]), sessionKey: anonymous ? Buffer.alloc(16) : sessionKey };
}
