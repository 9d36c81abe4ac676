// The HTTP/1.1 client for well-formed requests without a proxy: keep-alive connections pooled per
// (origin, SNI), one request at a time on each, the request head written in one latin1 write. It
// exists for speed: a scan is mostly many small exchanges with few hosts, and this path costs about 30 %
// less CPU per exchange than undici (docs/engine.md). Requests with a SOCKS proxy keep undici; malformed or
// `unsafe` ones keep the raw-socket path (unsafe.ts).
//
// What a request costs here was cut on purpose (bench/cli, 20,000 probes): no timer, promise chain,
// listener or set entry of its own beyond one promise (deadlines and idle connections are watched by one
// sweep timer over the open connections, an abort signal by one listener per signal); plain TCP reads
// reach the exchange without a stream event; and requests are written together once per turn of the
// event loop, so a burst of writes wakes a sleeping target once instead of once per request.
import net from 'node:net';
import { decode } from './decode.ts';
import { ResponseReader, type ReadResponse } from './response-reader.ts';
import type { PreparedRequest } from './types.ts';
import { tls } from '../../lazy.ts';
import { failedSocket, type ConnectGuard } from '../../net/guard.ts';

const MAX_CONNECTIONS = 64; // per origin, as undici's pool was configured
const IDLE_MS = 10_000;

interface Pool {
  /** closeKeepAlive() dropped it: connections coming back are closed, not kept. */
  closed: boolean;
  idle: Conn[];
  open: number;
  waiting: (() => void)[];
  /** Decides each new connection's address (none: no limits). */
  guard: ConnectGuard | undefined;
}

interface Conn {
  socket: net.Socket;
  pool: Pool;
  /** The exchange in progress, which receives the socket's events; undefined while idle. */
  ex: Exchange | undefined;
  /** Carried an exchange before (a failure before any byte then means the server closed it idle). */
  used: boolean;
  /** performance.now() when it went idle (the sweep closes it IDLE_MS later). */
  idleSince: number;
  /** Unreferenced: an idle connection never keeps the process alive. */
  unrefd: boolean;
}

// Pools by origin, then by SNI: two lookups of strings the request already holds, no key built per request.
// Each connect guard has pools of its own: a connection one policy allowed is never lent to another.
type Pools = Map<string, Map<string, Pool>>;
const pools: Pools = new Map();
const guardedPools = new Map<ConnectGuard, Pools>();
/** Every open connection, busy or idle: what the sweep and an abort look through. */
const conns = new Set<Conn>();
const readBuffer = Buffer.alloc(64 * 1024);

function poolFor(origin: string, sni: string, guard: ConnectGuard | undefined): Pool {
  let byOrigin = pools;
  if (guard) {
    let g = guardedPools.get(guard);
    if (!g) guardedPools.set(guard, (g = new Map()));
    byOrigin = g;
  }
  let bySni = byOrigin.get(origin);
  if (!bySni) byOrigin.set(origin, (bySni = new Map()));
  let p = bySni.get(sni);
  if (!p) bySni.set(sni, (p = { closed: false, idle: [], open: 0, waiting: [], guard }));
  return p;
}

function* allPools(): Generator<Pool> {
  for (const byOrigin of [pools, ...guardedPools.values()])
    for (const bySni of byOrigin.values()) yield* bySni.values();
}

/** Closes every pooled connection (the end of a scan, tests). */
export function closeKeepAlive(): void {
  for (const p of allPools()) {
    p.closed = true;
    for (const c of p.idle) c.socket.destroy();
  }
  pools.clear();
  guardedPools.clear();
  // The last head's header lines can hold credentials (-H, the secret file): not kept past the scan.
  lastFrom = [];
  lastMethod = '';
  lastLength = -1;
  lastLines = '';
}

/** The socket of a new connection; under a guard, one that fails with the refusal when the address is denied. */
function dial(
  pool: Pool,
  host: string,
  port: number,
  secure: boolean,
  sni: string | undefined,
  onread: net.OnReadOpts,
): net.Socket {
  let target: { host: string; lookup?: net.LookupFunction } = { host };
  if (pool.guard) {
    try {
      target = pool.guard.connectOptions(host, port);
    } catch (err) {
      return failedSocket(err as Error);
    }
  }
  return secure
    ? tls().connect({
        ...target,
        port,
        servername: sni ?? (net.isIP(host) ? undefined : host),
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      })
    : net.connect({ ...target, port, onread });
}

function connect(pool: Pool, origin: URL, sni: string | undefined): Conn {
  const secure = origin.protocol === 'https:';
  const host = origin.hostname.startsWith('[') ? origin.hostname.slice(1, -1) : origin.hostname;
  const port = Number(origin.port || (secure ? 443 : 80));
  let conn: Conn;
  // Plain TCP reads land in one buffer shared by every connection (reads are handled one at a time), and
  // go straight to the exchange without a stream 'data' event: what an exchange keeps, it copies.
  const onread = {
    buffer: readBuffer,
    callback: (n: number, buf: Uint8Array) => {
      conn.ex?.onData(Buffer.from(buf.subarray(0, n)));
      return true;
    },
  };
  const socket = dial(pool, host, port, secure, sni, onread);
  socket.setNoDelay(true);
  conn = { socket, pool, ex: undefined, used: false, idleSince: 0, unrefd: false };
  if (secure) socket.on('data', (chunk: Buffer) => conn.ex?.onData(chunk));
  socket.on('error', (err) => (conn.ex ? conn.ex.onClose(err) : drop(conn)));
  socket.on('close', () => {
    conns.delete(conn);
    if (conn.ex) conn.ex.onClose();
    else drop(conn);
  });
  conns.add(conn);
  return conn;
}

/** An idle connection that closed or timed out leaves its pool. */
function drop(conn: Conn): void {
  const pool = conn.pool;
  const i = pool.idle.indexOf(conn);
  if (i >= 0) {
    pool.idle.splice(i, 1);
    pool.open--;
  }
}

/** An idle connection of the pool, or a new one while under the limit; undefined when the caller must wait. */
function take(pool: Pool, origin: URL, sni: string | undefined, fresh: boolean): Conn | undefined {
  const conn = fresh ? undefined : pool.idle.pop();
  if (conn) {
    if (conn.unrefd) {
      conn.socket.ref();
      conn.unrefd = false;
    }
    return conn;
  }
  if (pool.open < MAX_CONNECTIONS) {
    pool.open++;
    return connect(pool, origin, sni);
  }
  return undefined;
}

/** `now`: performance.now() of the caller, when the connection goes idle. */
function release(conn: Conn, reusable: boolean, now = 0): void {
  const pool = conn.pool;
  conn.ex = undefined;
  if (reusable && !conn.socket.destroyed && !pool.closed) {
    conn.used = true;
    conn.idleSince = now;
    pool.idle.push(conn);
    parkLater(conn);
  } else {
    conn.socket.destroy();
    pool.open--;
  }
  pool.waiting.shift()?.();
}

// Connections released in this turn of the event loop: those still idle at its end are unreferenced and
// left to the sweep. Most are taken again within the turn, so they never pay for unref() and ref().
const released: Conn[] = [];
function parkLater(conn: Conn): void {
  if (released.push(conn) === 1) setImmediate(park);
}
function park(): void {
  for (const conn of released) {
    if (conn.ex || conn.unrefd || conn.socket.destroyed) continue;
    conn.socket.unref();
    conn.unrefd = true;
    armSweep(conn.idleSince + IDLE_MS);
  }
  released.length = 0;
}

// One timer for every deadline and idle connection: armed for the earliest, re-armed by each sweep.
let sweepTimer: NodeJS.Timeout | undefined;
let sweepAt = Infinity;

function armSweep(at: number): void {
  if (at >= sweepAt) return;
  if (sweepTimer) clearTimeout(sweepTimer);
  sweepAt = at;
  // Unreferenced: in-flight exchanges keep their sockets referenced, which keeps the process alive.
  sweepTimer = setTimeout(sweep, Math.max(0, at - performance.now()) + 1).unref();
}

function sweep(): void {
  sweepTimer = undefined;
  sweepAt = Infinity;
  const now = performance.now();
  let next = Infinity;
  for (const conn of [...conns]) {
    const ex = conn.ex;
    if (ex) {
      if (ex.deadlineAt <= now) ex.fail(new Error(`timeout: no complete response within ${ex.deadlineMs} ms`), true);
      else next = Math.min(next, ex.deadlineAt);
    } else if (conn.unrefd) {
      // (an idle connection taken or parked in this turn is not unreferenced yet: park() arms the sweep for it)
      if (conn.idleSince + IDLE_MS <= now) conn.socket.destroy();
      else next = Math.min(next, conn.idleSince + IDLE_MS);
    }
  }
  if (next < Infinity) armSweep(next);
}

// One abort listener per signal, failing every exchange in flight that the signal governs (a request
// still queued for a connection fails when its turn comes, see start()).
const watched = new WeakSet<AbortSignal>();
function watch(signal: AbortSignal): void {
  if (watched.has(signal)) return;
  watched.add(signal);
  signal.addEventListener(
    'abort',
    () => {
      for (const conn of [...conns]) if (conn.ex?.signal === signal) conn.ex.fail(new Error('aborted'), true);
    },
    { once: true },
  );
}

// Requests written together at the end of each turn of the event loop (see the top of the file).
const writes: { socket: net.Socket; head: string; body: Buffer | undefined }[] = [];
function queueWrite(socket: net.Socket, head: string, body: Buffer | undefined): void {
  if (writes.push({ socket, head, body }) === 1) setImmediate(flushWrites);
}
function flushWrites(): void {
  for (let i = 0; i < writes.length; i++) {
    const { socket, head, body } = writes[i]!;
    if (socket.destroyed) continue;
    if (body) {
      socket.cork();
      socket.write(head, 'latin1');
      socket.write(body);
      socket.uncork();
    } else socket.write(head, 'latin1');
  }
  writes.length = 0;
}

export interface KeepAliveOptions {
  sni?: string;
  maxSize: number;
  signal?: AbortSignal;
  /** Fails the exchange: with what arrived once the head is in (a deadline keeps a partial body). */
  deadline: number;
  /** Decode the body by its Content-Encoding (gzip, deflate, br), within maxSize. */
  decode?: boolean;
  guard?: ConnectGuard;
}

export type KeepAliveResponse = ReadResponse & { duration: number };

// The header lines of the last head built and what they were built from (names and values in turn, the
// method, the body's length): the requests of a block mostly carry the same headers (Host, User-Agent),
// so most heads reuse those lines and only the request line is new. Copied, never the request's own array.
let lastFrom: string[] = [];
let lastMethod = '';
let lastLength = -1;
let lastLines = '';

function sameAsLast(headers: [string, string][]): boolean {
  if (headers.length * 2 !== lastFrom.length) return false;
  for (let i = 0; i < headers.length; i++) {
    const h = headers[i]!;
    if (h[0] !== lastFrom[2 * i] || h[1] !== lastFrom[2 * i + 1]) return false;
  }
  return true;
}

/**
 * The request head: the request line, our headers as they are (what a result's `request` value shows),
 * then the body's length where missing. No `Connection: keep-alive` is added: HTTP/1.1 connections are
 * persistent by default, and Go's client (so nuclei) sends none either.
 */
function requestHead(r: PreparedRequest, bodyLength: number): string {
  const line = `${r.method} ${r.path} HTTP/1.1\r\n`;
  if (bodyLength === lastLength && r.method === lastMethod && sameAsLast(r.headers)) return line + lastLines;
  const lines = headerLines(r, bodyLength);
  lastFrom = r.headers.flat();
  lastMethod = r.method;
  lastLength = bodyLength;
  lastLines = lines;
  return line + lines;
}

function headerLines(r: PreparedRequest, bodyLength: number): string {
  let head = '';
  let length = false;
  for (const [k, v] of r.headers) {
    head += `${k}: ${v}\r\n`;
    if (k.length === 14 && k.toLowerCase() === 'content-length') length = true;
  }
  // undici's rule: a length for any body, and 0 for the methods that expect one.
  if (!length && (bodyLength > 0 || r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH')) {
    head += `content-length: ${bodyLength}\r\n`;
  }
  return `${head}\r\n`;
}

const origins = new Map<string, URL>();
function originUrl(origin: string): URL {
  let u = origins.get(origin);
  if (!u) {
    u = new URL(origin);
    if (origins.size < 10_000) origins.set(origin, u);
  }
  return u;
}

/** One request and its answer; a reused connection that fails before any byte of the answer is retried on a new one. */
export function sendKeepAlive(r: PreparedRequest, o: KeepAliveOptions): Promise<KeepAliveResponse> {
  return new Promise((resolve, reject) => {
    if (o.signal?.aborted) return reject(new Error('aborted'));
    const body = r.body !== undefined && r.body !== '' ? Buffer.from(r.body, 'utf8') : undefined;
    const req: Request = {
      method: r.method,
      head: requestHead(r, body?.length ?? 0),
      body,
      o,
      origin: originUrl(r.origin),
      pool: poolFor(r.origin, o.sni ?? '', o.guard),
      started: performance.now(),
      resolve,
      reject,
    };
    start(req, false);
  });
}

interface Request {
  method: string;
  head: string;
  body: Buffer | undefined;
  o: KeepAliveOptions;
  origin: URL;
  pool: Pool;
  started: number;
  resolve: (res: KeepAliveResponse) => void;
  reject: (err: Error) => void;
}

function start(req: Request, fresh: boolean): void {
  if (req.o.signal?.aborted) return req.reject(new Error('aborted'));
  const conn = take(req.pool, req.origin, req.o.sni, fresh);
  if (!conn) {
    req.pool.waiting.push(() => start(req, fresh));
    return;
  }
  conn.ex = new Exchange(conn, req, conn.used);
  queueWrite(conn.socket, req.head, req.body);
}

class Exchange {
  private readonly reader: ResponseReader;
  private settled = false;
  readonly deadlineAt: number;

  constructor(
    private readonly conn: Conn,
    private readonly req: Request,
    private readonly reused: boolean,
  ) {
    this.reader = new ResponseReader(req.method, req.o.maxSize);
    this.deadlineAt = performance.now() + req.o.deadline;
    armSweep(this.deadlineAt);
    if (req.o.signal) watch(req.o.signal);
  }

  get signal(): AbortSignal | undefined {
    return this.req.o.signal;
  }

  get deadlineMs(): number {
    return this.req.o.deadline;
  }

  onData(chunk: Buffer): void {
    let res: ReadResponse | undefined;
    try {
      res = this.reader.push(chunk);
    } catch (err) {
      return this.failed(err as Error, true, false);
    }
    if (res) this.succeed(res, res.reusable);
  }

  onClose(err?: Error): void {
    const res = this.reader.end();
    if (res) this.succeed(res, false);
    else this.fail(err ?? new Error('connection closed before a response arrived'));
  }

  /** A deadline, an abort or a cut connection: what arrived once the head is in, as the undici path did. */
  fail(err: Error, aborted = false): void {
    const partial = this.reader.end();
    if (partial) this.succeed(partial, false);
    else this.failed(err, this.reader.started, aborted);
  }

  private succeed(res: ReadResponse, reusable: boolean): void {
    if (this.settled) return;
    this.settled = true;
    const now = performance.now();
    release(this.conn, reusable, now);
    const out = res as KeepAliveResponse;
    out.reusable = reusable;
    out.duration = now - this.req.started;
    if (this.req.o.decode && out.encoding) out.body = decode(out.body, out.encoding, this.req.o.maxSize);
    this.req.resolve(out);
  }

  private failed(err: Error, started: boolean, aborted: boolean): void {
    if (this.settled) return;
    this.settled = true;
    release(this.conn, false);
    // The server closed an idle connection as we reused it: once more on a new one.
    if (this.reused && !started && !aborted && !this.req.o.signal?.aborted) start(this.req, true);
    else this.req.reject(err);
  }
}
