// The host side of a javascript template's run: what the sandboxed script's module calls reach. Each run
// has its own `HostEnv`: the connect guard (the deny list, decided on the address actually connected to),
// the scan's target (the only host a module may connect to), the per-call timeout, and the handles of
// what the script opened (connections, clients), all closed when the run ends, however it ends.
import net from 'node:net';
import { dnsPromises } from '../../lazy.ts';
import { dialTcp, type ConnectGuard } from '../../net/guard.ts';
import { parseAddress } from '../../net/address.ts';

/** One module operation: its arguments as data, its answer as data. */
export type HostOp = (env: HostEnv, args: unknown[]) => unknown;

/** Something a script opened: closed at the end of the run. */
export interface Handle {
  kind: string;
  close(): void;
}

/** A module call that the platform refuses (outside the target, denied address, refused module). */
export class RefusedError extends Error {}

export class HostEnv {
  private readonly handles = new Map<number, Handle>();
  private nextId = 1;
  private targetAddresses: Promise<Set<string>> | undefined;

  constructor(
    readonly o: {
      guard?: ConnectGuard;
      /** The scan's input host (name or address); a module connects to it and nothing else. */
      targetHost: string | undefined;
      /** Per network call (connect, each read), ms. */
      timeoutMs: number;
      /** Fires when the run ends (finished, stopped, past its deadline). */
      signal: AbortSignal;
      log?: (text: string) => void;
      /** The templates folder `nuclei/fs` may read (modules/fs.ts); unset: fs reads nothing. */
      filesRoot?: string;
    },
  ) {}

  private fileBytes = 0;

  get filesRoot(): string | undefined {
    return this.o.filesRoot;
  }

  /** Counts bytes read from files by this run; refuses past `max`. */
  chargeFileBytes(n: number, max: number): void {
    if (this.fileBytes + n > max) throw new RefusedError(`fs: more than ${max} bytes read in one script`);
    this.fileBytes += n;
  }

  get guard(): ConnectGuard | undefined {
    return this.o.guard;
  }
  get timeoutMs(): number {
    return this.o.timeoutMs;
  }
  get signal(): AbortSignal {
    return this.o.signal;
  }

  add(h: Handle): number {
    if (this.o.signal.aborted) {
      h.close();
      throw new Error('the script was stopped');
    }
    if (this.handles.size >= 64) {
      h.close();
      throw new Error('too many open connections in one script (64)');
    }
    const id = this.nextId++;
    this.handles.set(id, h);
    return id;
  }

  get<T extends Handle>(id: unknown, kind: string): T {
    const h = this.handles.get(Number(id));
    if (!h || h.kind !== kind) throw new Error(`not an open ${kind}`);
    return h as T;
  }

  drop(id: unknown): void {
    const h = this.handles.get(Number(id));
    if (!h) return;
    this.handles.delete(Number(id));
    h.close();
  }

  /** Closes everything the script opened. */
  closeAll(): void {
    for (const h of this.handles.values()) {
      try {
        h.close();
      } catch {
        // closing is best effort
      }
    }
    this.handles.clear();
  }

  /**
   * Throws RefusedError unless `host` is the scan's target: its name, or (for a target given by name)
   * one of the addresses it resolves to. The deny list is applied again at connect time by the guard.
   */
  async checkScope(host: string): Promise<void> {
    const asked = normal(host);
    const target = this.o.targetHost === undefined ? undefined : normal(this.o.targetHost);
    if (target === undefined) throw new RefusedError(`connection to ${host} refused: the template has no target`);
    if (asked === target) return;
    if (parseAddress(asked) && !parseAddress(target)) {
      this.targetAddresses ??= dnsPromises()
        .lookup(target, { all: true })
        .then((list) => new Set(list.map((a) => normal(a.address))))
        .catch(() => new Set<string>());
      if ((await this.targetAddresses).has(asked)) return;
    }
    throw new RefusedError(`connection to ${host} refused: it is not the scan's target (${this.o.targetHost})`);
  }
}

function normal(host: string): string {
  const bare = host
    .trim()
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const a = parseAddress(bare);
  return a ? a.text : bare;
}

/** "host:port" (or "[v6]:port") -> parts; throws on a missing port. */
export function splitAddress(address: string): { host: string; port: number } {
  const m = /^\[([^\]]+)\]:(\d+)$/.exec(address) ?? /^([^:]*):(\d+)$/.exec(address);
  if (!m) throw new Error(`address ${address}: missing port in address`);
  return { host: m[1]!, port: Number(m[2]) };
}

export function portOf(v: unknown): number {
  const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`invalid port ${String(v)}`);
  return n;
}

export function text(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (Buffer.isBuffer(v)) return v.toString('utf8');
  return String(v);
}

/** Data a script hands to be sent: bytes as they are, text as UTF-8 (Go's []byte(string)), arrays of byte values. */
export function bytesOf(v: unknown): Buffer {
  if (Buffer.isBuffer(v)) return v;
  if (Array.isArray(v))
    return Buffer.concat(v.map((x) => (typeof x === 'number' ? Buffer.from([x & 0xff]) : bytesOf(x))));
  return Buffer.from(text(v), 'utf8');
}

/** Rejects after `ms`, or when the run ends. */
export function bounded<T>(p: Promise<T>, env: HostEnv, what: string, ms = env.timeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${what} timed out`)), ms);
    const onAbort = () => finish(new Error('the script was stopped'));
    env.signal.addEventListener('abort', onAbort, { once: true });
    function finish(err: Error | undefined, v?: T) {
      clearTimeout(timer);
      env.signal.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve(v as T);
    }
    p.then(
      (v) => finish(undefined, v),
      (e: unknown) => finish(e instanceof Error ? e : new Error(String(e))),
    );
  });
}

/** A TCP connection to the target through the guard, already connected; closed at the end of the run. */
export async function connectTcp(env: HostEnv, host: string, port: number): Promise<net.Socket> {
  await env.checkScope(host);
  const socket = dialTcp(env.guard, { host: host.replace(/^\[|\]$/g, ''), port });
  const handle = { kind: 'socket', close: () => socket.destroy() };
  const id = env.add(handle);
  try {
    await bounded(
      new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('error', reject);
      }),
      env,
      `connect to ${host}:${port}`,
    );
  } catch (err) {
    env.drop(id);
    throw err;
  }
  socket.on('error', () => {}); // later errors surface through the client that owns the socket
  socket.once('close', () => env.drop(id)); // a closed socket no longer counts against the script's limit
  return socket;
}
