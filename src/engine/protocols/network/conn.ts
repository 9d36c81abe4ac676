// A TCP or TLS connection read the way nuclei's network protocol reads: `read(n)` returns what the next
// read brings (at most n bytes, waiting up to the timeout for the first byte), `readAll()` everything
// until the peer closes or the timeout passes with nothing more.
import net from 'node:net';
import { dialTcp, dialTls, type ConnectGuard } from '../../net/guard.ts';

/** What one connection keeps of what the peer sends. */
const MAX_BUFFER = 4 * 1024 * 1024;

export class Conn {
  private buf = Buffer.alloc(0);
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  private constructor(
    readonly socket: net.Socket,
    readonly ip: string,
  ) {
    socket.on('data', (chunk: Buffer) => {
      // Bounded: a peer that streams forever cannot fill memory.
      const room = MAX_BUFFER - this.buf.length;
      if (room > 0) this.buf = Buffer.concat([this.buf, room >= chunk.length ? chunk : chunk.subarray(0, room)]);
      this.notify();
    });
    socket.on('end', () => {
      this.ended = true;
      this.notify();
    });
    socket.on('close', () => {
      this.ended = true;
      this.notify();
    });
    socket.on('error', (err) => {
      this.error = err;
      this.ended = true;
      this.notify();
    });
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  static open(
    host: string,
    port: number,
    useTls: boolean,
    timeout: number,
    signal?: AbortSignal,
    sni?: string,
    guard?: ConnectGuard,
  ): Promise<Conn> {
    return new Promise((resolve, reject) => {
      const bare = host.replace(/^\[|\]$/g, '');
      const socket = useTls
        ? dialTls(guard, {
            host: bare,
            port,
            rejectUnauthorized: false,
            servername: sni || (net.isIP(bare) ? undefined : bare),
          })
        : dialTcp(guard, { host: bare, port });
      const timer = setTimeout(() => fail(new Error(`connect to ${host}:${port} timed out`)), timeout);
      const onAbort = () => fail(new Error('aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      function fail(err: Error) {
        done();
        socket.destroy();
        reject(err);
      }
      socket.once('error', fail);
      socket.once(useTls ? 'secureConnect' : 'connect', () => {
        done();
        socket.off('error', fail);
        resolve(new Conn(socket, socket.remoteAddress ?? ''));
      });
    });
  }

  write(data: Buffer): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.error) return reject(this.error);
      this.socket.write(data, (err) => (err ? reject(err) : resolve()));
    });
  }

  private waitData(ms: number): Promise<void> {
    if (this.buf.length > 0 || this.ended) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = undefined;
        resolve();
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** What one read returns: up to `n` bytes of what has arrived, after waiting for the first. */
  async read(n: number, timeout: number): Promise<Buffer> {
    await this.waitData(timeout);
    // A short pause lets the rest of a reply that came in several segments join it.
    if (this.buf.length > 0 && this.buf.length < n && !this.ended) await this.settle(20);
    const out = this.buf.subarray(0, n);
    this.buf = this.buf.subarray(out.length);
    if (out.length === 0 && this.error) throw this.error;
    return Buffer.from(out);
  }

  private async settle(ms: number): Promise<void> {
    const before = this.buf.length;
    await new Promise((r) => setTimeout(r, ms));
    if (this.buf.length > before && !this.ended) await this.settle(ms);
  }

  /** Everything until the peer closes, or until `timeout` passes without new bytes. */
  async readAll(timeout: number, max = MAX_BUFFER): Promise<Buffer> {
    for (;;) {
      const before = this.buf.length;
      if (this.ended || before >= max) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.wake = undefined;
          resolve();
        }, timeout);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      if (this.buf.length === before && !this.ended) break;
    }
    const out = this.buf;
    this.buf = Buffer.alloc(0);
    return out;
  }

  close(): void {
    this.socket.destroy();
  }
}
