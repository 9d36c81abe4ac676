// Sends prepared requests: through undici (keep-alive pools per host, any certificate) when the request
// is something undici accepts, otherwise over a raw socket. Retries network errors, never HTTP statuses.
import { Agent, type Dispatcher } from 'undici';
import tls from 'node:tls';
import net from 'node:net';
import { gunzipSync, inflateSync, brotliDecompressSync } from 'node:zlib';
import { sendRaw } from './unsafe.ts';
import { socks5Connect } from './socks5.ts';
import { serializeRequest } from './dump.ts';
import type { HttpClientOptions, HttpResponse, PreparedRequest } from './types.ts';

export const DEFAULT_MAX_SIZE = 10 * 1024 * 1024;

const agents = new Map<string, Agent>();

/** One keep-alive agent per (SNI, proxy) pair; undici keeps a pool per origin inside it. */
function agentFor(sni: string | undefined, proxy: string | undefined): Agent {
  const key = `${sni ?? ''}|${proxy ?? ''}`;
  let agent = agents.get(key);
  if (agent) return agent;
  const tlsOpts = { rejectUnauthorized: false, ...(sni ? { servername: sni } : {}) };
  if (proxy) {
    agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: (opts, cb) => {
        const port = Number(opts.port || (opts.protocol === 'https:' ? 443 : 80));
        socks5Connect(proxy, opts.hostname, port, 10_000).then((sock) => {
          if (opts.protocol !== 'https:') return cb(null, sock);
          const servername = sni ?? (net.isIP(opts.hostname) ? undefined : opts.hostname);
          const t = tls.connect({ socket: sock, servername, rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] });
          t.once('secureConnect', () => cb(null, t));
          t.once('error', (e) => cb(e, null));
        }, (e: Error) => cb(e, null));
      },
    });
  } else {
    agent = new Agent({ keepAliveTimeout: 10_000, connections: 64, pipelining: 1, connect: { ...tlsOpts, timeout: 10_000 } });
  }
  agents.set(key, agent);
  return agent;
}

/** Closes every pooled connection (tests and the CLI call this at the end of a scan). */
export async function closeClients(): Promise<void> {
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REFUSED_HEADERS = new Set(['transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/** undici validates requests strictly; anything it would refuse goes over the raw socket instead. */
function undiciCanSend(r: PreparedRequest): boolean {
  if (r.unsafe || !r.path.startsWith('/') || /[^\u0021-\u00ff]/.test(r.path) || !TOKEN.test(r.method)) return false;
  for (const [k, v] of r.headers) {
    const lk = k.toLowerCase();
    if (!TOKEN.test(k) || /[\r\n\0]/.test(v) || REFUSED_HEADERS.has(lk)) return false;
    if (lk === 'connection' && !['close', 'keep-alive'].includes(v.toLowerCase())) return false;
  }
  return true;
}

function decode(body: Buffer, encoding: string | undefined): Buffer {
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(body);
    if (encoding === 'deflate') return inflateSync(body);
    if (encoding === 'br') return brotliDecompressSync(body);
  } catch {
    // Keep the bytes as received when they do not decode.
  }
  return body;
}

async function sendOnce(r: PreparedRequest, o: HttpClientOptions, maxSize: number): Promise<HttpResponse> {
  const timeout = r.timeout ?? o.timeout;
  const sni = r.sni ?? o.sni;
  if (!undiciCanSend(r)) {
    const bytes = r.unsafe && r.rawBytes !== undefined ? Buffer.from(r.rawBytes, 'latin1') : Buffer.from(serializeRequest(r), 'utf8');
    return sendRaw({ origin: r.origin, bytes, method: r.method, timeout, sni, socks5Proxy: o.socks5Proxy, maxSize, signal: o.signal });
  }
  const started = performance.now();
  // headersTimeout/bodyTimeout bound the wait; the connect timeout is set on the agent.
  const res = await agentFor(sni, o.socks5Proxy).request({
    origin: r.origin,
    path: r.path,
    method: r.method as Dispatcher.HttpMethod,
    headers: r.headers.flat(),
    body: r.body,
    headersTimeout: timeout,
    bodyTimeout: timeout,
    signal: o.signal,
  });
  const chunks: Buffer[] = [];
  let size = 0;
  // Plain events rather than an async iterator: cheaper per response. A body cut short (wrong
  // Content-Length, connection reset) still counts: keep what arrived.
  await new Promise<void>((resolve) => {
    const body = res.body;
    body.on('data', (c: Buffer) => {
      if (size + c.length > maxSize) {
        chunks.push(c.subarray(0, maxSize - size));
        size = maxSize;
        body.destroy();
        resolve();
        return;
      }
      chunks.push(c);
      size += c.length;
    });
    body.once('end', () => resolve());
    body.once('error', () => resolve());
    body.once('close', () => resolve());
  });
  const headers: [string, string][] = [];
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const x of v) headers.push([k, x]);
    else if (v !== undefined) headers.push([k, v]);
  }
  const enc = (res.headers['content-encoding'] as string | undefined)?.toLowerCase();
  return {
    status: res.statusCode,
    statusText: '',
    headers,
    body: decode(Buffer.concat(chunks), enc),
    duration: performance.now() - started,
    version: 'HTTP/1.1',
  };
}

export async function send(r: PreparedRequest, o: HttpClientOptions, maxSize = DEFAULT_MAX_SIZE): Promise<HttpResponse> {
  let lastErr: unknown;
  for (let attempt = 0; attempt <= o.retries; attempt++) {
    if (o.signal?.aborted) throw new Error('aborted');
    try {
      return await sendOnce(r, o, maxSize);
    } catch (err) {
      lastErr = err;
    }
  }
  throw describeError(lastErr);
}

function describeError(err: unknown): Error {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new Error(`no address found for host (${e.message ?? code})`);
  if (e?.message?.includes('aborted due to timeout') || e?.message?.includes('Timeout')) return new Error(`timeout: ${e.message}`);
  return err instanceof Error ? err : new Error(String(err));
}
