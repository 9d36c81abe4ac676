// The raw socket path: sends bytes exactly as given (unsafe: true, or requests undici refuses such as
// relative request targets) and reads one response back.
import { openSocket } from './wire.ts';
import { ResponseReader, type ReadResponse } from './response-reader.ts';
import type { HttpResponse } from './types.ts';
import type { ConnectGuard } from '../../net/guard.ts';

export interface RawSendOptions {
  origin: string;
  bytes: Buffer;
  method: string;
  timeout: number;
  sni?: string;
  socks5Proxy?: string;
  maxSize: number;
  signal?: AbortSignal;
  readAll?: boolean;
  guard?: ConnectGuard;
}

export async function sendRaw(o: RawSendOptions): Promise<HttpResponse> {
  const url = new URL(o.origin);
  const secure = url.protocol === 'https:';
  const started = performance.now();
  const socket = await openSocket({
    host: url.hostname,
    port: Number(url.port || (secure ? 443 : 80)),
    secure,
    sni: o.sni,
    timeout: o.timeout,
    socks5Proxy: o.socks5Proxy,
    guard: o.guard,
  });
  // With read-all the response ends with the connection, whatever its Content-Length says.
  const reader = new ResponseReader(o.method, o.maxSize, o.readAll);
  return new Promise<HttpResponse>((resolve, reject) => {
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      settled = true;
      cleanup();
      reject(err);
    };
    const finish = (parsed: ReadResponse | undefined, ended: boolean) => {
      if (settled) return;
      if (!parsed) {
        if (ended) fail(new Error('malformed HTTP response: no header terminator'));
        return;
      }
      // read-all waits for the end of the connection (or the size cap).
      if (o.readAll && !ended && !parsed.truncated) return;
      settled = true;
      cleanup();
      resolve({
        status: parsed.status,
        statusText: parsed.statusText,
        headers: parsed.headers,
        body: parsed.body,
        duration: performance.now() - started,
        version: parsed.version,
      });
    };
    const end = () => {
      if (settled) return;
      try {
        finish(reader.end(), true);
      } catch (err) {
        fail(err);
      }
    };
    const timer = setTimeout(() => {
      if (size > 0) end();
      if (!settled) fail(new Error(`timeout after ${o.timeout}ms`));
    }, o.timeout);
    const onAbort = () => {
      if (!settled) fail(new Error('aborted'));
    };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
    };
    socket.on('data', (c: Buffer) => {
      if (settled) return;
      size += c.length;
      try {
        finish(reader.push(c), false);
      } catch (err) {
        fail(err);
      }
    });
    socket.on('end', end);
    socket.on('close', end);
    socket.on('error', (e) => {
      if (size > 0) end();
      if (!settled) fail(e);
    });
    socket.resume(); // a socket handed over by the SOCKS5 handshake is paused
    socket.write(o.bytes);
  });
}
