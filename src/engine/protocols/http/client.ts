// Sends prepared requests: through undici (keep-alive pools per host, any certificate) when the request
// is something undici accepts, otherwise over a raw socket. Retries network errors, never HTTP statuses.
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
import { createRequire } from 'node:module';
import net from 'node:net';
import { sendRaw } from './unsafe.ts';
import { closeKeepAlive, sendKeepAlive, type KeepAliveOptions } from './keepalive.ts';
import { decodedBody } from './decode.ts';
import { socks5Connect } from './socks5.ts';
import { serializeRequest } from './dump.ts';
import type { HttpClientOptions, HttpResponse, PreparedRequest } from './types.ts';
import { tls } from '../../lazy.ts';
import { isEgressDenied, type ConnectGuard } from '../../net/guard.ts';

export const DEFAULT_MAX_SIZE = 10 * 1024 * 1024;

// undici carries requests through a SOCKS proxy; it is loaded the first time one is used. Only its Agent
// is needed: its own module loads in about a third of the time of the package index. undici has no
// "exports" map, so the file is reachable; should a release move it, the package index is used.
let AgentClass: typeof UndiciAgent | undefined;
const loadAgent = (): typeof UndiciAgent =>
  (AgentClass ??= (() => {
    const load = createRequire(import.meta.url);
    try {
      const agent = load('undici/lib/dispatcher/agent.js') as typeof UndiciAgent;
      if (typeof agent === 'function') return agent;
    } catch {
      // moved in this undici version
    }
    return (load('undici') as typeof import('undici')).Agent;
  })());
type Agent = UndiciAgent;

const agents = new Map<string, Agent>();
const guardIds = new WeakMap<ConnectGuard, number>();
let lastGuardId = 0;
const guardId = (g: ConnectGuard | undefined) => {
  if (!g) return 0;
  let id = guardIds.get(g);
  if (id === undefined) guardIds.set(g, (id = ++lastGuardId));
  return id;
};

/** One keep-alive agent per (SNI, proxy, guard); undici keeps a pool per origin inside it. */
function agentFor(sni: string | undefined, proxy: string | undefined, guard: ConnectGuard | undefined): Agent {
  const key = `${sni ?? ''}|${proxy ?? ''}|${guardId(guard)}`;
  let agent = agents.get(key);
  if (agent) return agent;
  const tlsOpts = { rejectUnauthorized: false, ...(sni ? { servername: sni } : {}) };
  const Agent = loadAgent();
  if (proxy) {
    agent = new Agent({
      keepAliveTimeout: 10_000,
      connect: (opts, cb) => {
        const port = Number(opts.port || (opts.protocol === 'https:' ? 443 : 80));
        socks5Connect(proxy, opts.hostname, port, 10_000, guard).then(
          (sock) => {
            if (opts.protocol !== 'https:') return cb(null, sock);
            const servername = sni ?? (net.isIP(opts.hostname) ? undefined : opts.hostname);
            const t = tls().connect({
              socket: sock,
              servername,
              rejectUnauthorized: false,
              ALPNProtocols: ['http/1.1'],
            });
            t.once('secureConnect', () => cb(null, t));
            t.once('error', (e) => cb(e, null));
          },
          (e: Error) => cb(e, null),
        );
      },
    });
  } else {
    agent = new Agent({
      keepAliveTimeout: 10_000,
      connections: 64,
      pipelining: 1,
      connect: { ...tlsOpts, timeout: 10_000 },
    });
  }
  agents.set(key, agent);
  return agent;
}

/** Closes every pooled connection (tests and the CLI call this at the end of a scan). */
export async function closeClients(): Promise<void> {
  closeKeepAlive();
  lastOptions = undefined;
  const all = [...agents.values()];
  agents.clear();
  await Promise.all(all.map((a) => a.close().catch(() => undefined)));
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REFUSED_HEADERS = new Set(['transfer-encoding', 'keep-alive', 'upgrade', 'expect']);

/** undici validates requests strictly; anything it would refuse goes over the raw socket instead. */
function undiciCanSend(r: PreparedRequest): boolean {
  if (r.unsafe || !r.path.startsWith('/') || /[^\u0021-\u00ff]/.test(r.path) || !TOKEN.test(r.method)) return false;
  const headers = r.headers;
  for (let i = 0; i < headers.length; i++) {
    const [k, v] = headers[i]!;
    const name = headerName(k);
    if (name === REFUSED || !cleanValue(v)) return false;
    if (name === 'connection' && !['close', 'keep-alive'].includes(v.toLowerCase())) return false;
  }
  return true;
}

/** A header value without CR, LF or NUL; values repeat on every request (User-Agent), so the clean ones are kept. */
const cleanValues = new Set<string>();
function cleanValue(v: string): boolean {
  if (cleanValues.has(v)) return true;
  if (/[\r\n\0]/.test(v)) return false;
  if (cleanValues.size < 10_000) cleanValues.add(v);
  return true;
}

/** A header name checked once (names repeat on every request): its lower case, or REFUSED. */
const REFUSED = '';
const names = new Map<string, string>();
function headerName(k: string): string {
  let n = names.get(k);
  if (n === undefined) {
    const lk = k.toLowerCase();
    n = !TOKEN.test(k) || REFUSED_HEADERS.has(lk) ? REFUSED : lk;
    if (names.size < 10_000) names.set(k, n);
  }
  return n;
}

function sendOnce(r: PreparedRequest, o: HttpClientOptions, maxSize: number): Promise<HttpResponse> {
  const timeout = r.timeout ?? o.timeout;
  const sni = r.sni ?? o.sni;
  if (!undiciCanSend(r)) {
    const bytes =
      r.unsafe && r.rawBytes !== undefined
        ? Buffer.from(r.rawBytes, 'latin1')
        : Buffer.from(serializeRequest(r), 'utf8');
    return sendRaw({
      origin: r.origin,
      bytes,
      method: r.method,
      timeout,
      sni,
      socks5Proxy: o.socks5Proxy,
      maxSize,
      signal: o.signal,
      readAll: r.readAll,
      guard: o.guard,
    });
  }
  if (!o.socks5Proxy) return viaKeepAlive(r, sni, timeout, maxSize, o.signal, o.guard);
  return dispatchOnce(agentFor(sni, o.socks5Proxy, o.guard), r, timeout, maxSize, o.signal);
}

/**
 * The keep-alive client's answer is an HttpResponse as it is (plus its framing flags): no copy. The
 * options are the same for every request of a block, so the last ones are reused when they match (the
 * client only reads them).
 */
let lastOptions: KeepAliveOptions | undefined;
function viaKeepAlive(
  r: PreparedRequest,
  sni: string | undefined,
  timeout: number,
  maxSize: number,
  signal?: AbortSignal,
  guard?: ConnectGuard,
): Promise<HttpResponse> {
  let o = lastOptions;
  if (
    !o ||
    o.sni !== sni ||
    o.maxSize !== maxSize ||
    o.signal !== signal ||
    o.deadline !== timeout ||
    o.guard !== guard
  )
    lastOptions = o = { sni, maxSize, signal, deadline: timeout, decode: true, guard };
  return sendKeepAlive(r, o);
}

/**
 * Collects one response through undici's dispatch interface: no body stream per response, raw header
 * names and order as sent, the status text. A body cut short (wrong Content-Length, reset) or cut at
 * max-size still yields a response with what arrived.
 */
class Collector implements Dispatcher.DispatchHandler {
  private status = 0;
  private statusText = '';
  private headers: [string, string][] = [];
  private chunks: Buffer[] = [];
  private size = 0;
  private gotHeaders = false;
  private settled = false;
  private abortFn: ((err?: Error) => void) | undefined;
  private readonly started = performance.now();

  constructor(
    private readonly maxSize: number,
    private readonly resolve: (r: HttpResponse) => void,
    private readonly reject: (e: Error) => void,
  ) {}

  abort(err: Error): void {
    if (this.abortFn) this.abortFn(err);
    else if (!this.settled) {
      // Not connected yet: fail now; undici's later callbacks find the request settled.
      this.settled = true;
      this.reject(err);
    }
  }

  onConnect(abort: (err?: Error) => void): void {
    this.abortFn = abort;
  }

  onHeaders(statusCode: number, raw: Buffer[], _resume: () => void, statusText: string): boolean {
    if (statusCode < 200) return true; // 1xx informational: the real response follows
    this.status = statusCode;
    this.statusText = statusText;
    for (let i = 0; i + 1 < raw.length; i += 2)
      this.headers.push([raw[i].toString('latin1'), raw[i + 1].toString('latin1')]);
    this.gotHeaders = true;
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.size + chunk.length > this.maxSize) {
      this.chunks.push(chunk.subarray(0, this.maxSize - this.size));
      this.size = this.maxSize;
      this.finish();
      this.abortFn?.(new Error('max-size reached'));
      return false;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    return true;
  }

  onComplete(): void {
    this.finish();
  }

  onError(err: Error): void {
    if (this.gotHeaders) this.finish();
    else if (!this.settled) {
      this.settled = true;
      this.reject(err);
    }
  }

  private finish(): void {
    if (this.settled) return;
    this.settled = true;
    const body = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    this.resolve({
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
      body: decodedBody(this.headers, body, this.maxSize),
      duration: performance.now() - this.started,
      version: 'HTTP/1.1',
    });
  }
}

/**
 * One exchange through undici. undici's own timeouts count idle time only, so a target that drips a byte
 * every two seconds would hold the request forever: the whole exchange also has a deadline of `timeout`
 * (as Go's http.Client.Timeout in nuclei), after which what arrived is kept or the request fails.
 */
function dispatchOnce(
  agent: Agent,
  r: PreparedRequest,
  timeout: number,
  maxSize: number,
  signal?: AbortSignal,
): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    if (signal?.aborted) return reject(new Error('aborted'));
    const onAbort = () => c.abort(new Error('aborted'));
    const done = () => {
      clearTimeout(deadline);
      signal?.removeEventListener('abort', onAbort);
    };
    const c = new Collector(
      maxSize,
      (res) => {
        done();
        resolve(res);
      },
      (err) => {
        done();
        reject(err);
      },
    );
    const deadline = setTimeout(
      () => c.abort(new Error(`timeout: no complete response within ${timeout} ms`)),
      timeout,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    agent.dispatch(dispatchOptions(r, timeout), c);
  });
}

function flatHeaders(headers: [string, string][]): string[] {
  const out = new Array<string>(headers.length * 2);
  for (let i = 0; i < headers.length; i++) {
    out[2 * i] = headers[i][0];
    out[2 * i + 1] = headers[i][1];
  }
  return out;
}

function dispatchOptions(r: PreparedRequest, timeout: number): Dispatcher.DispatchOptions {
  return {
    origin: r.origin,
    path: r.path,
    method: r.method as Dispatcher.HttpMethod,
    headers: flatHeaders(r.headers),
    body: r.body,
    headersTimeout: timeout,
    bodyTimeout: timeout,
  };
}

export function send(r: PreparedRequest, o: HttpClientOptions, maxSize = DEFAULT_MAX_SIZE): Promise<HttpResponse> {
  if (o.signal?.aborted) return Promise.reject(new Error('aborted'));
  let first: Promise<HttpResponse>;
  try {
    first = sendOnce(r, o, maxSize);
  } catch (err) {
    return retry(r, o, maxSize, 1, err);
  }
  return first.catch((err: unknown) => retry(r, o, maxSize, 1, err));
}

/** Network errors are tried again up to `retries` times (never HTTP statuses, never a refused destination). */
async function retry(
  r: PreparedRequest,
  o: HttpClientOptions,
  maxSize: number,
  attempt: number,
  err: unknown,
): Promise<HttpResponse> {
  for (; attempt <= o.retries && !isEgressDenied(err); attempt++) {
    if (o.signal?.aborted) throw new Error('aborted');
    try {
      return await sendOnce(r, o, maxSize);
    } catch (e) {
      err = e;
    }
  }
  throw describeError(err);
}

function describeError(err: unknown): Error {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = e?.code ?? e?.cause?.code;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new Error(`no address found for host (${e.message ?? code})`);
  if (e?.message?.includes('aborted due to timeout') || e?.message?.includes('Timeout'))
    return new Error(`timeout: ${e.message}`);
  return err instanceof Error ? err : new Error(String(err));
}
