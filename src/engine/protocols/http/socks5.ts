// A minimal SOCKS5 client (RFC 1928, no-auth and username/password RFC 1929) that returns a connected
// socket to host:port through the proxy. Used by both the undici connector and the raw socket path.
import net from 'node:net';

/** Collects handshake bytes with one listener so nothing is lost between steps. */
class Reader {
  private buf = Buffer.alloc(0);
  private want: { n: number; resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  private failed: Error | undefined;
  private readonly onData = (chunk: Buffer) => { this.buf = Buffer.concat([this.buf, chunk]); this.pump(); };
  private readonly onEnd = () => this.fail(new Error('socks5: proxy closed the connection'));
  private readonly onError = (e: Error) => this.fail(e);

  constructor(private readonly socket: net.Socket) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
  }

  read(n: number): Promise<Buffer> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => { this.want = { n, resolve, reject }; this.pump(); });
  }

  private pump(): void {
    if (!this.want || this.buf.length < this.want.n) return;
    const { n, resolve } = this.want;
    this.want = undefined;
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(n);
    resolve(out);
  }

  private fail(e: Error): void {
    this.failed = e;
    this.want?.reject(e);
    this.want = undefined;
  }

  /** Stops listening and hands any early bytes back to the socket. */
  release(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('error', this.onError);
    this.socket.pause();
    if (this.buf.length > 0) this.socket.unshift(this.buf);
  }
}

export async function socks5Connect(proxy: string, host: string, port: number, timeout: number): Promise<net.Socket> {
  const p = new URL(proxy.includes('://') ? proxy : `socks5://${proxy}`);
  const socket = net.connect({ host: p.hostname.replace(/^\[|\]$/g, ''), port: Number(p.port || 1080) });
  socket.setTimeout(timeout, () => socket.destroy(new Error('socks5: timeout')));
  await new Promise<void>((resolve, reject) => { socket.once('connect', resolve); socket.once('error', reject); });
  const reader = new Reader(socket);
  const readBytes = (_s: net.Socket, n: number) => reader.read(n);
  const user = decodeURIComponent(p.username);
  const pass = decodeURIComponent(p.password);
  socket.write(Buffer.from(user ? [5, 2, 0, 2] : [5, 1, 0]));
  const [ver, method] = await readBytes(socket, 2);
  if (ver !== 5) throw new Error('socks5: not a SOCKS5 proxy');
  if (method === 2) {
    const u = Buffer.from(user), pw = Buffer.from(pass);
    socket.write(Buffer.concat([Buffer.from([1, u.length]), u, Buffer.from([pw.length]), pw]));
    const [, status] = await readBytes(socket, 2);
    if (status !== 0) throw new Error('socks5: authentication failed');
  } else if (method !== 0) throw new Error('socks5: no acceptable authentication method');
  let addr: Buffer;
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) addr = Buffer.from([1, ...bare.split('.').map(Number)]);
  else if (net.isIPv6(bare)) {
    const full = new URL(`http://[${bare}]`).hostname; // normalises ::
    const groups = expandIpv6(full.replace(/^\[|\]$/g, ''));
    addr = Buffer.concat([Buffer.from([4]), Buffer.from(groups.flatMap((g) => [g >> 8, g & 255]))]);
  } else {
    const h = Buffer.from(bare);
    addr = Buffer.concat([Buffer.from([3, h.length]), h]);
  }
  socket.write(Buffer.concat([Buffer.from([5, 1, 0]), addr, Buffer.from([port >> 8, port & 255])]));
  const head = await readBytes(socket, 4);
  if (head[1] !== 0) throw new Error(`socks5: connect failed (code ${head[1]})`);
  const skip = head[3] === 1 ? 4 : head[3] === 4 ? 16 : (await readBytes(socket, 1))[0];
  await readBytes(socket, skip + 2);
  reader.release();
  socket.setTimeout(0);
  return socket;
}

function expandIpv6(ip: string): number[] {
  const [l, r] = ip.split('::');
  const left = l ? l.split(':') : [];
  const right = r !== undefined && r ? r.split(':') : [];
  const fill = ip.includes('::') ? 8 - left.length - right.length : 0;
  return [...left, ...Array(fill).fill('0'), ...right].map((g) => parseInt(g, 16) || 0);
}
