// The HTTP/1.1 client for well-formed requests without a proxy: keep-alive connections pooled per
// (origin, SNI), one request at a time on each, the request head written in one latin1 write. It
// exists for speed: a scan is mostly many small exchanges with few hosts, and this path costs about
// half of undici's CPU per exchange (bench/cli). Requests with a SOCKS proxy keep undici; malformed or
// `unsafe` ones keep the raw-socket path (unsafe.ts).
import net from 'node:net';
import tls from 'node:tls';
import { ResponseReader, type ReadResponse } from './response-reader.ts';
import type { PreparedRequest } from './types.ts';

const MAX_CONNECTIONS = 64; // per origin, as undici's pool was configured
const IDLE_MS = 10_000;

interface Conn {
  socket: net.Socket;
  idleTimer?: NodeJS.Timeout;
  /** The exchange in progress: receives the socket's events. */
  onData?: (chunk: Buffer) => void;
  onClose?: (err?: Error) => void;
  used: boolean;
}

interface Pool {
  idle: Conn[];
  open: number;
  waiting: (() => void)[];
}

const pools = new Map<string, Pool>();

function poolFor(key: string): Pool {
  let p = pools.get(key);
  if (!p) pools.set(key, (p = { idle: [], open: 0, waiting: [] }));
  return p;
}

/** Closes every pooled connection (the end of a scan, tests). */
export function closeKeepAlive(): void {
  for (const p of pools.values()) for (const c of p.idle) c.socket.destroy();
  pools.clear();
}

function connect(origin: URL, sni: string | undefined): Conn {
  const secure = origin.protocol === 'https:';
  const host = origin.hostname.startsWith('[') ? origin.hostname.slice(1, -1) : origin.hostname;
  const port = Number(origin.port || (secure ? 443 : 80));
  const socket = secure
    ? tls.connect({ host, port, servername: sni ?? (net.isIP(host) ? undefined : host), rejectUnauthorized: false, ALPNProtocols: ['http/1.1'] })
    : net.connect({ host, port });
  socket.setNoDelay(true);
  const conn: Conn = { socket, used: false };
  socket.on('data', (chunk: Buffer) => conn.onData?.(chunk));
  socket.on('error', (err) => conn.onClose?.(err));
  socket.on('close', () => conn.onClose?.());
  return conn;
}

function release(key: string, pool: Pool, conn: Conn, reusable: boolean): void {
  conn.onData = undefined;
  conn.onClose = undefined;
  if (reusable && !conn.socket.destroyed && pools.get(key) === pool) {
    conn.used = true;
    conn.socket.unref(); // an idle connection never keeps the process alive
    conn.onClose = () => drop(pool, conn);
    conn.idleTimer = setTimeout(() => conn.socket.destroy(), IDLE_MS).unref();
    pool.idle.push(conn);
  } else {
    conn.socket.destroy();
    pool.open--;
  }
  pool.waiting.shift()?.();
}

function drop(pool: Pool, conn: Conn): void {
  const i = pool.idle.indexOf(conn);
  if (i >= 0) {
    pool.idle.splice(i, 1);
    pool.open--;
    clearTimeout(conn.idleTimer);
  }
}

async function acquire(key: string, origin: URL, sni: string | undefined, fresh: boolean): Promise<{ pool: Pool; conn: Conn }> {
  const pool = poolFor(key);
  for (;;) {
    const conn = fresh ? undefined : pool.idle.pop();
    if (conn) {
      clearTimeout(conn.idleTimer);
      conn.onClose = undefined;
      conn.socket.ref();
      return { pool, conn };
    }
    if (pool.open < MAX_CONNECTIONS) {
      pool.open++;
      return { pool, conn: connect(origin, sni) };
    }
    await new Promise<void>((resolve) => pool.waiting.push(resolve));
  }
}

export interface KeepAliveOptions {
  sni?: string;
  maxSize: number;
  signal?: AbortSignal;
  /** Fails the exchange: with what arrived once the head is in (a deadline keeps a partial body). */
  deadline: number;
}

/** The request head as undici wrote it: our headers, then keep-alive and the body's length if missing. */
function requestHead(r: PreparedRequest, bodyLength: number): string {
  let head = `${r.method} ${r.path} HTTP/1.1\r\n`;
  let connection = false;
  let length = false;
  for (const [k, v] of r.headers) {
    head += `${k}: ${v}\r\n`;
    if (k.length === 10 && k.toLowerCase() === 'connection') connection = true;
    else if (k.length === 14 && k.toLowerCase() === 'content-length') length = true;
  }
  if (!connection) head += 'connection: keep-alive\r\n';
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

/** One exchange; a reused connection that fails before any byte of the answer is retried on a new one. */
export async function sendKeepAlive(r: PreparedRequest, o: KeepAliveOptions): Promise<ReadResponse & { duration: number }> {
  const origin = originUrl(r.origin);
  const key = `${r.origin}|${o.sni ?? ''}`;
  const body = r.body !== undefined && r.body !== '' ? Buffer.from(r.body, 'utf8') : undefined;
  const head = requestHead(r, body?.length ?? 0);
  const started = performance.now();
  for (let fresh = false; ; fresh = true) {
    if (o.signal?.aborted) throw new Error('aborted');
    const { pool, conn } = await acquire(key, origin, o.sni, fresh);
    const reused = conn.used;
    const outcome = await exchange(conn, r.method, head, body, o);
    release(key, pool, conn, outcome.ok ? outcome.res.reusable : false);
    if (outcome.ok) {
      outcome.res.duration = performance.now() - started;
      return outcome.res as ReadResponse & { duration: number };
    }
    if (reused && !outcome.started && !outcome.aborted) continue; // the server closed an idle connection
    throw outcome.err;
  }
}

type Outcome = { ok: true; res: ReadResponse } | { ok: false; err: Error; started: boolean; aborted: boolean };

function exchange(conn: Conn, method: string, head: string, body: Buffer | undefined, o: KeepAliveOptions): Promise<Outcome> {
  return new Promise<Outcome>((resolve) => {
    const reader = new ResponseReader(method, o.maxSize);
    let settled = false;
    const settle = (out: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', onAbort);
      resolve(out);
    };
    const fail = (err: Error, aborted = false) => {
      // A deadline or a cut connection after the head keeps what arrived, as the undici path did.
      const partial = reader.end();
      if (partial) {
        partial.reusable = false;
        settle({ ok: true, res: partial });
      }
      else settle({ ok: false, err, started: reader.started, aborted });
    };
    const onAbort = () => fail(new Error('aborted'), true);
    const timer = setTimeout(() => fail(new Error(`timeout: no complete response within ${o.deadline} ms`), true), o.deadline);
    o.signal?.addEventListener('abort', onAbort, { once: true });
    conn.onData = (chunk) => {
      try {
        const res = reader.push(chunk);
        if (res) settle({ ok: true, res });
      } catch (err) {
        settle({ ok: false, err: err as Error, started: true, aborted: false });
      }
    };
    conn.onClose = (err) => {
      const res = reader.end();
      if (res) {
        res.reusable = false;
        settle({ ok: true, res });
      }
      else fail(err ?? new Error('connection closed before a response arrived'));
    };
    if (body) {
      conn.socket.cork();
      conn.socket.write(head, 'latin1');
      conn.socket.write(body);
      conn.socket.uncork();
    } else conn.socket.write(Buffer.from(head, 'latin1'));
  });
}
