// The share list over DCE/RPC (MS-RPCE, MS-SRVS): bind to srvsvc on the \PIPE\srvsvc named pipe of
// IPC$, then NetrShareEnum (opnum 15) at info level 1, whose answer names every share (go-smb2's
// ListSharenames does the same). NDR is read only as far as the share names.
import type { Session } from './session.ts';

/** A UUID in DCE's wire order (first three fields little-endian) with its version. */
function syntax(uuid: string, major: number, minor: number): Buffer {
  const hex = uuid.replace(/-/g, '');
  const b = Buffer.from(hex, 'hex');
  const out = Buffer.alloc(20);
  out.writeUInt32LE(b.readUInt32BE(0), 0);
  out.writeUInt16LE(b.readUInt16BE(4), 4);
  out.writeUInt16LE(b.readUInt16BE(6), 6);
  b.copy(out, 8, 8, 16);
  out.writeUInt16LE(major, 16);
  out.writeUInt16LE(minor, 18);
  return out;
}

const SRVSVC = syntax('4b324fc8-1670-01d3-1278-5a47bf6ee188', 3, 0);
const NDR = syntax('8a885d04-1ceb-11c9-9fe8-08002b104860', 2, 0);

function pdu(type: number, callId: number, body: Buffer): Buffer {
  const h = Buffer.alloc(16);
  h.writeUInt8(5, 0);
  h.writeUInt8(0, 1);
  h.writeUInt8(type, 2);
  h.writeUInt8(0x03, 3); // first and last fragment
  h.writeUInt32LE(0x10, 4); // little-endian, ASCII, IEEE
  h.writeUInt16LE(16 + body.length, 8);
  h.writeUInt32LE(callId, 12);
  return Buffer.concat([h, body]);
}

function bind(): Buffer {
  const b = Buffer.alloc(12);
  b.writeUInt16LE(4280, 0);
  b.writeUInt16LE(4280, 2);
  b.writeUInt8(1, 8); // one context
  const ctx = Buffer.alloc(4);
  ctx.writeUInt8(1, 2); // one transfer syntax
  return pdu(11, 1, Buffer.concat([b, ctx, SRVSVC, NDR]));
}

/** NDR conformant varying string (wchar_t*, null terminated), padded to 4. */
function wstr(s: string): Buffer {
  const chars = Buffer.from(s + '\0', 'utf16le');
  const n = s.length + 1;
  const h = Buffer.alloc(12);
  h.writeUInt32LE(n, 0);
  h.writeUInt32LE(n, 8);
  const pad = Buffer.alloc((4 - (chars.length % 4)) % 4);
  return Buffer.concat([h, chars, pad]);
}

function u32(...v: number[]): Buffer {
  const b = Buffer.alloc(4 * v.length);
  v.forEach((x, i) => b.writeUInt32LE(x >>> 0, 4 * i));
  return b;
}

function netrShareEnum(server: string): Buffer {
  const stub = Buffer.concat([
    u32(0x00020000), // ServerName: a unique pointer
    wstr(`\\\\${server}`),
    u32(1, 1, 0x00020004, 0, 0), // level 1, union arm 1, container pointer, EntriesRead 0, Buffer null
    u32(0xffffffff), // PreferedMaximumLength
    u32(0x00020008, 0), // ResumeHandle pointer and value
  ]);
  const req = Buffer.alloc(8);
  req.writeUInt32LE(stub.length, 0); // alloc hint
  req.writeUInt16LE(0, 4); // context 0
  req.writeUInt16LE(15, 6); // opnum: NetrShareEnum
  return pdu(0, 2, Buffer.concat([req, stub]));
}

/** Reads one whole RPC response (its fragments' stubs joined) from the pipe. */
async function response(s: Session, pipe: Buffer, want: number): Promise<Buffer> {
  let raw = Buffer.alloc(0);
  for (let reads = 0; reads < 64; reads++) {
    const r = await s.read(pipe);
    raw = Buffer.concat([raw, r.data]);
    if (!r.more) break;
  }
  const stubs: Buffer[] = [];
  let at = 0;
  while (at + 16 <= raw.length) {
    const type = raw[at + 2]!;
    const flags = raw[at + 3]!;
    const fragLen = raw.readUInt16LE(at + 8);
    if (fragLen < 16 || at + fragLen > raw.length) throw new Error('rpc: truncated response');
    if (type === 3) throw new Error(`rpc fault 0x${raw.readUInt32LE(at + 24).toString(16)}`);
    if (type !== want) throw new Error(`rpc: unexpected packet type ${type}`);
    stubs.push(raw.subarray(at + (want === 2 ? 24 : 16), at + fragLen));
    at += fragLen;
    if (flags & 0x02) break;
  }
  return Buffer.concat(stubs);
}

/** Share names out of a NetrShareEnum level-1 answer. */
function shareNames(stub: Buffer): string[] {
  let at = 0;
  const need = (n: number) => {
    if (at + n > stub.length) throw new Error('rpc: short NetrShareEnum answer');
  };
  const read = () => {
    need(4);
    const v = stub.readUInt32LE(at);
    at += 4;
    return v;
  };
  const str = () => {
    read(); // max count
    read(); // offset
    const n = read();
    need(2 * n);
    const s = stub.toString('utf16le', at, at + 2 * n).replace(/\0+$/, '');
    at += 2 * n;
    at += (4 - (at % 4)) % 4;
    return s;
  };
  read(); // level
  read(); // union arm
  if (read() === 0) return [];
  const count = read();
  if (read() === 0 || count === 0) return [];
  const max = read();
  if (max !== count || count > 100_000) throw new Error('rpc: inconsistent share count');
  const entries: { name: number; remark: number }[] = [];
  for (let i = 0; i < count; i++) {
    const name = read();
    read(); // type
    const remark = read();
    entries.push({ name, remark });
  }
  const names: string[] = [];
  for (const e of entries) {
    names.push(e.name ? str() : '');
    if (e.remark) str();
  }
  return names;
}

/** The server's share names (IPC$ included) over an authenticated session. */
export async function listShares(s: Session, host: string): Promise<string[]> {
  await s.treeConnect(host, 'IPC$');
  const pipe = await s.openPipe('srvsvc');
  try {
    await s.write(pipe, bind());
    const ack = await response(s, pipe, 12);
    // bind_ack: ... result list after the secondary address; check the first result is "acceptance".
    const secLen = ack.readUInt16LE(8);
    const resultAt = 10 + secLen + ((4 - ((10 + secLen) % 4)) % 4);
    if (ack.length < resultAt + 6 || ack.readUInt16LE(resultAt + 4) !== 0) throw new Error('rpc: srvsvc bind refused');
    await s.write(pipe, netrShareEnum(host));
    return shareNames(await response(s, pipe, 2));
  } finally {
    await s.closeFile(pipe);
  }
}
