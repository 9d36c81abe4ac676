// The raw socket path: sends bytes exactly as given (unsafe: true, or requests undici refuses such as
// relative request targets) and reads one response back.
import { openSocket } from './wire.ts';
import { tryParseResponse } from './response-parser.ts';
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
    host: url.hostname, port: Number(url.port || (secure ? 443 : 80)), secure, sni: o.sni, timeout: o.timeout,
    socks5Proxy: o.socks5Proxy, guard: o.guard,
  });
  return new Promise<HttpResponse>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      let parsed;
      try {
        parsed = o.readAll && !ended ? undefined : tryParseResponse(Buffer.concat(chunks), ended, o.method, o.readAll);
      } catch (err) {
        settled = true;
        cleanup();
        reject(err);
        return;
      }
      if (!parsed) return;
      settled = true;
      cleanup();
      resolve({
        status: parsed.status, statusText: parsed.statusText, headers: parsed.headers,
        body: parsed.body.length > o.maxSize ? parsed.body.subarray(0, o.maxSize) : parsed.body,
        duration: performance.now() - started, version: parsed.version,
      });
    };
    const timer = setTimeout(() => {
      if (size > 0) finish(true);
      if (!settled) { settled = true; cleanup(); reject(new Error(`timeout after ${o.timeout}ms`)); }
    }, o.timeout);
    const onAbort = () => { if (!settled) { settled = true; cleanup(); reject(new Error('aborted')); } };
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size > o.maxSize + 65536) finish(true);
      else finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    socket.on('error', (e) => {
      if (size > 0) finish(true);
      if (!settled) { settled = true; cleanup(); reject(e); }
    });
    socket.resume(); // a socket handed over by the SOCKS5 handshake is paused
    socket.write(o.bytes);
  });
}
