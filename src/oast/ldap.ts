// The LDAP listener: enough of LDAPv3 (BER over TCP) to be a convincing callback target for JNDI lookups.
// Bind gets success, search gets an empty result (searchResDone), extended operations an unsupported
// answer, unbind closes. Every message whose strings (base DN, filter, bind name) hold a registered id is
// an interaction (protocol "ldap", the operation and its strings as the raw request). A message that is
// not BER, or larger than 64 KiB, closes the connection.
import net from 'node:net';
import { idsInText, type Interaction } from './protocol.ts';
import type { Sessions } from './sessions.ts';
import { listenTcp, type ListenAddress } from './listen.ts';

export interface LdapListenerOptions {
  sessions: Sessions;
  onInteraction?: (i: Interaction) => void;
}

const MAX_MESSAGE = 64 * 1024;

interface Tlv {
  tag: number;
  value: Buffer;
  end: number;
}

/** One BER element at `at`, undefined when incomplete; throws on what is not BER or too large. */
export function readTlv(buf: Buffer, at = 0): Tlv | undefined {
  if (buf.length < at + 2) return undefined;
  const tag = buf[at]!;
  if ((tag & 0x1f) === 0x1f) throw new Error('multi-byte BER tags are not LDAP');
  let len = buf[at + 1]!;
  let off = at + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 3) throw new Error('BER length form not accepted');
    if (buf.length < off + n) return undefined;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[off + i]!;
    off += n;
  }
  if (len > MAX_MESSAGE) throw new Error('LDAP message too large');
  if (buf.length < off + len) return undefined;
  return { tag, value: buf.subarray(off, off + len), end: off + len };
}

/** Every string in an element, depth first (octet strings and context-specific primitives). */
function strings(value: Buffer, depth = 0, out: string[] = []): string[] {
  if (depth > 16) return out;
  let at = 0;
  while (at < value.length) {
    const t = readTlv(value, at);
    if (!t) break;
    if (t.tag & 0x20) strings(t.value, depth + 1, out);
    else if (t.tag === 0x04 || (t.tag & 0xc0) === 0x80) out.push(t.value.toString('latin1'));
    at = t.end;
  }
  return out;
}

const OPS: Record<number, string> = {
  0x60: 'bind',
  0x42: 'unbind',
  0x63: 'search',
  0x66: 'modify',
  0x68: 'add',
  0x4a: 'delete',
  0x6c: 'modifyDN',
  0x6e: 'compare',
  0x50: 'abandon',
  0x77: 'extended',
};

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  if (n < 0x100) return Buffer.from([0x81, n]);
  return Buffer.from([0x82, n >> 8, n & 0xff]);
}

function tlv(tag: number, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(value.length), value]);
}

/** An LDAPResult-shaped response of `tag` with `code` for message `id` (the id's bytes as sent). */
function result(idBytes: Buffer, tag: number, code: number): Buffer {
  const body = Buffer.concat([tlv(0x0a, Buffer.from([code])), tlv(0x04, Buffer.alloc(0)), tlv(0x04, Buffer.alloc(0))]);
  return tlv(0x30, Buffer.concat([tlv(0x02, idBytes), tlv(tag, body)]));
}

/** Handles one LDAPMessage; returns the response bytes ('close' for unbind). */
export function handleLdapMessage(o: LdapListenerOptions, msg: Tlv, remote: string): Buffer | 'close' {
  if (msg.tag !== 0x30) throw new Error('not an LDAPMessage');
  const id = readTlv(msg.value, 0);
  if (!id || id.tag !== 0x02 || id.value.length === 0 || id.value.length > 4) throw new Error('bad message id');
  const op = readTlv(msg.value, id.end);
  if (!op) throw new Error('no protocol operation');
  const name = OPS[op.tag] ?? `op-${op.tag.toString(16)}`;
  const texts = op.tag & 0x20 ? strings(op.value) : [op.value.toString('latin1')];
  const raw = `LDAP ${name} (message ${id.value.readUIntBE(0, id.value.length)})\n${texts.join('\n')}`;
  const hits = idsInText(texts.join('\n'), (c) => o.sessions.has(c));
  for (const hit of hits) {
    const i: Interaction = {
      protocol: 'ldap',
      'unique-id': hit.id,
      'full-id': hit.full,
      'raw-request': raw,
      'remote-address': remote.replace(/^::ffff:/, ''),
      timestamp: new Date().toISOString(),
    };
    o.sessions.add(i);
    o.onInteraction?.(i);
  }
  switch (op.tag) {
    case 0x60:
      return result(id.value, 0x61, 0);
    case 0x63:
      return result(id.value, 0x65, 0);
    case 0x42:
      return 'close';
    case 0x77:
      return result(id.value, 0x78, 2); // protocolError: no extended operations here
    case 0x66:
      return result(id.value, 0x67, 53);
    case 0x68:
      return result(id.value, 0x69, 53);
    case 0x4a:
      return result(id.value, 0x6b, 53);
    case 0x6c:
      return result(id.value, 0x6d, 53);
    case 0x6e:
      return result(id.value, 0x6f, 5); // compareFalse
    default:
      return Buffer.alloc(0);
  }
}

export async function startLdap(o: LdapListenerOptions, at: ListenAddress) {
  const server = net.createServer((sock) => {
    let buf = Buffer.alloc(0);
    sock.setTimeout(30_000, () => sock.destroy());
    sock.on('error', () => sock.destroy());
    sock.on('data', (chunk) => {
      buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
      try {
        for (;;) {
          const msg = readTlv(buf, 0);
          if (!msg) {
            if (buf.length > MAX_MESSAGE + 8) throw new Error('LDAP message too large');
            return;
          }
          buf = buf.subarray(msg.end);
          const out = handleLdapMessage(o, msg, sock.remoteAddress ?? '');
          if (out === 'close') return sock.end();
          if (out.length) sock.write(out);
        }
      } catch {
        sock.destroy();
      }
    });
  });
  server.maxConnections = 500;
  const port = await listenTcp(server, at);
  return { port, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
