// SMB on the wire, as little as nuclei/smb needs: NetBIOS session framing (a 4-byte length before each
// message), the SMB2 header, SMB1's negotiate and session setup probes, and the SPNEGO wrapping of NTLMSSP
// tokens (MS-SMB2, MS-CIFS, RFC 4178). No package on npm speaks SMB over a socket we dial ourselves, so
// this is written here; the NTLM part is ntlm.ts, share listing (DCE/RPC) rpc.ts.
import type net from 'node:net';
import { bounded, connectTcp, type HostEnv } from '../../host.ts';

/** Largest SMB message accepted (a share list of a big server is far smaller). */
const MAX_MESSAGE = 1024 * 1024;

export const STATUS = {
  OK: 0,
  PENDING: 0x00000103,
  MORE_PROCESSING: 0xc0000016,
  BUFFER_OVERFLOW: 0x80000005,
} as const;

export const CMD = {
  NEGOTIATE: 0,
  SESSION_SETUP: 1,
  LOGOFF: 2,
  TREE_CONNECT: 3,
  CREATE: 5,
  CLOSE: 6,
  READ: 8,
  WRITE: 9,
} as const;

/** One TCP connection carrying NetBIOS-framed messages, one exchange at a time. */
export class Wire {
  private buf: Buffer = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private closed = false;

  private constructor(
    private readonly env: HostEnv,
    private readonly s: net.Socket,
  ) {
    s.on('data', (d: Buffer) => {
      this.buf = this.buf.length === 0 ? d : Buffer.concat([this.buf, d]);
      // A server that sends more than two messages' worth ahead of what was asked is cut off.
      if (this.buf.length > 2 * MAX_MESSAGE + 4) s.destroy();
      this.wake?.();
    });
    s.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  static async open(env: HostEnv, host: string, port: number): Promise<Wire> {
    return new Wire(env, await connectTcp(env, host, port));
  }

  send(msg: Buffer): void {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(msg.length, 0);
    this.s.write(Buffer.concat([len, msg]));
  }

  /** The next message, without its NetBIOS length; an error if the peer closes or says nothing in time. */
  receive(what: string): Promise<Buffer> {
    return bounded(this.next(), this.env, what);
  }

  async exchange(msg: Buffer, what: string): Promise<Buffer> {
    this.send(msg);
    return this.receive(what);
  }

  private async next(): Promise<Buffer> {
    for (;;) {
      if (this.buf.length >= 4) {
        const size = this.buf.readUInt32BE(0);
        // zgrab2's check: a NetBIOS session message of 4 bytes to 16 MiB (type byte 0).
        if (size > 0x00ffffff || size < 4) throw new Error('invalid NetBIOS Session message');
        if (size > MAX_MESSAGE) throw new Error('smb: message too large');
        if (this.buf.length >= 4 + size) {
          const m = Buffer.from(this.buf.subarray(4, 4 + size));
          this.buf = this.buf.subarray(4 + size);
          const id = m.subarray(0, 4).toString('latin1');
          if (id !== '\xfeSMB' && id !== '\xffSMB') throw new Error('protocol Not Implemented');
          return m;
        }
      }
      if (this.closed) throw new Error('smb: connection closed');
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  close(): void {
    this.s.destroy();
  }
}

/** An SMB2 header (64 bytes) followed by `body`. */
export function smb2(o: {
  command: number;
  messageId: bigint;
  sessionId?: bigint;
  treeId?: number;
  creditCharge?: number;
  credits?: number;
  flags?: number;
  body: Buffer;
}): Buffer {
  const h = Buffer.alloc(64);
  h.write('\xfeSMB', 0, 'latin1');
  h.writeUInt16LE(64, 4);
  h.writeUInt16LE(o.creditCharge ?? 0, 6);
  h.writeUInt16LE(o.command, 12);
  h.writeUInt16LE(o.credits ?? 31, 14);
  h.writeUInt32LE(o.flags ?? 0, 16);
  h.writeBigUInt64LE(o.messageId, 24);
  h.writeUInt32LE(0xfeff, 32);
  h.writeUInt32LE(o.treeId ?? 0, 36);
  h.writeBigUInt64LE(o.sessionId ?? 0n, 40);
  return Buffer.concat([h, o.body]);
}

export interface Smb2Header {
  protocolId: Buffer;
  status: number;
  command: number;
  credits: number;
  flags: number;
  messageId: bigint;
  treeId: number;
  sessionId: bigint;
}

export function parseSmb2(m: Buffer): Smb2Header {
  if (m.length < 64 || m.toString('latin1', 0, 4) !== '\xfeSMB') throw new Error('smb: not an SMB2 message');
  return {
    protocolId: m.subarray(0, 4),
    status: m.readUInt32LE(8),
    command: m.readUInt16LE(12),
    credits: m.readUInt16LE(14),
    flags: m.readUInt32LE(16),
    messageId: m.readBigUInt64LE(24),
    treeId: m.readUInt32LE(36),
    sessionId: m.readBigUInt64LE(40),
  };
}

/** SMB2 NEGOTIATE request body offering `dialects`. */
export function negotiateBody(dialects: number[], securityMode = 1): Buffer {
  const b = Buffer.alloc(36 + 2 * dialects.length);
  b.writeUInt16LE(36, 0);
  b.writeUInt16LE(dialects.length, 2);
  b.writeUInt16LE(securityMode, 4);
  dialects.forEach((d, i) => b.writeUInt16LE(d, 36 + 2 * i));
  return b;
}

export interface Negotiated {
  header: Smb2Header;
  securityMode: number;
  dialect: number;
  serverGuid: Buffer;
  capabilities: number;
  maxRead: number;
  systemTime: bigint;
  serverStartTime: bigint;
  securityBlob: Buffer;
}

export function parseNegotiate(m: Buffer): Negotiated {
  const header = parseSmb2(m);
  const b = m.subarray(64);
  if (b.length < 64) throw new Error('smb: short negotiate response');
  const off = b.readUInt16LE(56);
  const len = b.readUInt16LE(58);
  return {
    header,
    securityMode: b.readUInt16LE(2),
    dialect: b.readUInt16LE(4),
    serverGuid: Buffer.from(b.subarray(8, 24)),
    capabilities: b.readUInt32LE(24),
    maxRead: b.readUInt32LE(32),
    systemTime: b.readBigUInt64LE(40),
    serverStartTime: b.readBigUInt64LE(48),
    securityBlob: off >= 64 && off + len <= m.length ? Buffer.from(m.subarray(off, off + len)) : Buffer.alloc(0),
  };
}

/** SMB2 SESSION_SETUP request body carrying a security token. */
export function sessionSetupBody(token: Buffer, securityMode = 1): Buffer {
  const b = Buffer.alloc(24);
  b.writeUInt16LE(25, 0);
  b.writeUInt8(securityMode, 3);
  b.writeUInt16LE(64 + 24, 12);
  b.writeUInt16LE(token.length, 14);
  return Buffer.concat([b, token]);
}

/** The security token of a SESSION_SETUP response, and its session flags (1 guest, 2 anonymous). */
export function parseSessionSetup(m: Buffer): { header: Smb2Header; flags: number; token: Buffer } {
  const header = parseSmb2(m);
  const b = m.subarray(64);
  if (b.length < 8) return { header, flags: 0, token: Buffer.alloc(0) };
  const off = b.readUInt16LE(4);
  const len = b.readUInt16LE(6);
  const token = off >= 64 && off + len <= m.length ? Buffer.from(m.subarray(off, off + len)) : Buffer.alloc(0);
  return { header, flags: b.readUInt16LE(2), token };
}

/** Windows FILETIME (100 ns since 1601) -> Unix seconds as a uint32, as zgrab2 reports times. */
export function unixSeconds(filetime: bigint): number {
  return Number(BigInt.asUintN(32, filetime / 10_000_000n - 11_644_473_600n));
}

// ---- SMB1 (only the two probes zgrab2 sends) ----

function smb1Header(command: number): Buffer {
  const h = Buffer.alloc(32);
  h.write('\xffSMB', 0, 'latin1');
  h.writeUInt8(command, 4);
  h.writeUInt8(0x18, 9);
  h.writeUInt16LE(0xc843, 10);
  h.writeUInt16LE(0xffff, 24);
  h.writeUInt16LE(0xfeff, 26);
  return h;
}

/** SMB1 NEGOTIATE offering "NT LM 0.12" only. */
export function negotiateV1(): Buffer {
  const body = Buffer.concat([Buffer.from([0, 12, 0]), Buffer.from('\x02NT LM 0.12\x00', 'latin1')]);
  return Buffer.concat([smb1Header(0x72), body]);
}

/** SMB1 SESSION_SETUP_ANDX without credentials (the server answers with its OS and LAN manager). */
export function sessionSetupV1(): Buffer {
  const b = Buffer.alloc(1 + 13 * 2 + 2);
  b.writeUInt8(0x0d, 0);
  b.writeUInt8(0xff, 1);
  b.writeUInt16LE(0x1111, 5);
  b.writeUInt16LE(0x0a, 7);
  return Buffer.concat([smb1Header(0x73), b]);
}

/** NativeOS, NativeLanMan and PrimaryDomain from an SMB1 SESSION_SETUP_ANDX response (as zgrab2 reads it). */
export function parseSessionSetupV1(m: Buffer): { nativeOs: string; lanMan: string; domain: string } | undefined {
  if (m.length < 32) return undefined;
  const unicode = (m[11]! >> 7) & 1;
  const rest = m.subarray(32);
  if (rest.length === 0) return undefined;
  const skip = rest[0]! * 2 + 3 + unicode;
  if (rest.length < skip) return undefined;
  const data = rest.subarray(skip);
  const decoded = unicode
    ? data.subarray(0, data.length - (data.length % 2)).toString('utf16le')
    : data.toString('latin1');
  const f = decoded.split('\0');
  return { nativeOs: f[0] ?? '', lanMan: f[1] ?? '', domain: f[2] ?? '' };
}

// ---- SPNEGO (DER) ----

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  const len = n < 0x80 ? Buffer.from([n]) : n < 0x100 ? Buffer.from([0x81, n]) : Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), len, body]);
}

const OID_SPNEGO = Buffer.from([0x2b, 0x06, 0x01, 0x05, 0x05, 0x02]);
const OID_NTLMSSP = Buffer.from([0x2b, 0x06, 0x01, 0x04, 0x01, 0x82, 0x37, 0x02, 0x02, 0x0a]);

/** GSS-API InitialContextToken with a SPNEGO NegTokenInit offering NTLMSSP, carrying `token`. */
export function spnegoInit(token: Buffer): Buffer {
  const mechTypes = der(0xa0, der(0x30, der(0x06, OID_NTLMSSP)));
  return der(0x60, der(0x06, OID_SPNEGO), der(0xa0, der(0x30, mechTypes, der(0xa2, der(0x04, token)))));
}

/** A SPNEGO NegTokenResp carrying `token` (the NTLM AUTHENTICATE message). */
export function spnegoResp(token: Buffer): Buffer {
  return der(0xa1, der(0x30, der(0xa2, der(0x04, token))));
}

/** Every OBJECT IDENTIFIER in a DER blob, dotted, in order (the first of a NegTokenInit is SPNEGO's own). */
export function oids(blob: Buffer): string[] {
  const out: string[] = [];
  const walk = (b: Buffer, depth: number) => {
    let at = 0;
    while (at + 2 <= b.length && depth < 16) {
      const tag = b[at]!;
      let len = b[at + 1]!;
      let hdr = 2;
      if (len & 0x80) {
        const n = len & 0x7f;
        if (n > 3 || at + 2 + n > b.length) return;
        len = 0;
        for (let i = 0; i < n; i++) len = len * 256 + b[at + 2 + i]!;
        hdr = 2 + n;
      }
      const v = b.subarray(at + hdr, at + hdr + len);
      if (v.length < len) return;
      if (tag === 0x06) out.push(oidText(v));
      else if (tag & 0x20) walk(v, depth + 1);
      at += hdr + len;
    }
  };
  walk(blob, 0);
  return out;
}

function oidText(v: Buffer): string {
  if (v.length === 0) return '';
  const parts = [Math.floor(v[0]! / 40), v[0]! % 40];
  let n = 0;
  for (const byte of v.subarray(1)) {
    n = n * 128 + (byte & 0x7f);
    if (!(byte & 0x80)) {
      parts.push(n);
      n = 0;
    }
  }
  return parts.join('.');
}

export const SPNEGO_OID = '1.3.6.1.5.5.2';
export const NTLMSSP_OID = '1.3.6.1.4.1.311.2.2.10';

/** The NTLMSSP message inside a security blob (found by its signature, as fingerprintx does). */
export function ntlmToken(blob: Buffer): Buffer | undefined {
  const at = blob.indexOf('NTLMSSP\0', 0, 'latin1');
  return at < 0 ? undefined : blob.subarray(at);
}
