// tcp (`network`) blocks: connect to each address (`tls://` for TLS), send the inputs (text or hex, each
// optionally followed by a read whose bytes can be named), then read the answer: `read-size` bytes
// (default 1024) or, with `read-all`, until the peer closes. Operators see `data` (the last read; also the
// default part), `raw` (everything received), `request` (everything sent).
import net from 'node:net';
import tls from 'node:tls';
import type { OtherProtocolBlock } from '../../template/types.ts';
import type { BlockContext, BlockOutcome } from '../types.ts';
import { evaluate, list, payloadSets, renderText, requestVars, splitHostPort } from '../common.ts';

const MAX_READ = 10 * 1024 * 1024;

interface Input { data?: unknown; type?: string; read?: number; name?: string }

/** A socket with a byte queue: read(n) waits for up to n bytes (or the end, or the deadline). */
class Conn {
  private buf: Buffer = Buffer.alloc(0);
  private ended = false;
  private error: Error | undefined;
  private wake: (() => void) | undefined;
  received: Buffer = Buffer.alloc(0);

  constructor(readonly sock: net.Socket) {
    sock.on('data', (d: Buffer) => {
      if (this.received.length < MAX_READ) this.received = Buffer.concat([this.received, d]);
      this.buf = Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    sock.on('end', () => { this.ended = true; this.wake?.(); });
    sock.on('close', () => { this.ended = true; this.wake?.(); });
    sock.on('error', (e) => { this.error = e; this.ended = true; this.wake?.(); });
  }

  /** Up to `max` bytes: returns once `max` arrived, the peer closed, `all` is off and data stopped for a moment, or the deadline passed. */
  async read(max: number, timeoutMs: number, all = false): Promise<Buffer> {
    const deadline = Date.now() + timeoutMs;
    let quietSince = 0;
    for (;;) {
      if (this.buf.length >= max || this.ended || Date.now() >= deadline) break;
      if (!all && this.buf.length > 0 && quietSince && Date.now() - quietSince >= 300) break;
      const before = this.buf.length;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(100, Math.max(1, deadline - Date.now())));
        this.wake = () => { clearTimeout(t); resolve(); };
      });
      this.wake = undefined;
      if (this.buf.length !== before) quietSince = Date.now();
      else if (!quietSince && this.buf.length > 0) quietSince = Date.now();
    }
    if (this.error && this.buf.length === 0) throw this.error;
    const out = this.buf.subarray(0, max);
    this.buf = this.buf.subarray(out.length);
    return out;
  }
}

function connect(host: string, port: number, useTls: boolean, timeoutMs: number, signal?: AbortSignal): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const sock = useTls
      ? tls.connect({ host, port, servername: net.isIP(host) ? undefined : host, rejectUnauthorized: false })
      : net.connect({ host, port });
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`connect to ${host}:${port} timed out`)); }, timeoutMs);
    const onAbort = () => { sock.destroy(); reject(new Error('aborted')); };
    signal?.addEventListener('abort', onAbort, { once: true });
    sock.once(useTls ? 'secureConnect' : 'connect', () => { clearTimeout(timer); signal?.removeEventListener('abort', onAbort); resolve(sock); });
    sock.once('error', (e) => { clearTimeout(timer); signal?.removeEventListener('abort', onAbort); reject(e); });
  });
}

/** The addresses a host entry names: its own port, else each of the block's `port` values. */
function addresses(rendered: string, ports: string[]): { host: string; port: number; tls: boolean }[] {
  const useTls = /^tls:\/\//i.test(rendered);
  const bare = rendered.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, '');
  const { host, port } = splitHostPort(bare);
  if (port !== undefined) return [{ host, port, tls: useTls }];
  return ports.map((p) => ({ host, port: Number(p), tls: useTls })).filter((a) => Number.isInteger(a.port) && a.port > 0 && a.port < 65536);
}

export async function runNetwork(block: OtherProtocolBlock, ctx: BlockContext): Promise<BlockOutcome> {
  const f = block.fields;
  const inputs = (Array.isArray(f.inputs) ? f.inputs : []) as Input[];
  const readSize = Math.min(typeof f['read-size'] === 'number' ? f['read-size'] : 1024, MAX_READ);
  const readAll = Boolean(f['read-all']);
  const ports = list(f.port).flatMap((p) => p.split(',')).map((p) => p.trim()).filter(Boolean);
  const hosts = list(f.host).length ? list(f.host) : ['{{Hostname}}'];
  const out: BlockOutcome = { passed: false, reported: false };
  for (const combo of payloadSets(block)) {
    for (const hostTpl of hosts) {
      const vars = requestVars(ctx, combo);
      for (const addr of addresses(renderText(hostTpl, vars), ports)) {
        if (ctx.signal?.aborted) return out;
        await ctx.beforeRequest?.();
        let conn: Conn | undefined;
        const sent: Buffer[] = [];
        let last: Buffer = Buffer.alloc(0);
        try {
          conn = new Conn(await connect(addr.host, addr.port, addr.tls, ctx.timeoutMs, ctx.signal));
          for (const input of inputs) {
            const text = renderText(String(input.data ?? ''), vars);
            const bytes = input.type === 'hex' ? Buffer.from(text.replace(/\s+/g, ''), 'hex') : Buffer.from(text, 'latin1');
            if (bytes.length) {
              conn.sock.write(bytes);
              sent.push(bytes);
            }
            if (input.read && input.read > 0) {
              last = await conn.read(input.read, ctx.timeoutMs);
              if (input.name) vars[input.name] = last.toString('latin1');
            }
          }
          last = await conn.read(readAll ? MAX_READ : readSize, ctx.timeoutMs, readAll);
        } catch (err) {
          out.error = `${addr.host}:${addr.port}: ${(err as Error).message}`;
          conn?.sock.destroy();
          continue;
        }
        conn.sock.destroy();
        const where = `${addr.tls ? 'tls://' : ''}${addr.host.includes(':') ? `[${addr.host}]` : addr.host}:${addr.port}`;
        const request = Buffer.concat(sent).toString('latin1');
        const data = { host: where, matched: where, type: 'tcp', request, data: last.toString('latin1'), raw: conn.received.toString('latin1') };
        const r = evaluate(ctx, block, vars, { ...data, body: data.data }, {
          type: 'tcp', host: where, matchedAt: where, ip: net.isIP(addr.host) ? addr.host : '', request, response: data.raw,
        });
        out.passed ||= r.passed;
        out.reported ||= r.reported;
      }
    }
  }
  return out;
}
