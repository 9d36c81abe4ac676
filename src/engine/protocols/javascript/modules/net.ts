// nuclei/net (pkg/js/libs/net): Open / OpenTLS a TCP, TLS or UDP connection to the target, Send (text),
// SendHex, SendArray, Recv (one read, 4096 bytes by default), RecvFull (N bytes, or everything until the
// peer closes or the timeout passes), their String and Hex forms, SetTimeout (seconds, 5 by default),
// Close. Also the globals isPortOpen and isUDPPortOpen. Every connection goes through the engine's connect
// guard to the scan's target only.
import type dgram from 'node:dgram';
import { dgram as loadDgram } from '../../../lazy.ts';
import { Conn } from '../../network/conn.ts';
import { bounded, bytesOf, HostEnv, portOf, splitAddress, text, type Handle, type HostOp } from '../host.ts';

/** What one read may bring at most (RecvFull without a size included). */
const MAX_READ = 4 * 1024 * 1024;

interface Stream extends Handle {
  timeoutMs: number;
  write(b: Buffer): Promise<void>;
  read(n: number, timeoutMs: number): Promise<Buffer>;
  readFull(n: number, timeoutMs: number): Promise<Buffer>;
}

class TcpStream implements Stream {
  kind = 'connection';
  timeoutMs = 5000;
  constructor(private readonly c: Conn) {}
  write(b: Buffer) {
    return this.c.write(b);
  }
  read(n: number, ms: number) {
    return this.c.read(n, ms);
  }
  async readFull(n: number, ms: number): Promise<Buffer> {
    if (n <= 0) return this.c.readAll(ms, MAX_READ);
    const parts: Buffer[] = [];
    let got = 0;
    const until = Date.now() + ms;
    while (got < n) {
      const left = until - Date.now();
      if (left <= 0) break;
      const b = await this.c.read(n - got, left);
      if (b.length === 0) break;
      parts.push(b);
      got += b.length;
    }
    return Buffer.concat(parts);
  }
  close() {
    this.c.close();
  }
}

class UdpStream implements Stream {
  kind = 'connection';
  timeoutMs = 5000;
  private queue: Buffer[] = [];
  private wake: (() => void) | undefined;
  constructor(private readonly s: dgram.Socket) {
    s.on('message', (m) => {
      if (this.queue.length < 64) this.queue.push(m);
      this.wake?.();
    });
    s.on('error', () => this.wake?.());
  }
  write(b: Buffer) {
    return new Promise<void>((resolve, reject) => this.s.send(b, (err) => (err ? reject(err) : resolve())));
  }
  async read(n: number, ms: number): Promise<Buffer> {
    if (this.queue.length === 0)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
    this.wake = undefined;
    const m = this.queue.shift();
    return m ? m.subarray(0, n) : Buffer.alloc(0);
  }
  readFull(n: number, ms: number) {
    return this.read(n > 0 ? n : MAX_READ, ms);
  }
  close() {
    try {
      this.s.close();
    } catch {
      // already closed
    }
  }
}

async function open(env: HostEnv, protocol: string, address: string, tls: boolean): Promise<number> {
  const { host, port } = splitAddress(address);
  await env.checkScope(host);
  const proto = protocol.toLowerCase();
  if (proto === 'udp' || proto === 'udp4' || proto === 'udp6') {
    if (tls) throw new Error('TLS over UDP is not supported');
    return env.add(await openUdp(env, host, port));
  }
  if (proto !== 'tcp' && proto !== 'tcp4' && proto !== 'tcp6') throw new Error(`unknown network ${protocol}`);
  const conn = await Conn.open(host, port, tls, env.timeoutMs, env.signal, undefined, env.guard);
  return env.add(new TcpStream(conn));
}

async function openUdp(env: HostEnv, host: string, port: number): Promise<UdpStream> {
  const bare = host.replace(/^\[|\]$/g, '');
  // The guard decides on the address itself (a name is resolved and each address checked).
  const address = env.guard ? await env.guard.address(bare, port) : bare;
  const s = loadDgram().createSocket(address.includes(':') ? 'udp6' : 'udp4');
  const stream = new UdpStream(s);
  try {
    await bounded(
      new Promise<void>((resolve, reject) => {
        s.once('error', reject);
        s.connect(port, address, () => resolve());
      }),
      env,
      `connect to ${host}:${port}`,
    );
  } catch (err) {
    stream.close();
    throw err;
  }
  return stream;
}

function stream(env: HostEnv, id: unknown): Stream {
  return env.get<Stream>(id, 'connection');
}

function size(v: unknown, fallback: number): number {
  const n = Number(v ?? 0);
  if (!Number.isFinite(n) || n <= 0) return fallback;
  return Math.min(Math.floor(n), MAX_READ);
}

async function recv(env: HostEnv, id: unknown, n: unknown): Promise<Buffer> {
  const s = stream(env, id);
  const want = size(n, 4096);
  const b = await bounded(s.read(want, s.timeoutMs), env, 'read', s.timeoutMs + 1000);
  if (b.length === 0) throw new Error(`failed to read ${want} bytes: no data before the timeout or end of stream`);
  return b;
}

async function recvFull(env: HostEnv, id: unknown, n: unknown): Promise<Buffer> {
  const s = stream(env, id);
  const want = size(n, 0);
  const b = await bounded(s.readFull(want, s.timeoutMs), env, 'read', s.timeoutMs + 1000);
  if (b.length === 0)
    throw new Error(`failed to read ${want || 'all'} bytes: no data before the timeout or end of stream`);
  return b;
}

/** Go's hex.Dump: offset, 16 bytes in hex in two groups of 8, the printable characters. */
export function hexDump(b: Buffer): string {
  let out = '';
  for (let i = 0; i < b.length; i += 16) {
    const row = b.subarray(i, i + 16);
    let hex = '';
    for (let j = 0; j < 16; j++) {
      hex += j < row.length ? row[j]!.toString(16).padStart(2, '0') + ' ' : '   ';
      if (j === 7) hex += ' ';
    }
    let chars = '';
    for (const c of row) chars += c >= 32 && c <= 126 ? String.fromCharCode(c) : '.';
    out += `${i.toString(16).padStart(8, '0')}  ${hex} |${chars}|\n`;
  }
  return out;
}

async function isPortOpen(env: HostEnv, args: unknown[], udp: boolean): Promise<boolean> {
  const host = text(args[0]);
  const port = text(args[1]);
  if (host === '' || port === '') throw new Error('isPortOpen: host or port is empty');
  const ms = args[2] !== undefined && args[2] !== null ? Math.min(Number(args[2]) * 1000, 30_000) : env.timeoutMs;
  await env.checkScope(host);
  if (udp) {
    const s = await openUdp(env, host, portOf(port));
    s.close();
    return true;
  }
  const c = await Conn.open(host, portOf(port), false, ms || env.timeoutMs, env.signal, undefined, env.guard);
  c.close();
  return true;
}

export const netOps: Record<string, HostOp> = {
  'net.Open': (env, [p, a]) => open(env, text(p), text(a), false),
  'net.OpenTLS': (env, [p, a]) => open(env, text(p), text(a), true),
  'net.Send': async (env, [id, data]) => void (await stream(env, id).write(bytesOf(data))),
  'net.SendArray': async (env, [id, data]) => void (await stream(env, id).write(bytesOf(data))),
  'net.SendHex': async (env, [id, data]) => {
    const h = text(data);
    if (!/^([0-9a-fA-F]{2})*$/.test(h)) throw new Error('encoding/hex: invalid byte in hex data');
    await stream(env, id).write(Buffer.from(h, 'hex'));
  },
  'net.Recv': (env, [id, n]) => recv(env, id, n),
  'net.RecvString': async (env, [id, n]) => (await recv(env, id, n)).toString('utf8'),
  'net.RecvHex': async (env, [id, n]) => hexDump(await recv(env, id, n)),
  'net.RecvFull': (env, [id, n]) => recvFull(env, id, n),
  'net.RecvFullString': async (env, [id, n]) => (await recvFull(env, id, n)).toString('utf8'),
  'net.RecvFullHex': async (env, [id, n]) => hexDump(await recvFull(env, id, n)),
  'net.SetTimeout': (env, [id, sec]) => {
    const n = Number(sec);
    stream(env, id).timeoutMs = Number.isFinite(n) && n > 0 ? Math.min(n * 1000, 60_000) : 5000;
    return null;
  },
  'net.Close': (env, [id]) => {
    env.drop(id);
    return null;
  },
  isPortOpen: (env, args) => isPortOpen(env, args, false),
  isUDPPortOpen: (env, args) => isPortOpen(env, args, true),
};
