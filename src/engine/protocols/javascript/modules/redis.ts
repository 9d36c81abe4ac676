// nuclei/redis (pkg/js/libs/redis): GetServerInfo(host, port) -> INFO's text without a password,
// GetServerInfoAuth(host, port, password) and Connect(host, port, password) with one (AUTH first when
// not empty), IsAuthenticated(host, port) -> true when the server answers PING (nuclei's fingerprintx
// probe: +PONG, or -NOAUTH from a server that wants a password), RunLuaScript(host, port, password,
// script) -> EVAL's answer. A small RESP client over the engine's guarded connection.
import type net from 'node:net';
import { bounded, connectTcp, HostEnv, portOf, text, type HostOp } from '../host.ts';

/** Largest reply read (INFO is a few KiB). */
const MAX_REPLY = 1024 * 1024;

class Resp {
  private buf = Buffer.alloc(0);
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(private readonly s: net.Socket) {
    s.on('data', (d: Buffer) => {
      if (this.buf.length < MAX_REPLY) this.buf = Buffer.concat([this.buf, d]);
      this.wake?.();
    });
    s.on('close', () => {
      this.closed = true;
      this.wake?.();
    });
  }

  async command(env: HostEnv, ...args: string[]): Promise<unknown> {
    let out = `*${args.length}\r\n`;
    for (const a of args) out += `$${Buffer.byteLength(a)}\r\n${a}\r\n`;
    this.s.write(out);
    return bounded(this.reply(), env, `redis ${args[0]}`);
  }

  private async reply(): Promise<unknown> {
    for (;;) {
      const parsed = parse(this.buf, 0);
      if (parsed) {
        this.buf = this.buf.subarray(parsed.end);
        if (parsed.value instanceof Error) throw parsed.value;
        return parsed.value;
      }
      if (this.closed) throw new Error('redis: connection closed');
      if (this.buf.length >= MAX_REPLY) throw new Error('redis: reply too large');
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

/** One RESP2 value from `b` at `at`, or undefined when incomplete. Errors come back as Error values. */
function parse(b: Buffer, at: number): { value: unknown; end: number } | undefined {
  const nl = b.indexOf('\r\n', at);
  if (nl < 0) return undefined;
  const line = b.subarray(at + 1, nl).toString('utf8');
  const next = nl + 2;
  switch (String.fromCharCode(b[at]!)) {
    case '+':
      return { value: line, end: next };
    case '-':
      return { value: new Error(line), end: next };
    case ':':
      return { value: Number(line), end: next };
    case '$': {
      const n = Number(line);
      if (n < 0) return { value: null, end: next };
      if (b.length < next + n + 2) return undefined;
      return { value: b.subarray(next, next + n).toString('utf8'), end: next + n + 2 };
    }
    case '*': {
      const n = Number(line);
      if (n < 0) return { value: null, end: next };
      const items: unknown[] = [];
      let end = next;
      for (let i = 0; i < n; i++) {
        const item = parse(b, end);
        if (!item) return undefined;
        items.push(item.value instanceof Error ? item.value.message : item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error('redis: not a RESP answer');
  }
}

async function session<T>(
  env: HostEnv,
  host: unknown,
  port: unknown,
  password: string,
  fn: (c: Resp) => Promise<T>,
): Promise<T> {
  const socket = await connectTcp(env, text(host), portOf(port));
  try {
    const c = new Resp(socket);
    if (password !== '') await c.command(env, 'AUTH', password);
    await c.command(env, 'PING');
    return await fn(c);
  } finally {
    socket.destroy();
  }
}

const info = (env: HostEnv, c: Resp) => c.command(env, 'INFO').then((v) => String(v ?? ''));

export const redisOps: Record<string, HostOp> = {
  'redis.GetServerInfo': (env, [h, p]) => session(env, h, p, '', (c) => info(env, c)),
  'redis.GetServerInfoAuth': (env, [h, p, pw]) => session(env, h, p, text(pw), (c) => info(env, c)),
  'redis.Connect': (env, [h, p, pw]) => session(env, h, p, text(pw), (c) => info(env, c).then(() => true)),
  'redis.RunLuaScript': (env, [h, p, pw, script]) =>
    session(env, h, p, text(pw), (c) => c.command(env, 'EVAL', text(script), '0')),
  'redis.IsAuthenticated': async (env, [h, p]) => {
    const socket = await connectTcp(env, text(h), portOf(p));
    try {
      socket.write('*1\r\n$4\r\nPING\r\n');
      await bounded(
        new Promise<void>((resolve, reject) => {
          socket.once('data', () => resolve());
          socket.once('close', () => reject(new Error('redis: connection closed')));
        }),
        env,
        'redis PING',
      );
      return true;
    } finally {
      socket.destroy();
    }
  },
};
