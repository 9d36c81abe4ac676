// Sends one DNS query to one resolver over UDP, and again over TCP when the answer comes back
// truncated. Resolvers are `ip`, `ip:port` or `[v6]:port`; port 53 by default.
import net from 'node:net';
import { dgram, lazy } from '../../lazy.ts';
import type { ConnectGuard } from '../../net/guard.ts';

const packet = lazy<typeof import('dns-packet')>('dns-packet');

export interface Resolver {
  host: string;
  port: number;
}

export function parseResolver(s: string): Resolver {
  const t = s.trim().replace(/^(udp|tcp):\/\//i, '');
  const v6 = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (v6) return { host: v6[1], port: v6[2] ? Number(v6[2]) : 53 };
  if (net.isIPv6(t)) return { host: t, port: 53 };
  const m = /^(.*?)(?::(\d+))?$/.exec(t)!;
  return { host: m[1], port: m[2] ? Number(m[2]) : 53 };
}

/**
 * The answer's bytes, or an error after `timeout` ms. Under a connect guard (a resolver a template chose,
 * a name server met during a trace) the resolver's address is decided first and asked by that address.
 */
export async function exchange(
  query: Buffer,
  resolver: Resolver,
  timeout: number,
  signal?: AbortSignal,
  guard?: ConnectGuard,
): Promise<Buffer> {
  const r = guard ? { host: await guard.address(resolver.host, resolver.port), port: resolver.port } : resolver;
  const answer = await udp(query, r, timeout, signal);
  // TC bit: the answer did not fit in a datagram; ask again over TCP.
  if (answer.length >= 4 && answer[2] & 0x02) return tcp(query, r, timeout, signal);
  return answer;
}

function udp(query: Buffer, r: Resolver, timeout: number, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = dgram().createSocket(net.isIPv6(r.host) ? 'udp6' : 'udp4');
    const id = query.readUInt16BE(0);
    const finish = (err: Error | undefined, buf?: Buffer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      sock.close();
      if (err) reject(err);
      else resolve(buf!);
    };
    const onAbort = () => finish(new Error('aborted'));
    const timer = setTimeout(() => finish(new Error(`dns query to ${r.host}:${r.port} timed out`)), timeout);
    signal?.addEventListener('abort', onAbort, { once: true });
    sock.on('error', (err) => finish(err));
    sock.on('message', (msg, from) => {
      // Only the answer to this query, from the resolver asked.
      if (msg.length < 2 || msg.readUInt16BE(0) !== id || from.port !== r.port) return;
      finish(undefined, msg);
    });
    sock.send(query, r.port, r.host, (err) => {
      if (err) finish(err);
    });
  });
}

function tcp(query: Buffer, r: Resolver, timeout: number, signal?: AbortSignal): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const sock = net.connect({ host: r.host, port: r.port });
    let buf = Buffer.alloc(0);
    const finish = (err: Error | undefined, out?: Buffer) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      sock.destroy();
      if (err) reject(err);
      else resolve(out!);
    };
    const onAbort = () => finish(new Error('aborted'));
    const timer = setTimeout(() => finish(new Error(`dns query to ${r.host}:${r.port} (tcp) timed out`)), timeout);
    signal?.addEventListener('abort', onAbort, { once: true });
    sock.on('error', (err) => finish(err));
    sock.on('connect', () => {
      const len = Buffer.alloc(2);
      len.writeUInt16BE(query.length);
      sock.write(Buffer.concat([len, query]));
    });
    sock.on('data', (chunk) => {
      buf = Buffer.concat([buf, chunk]);
      if (buf.length >= 2 && buf.length >= 2 + buf.readUInt16BE(0))
        finish(undefined, buf.subarray(2, 2 + buf.readUInt16BE(0)));
      else if (buf.length > 70_000) finish(new Error('dns answer too large'));
    });
    sock.on('end', () => finish(new Error('dns connection closed before the answer')));
  });
}

export { packet };
