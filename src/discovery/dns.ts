// Name resolution for discovery: A, AAAA and CNAME through the system resolver or through configured
// resolvers (`host:port`), queried over UDP with dns-packet (TCP when an answer is truncated).
import dgram from 'node:dgram';
import net from 'node:net';
import { randomInt } from 'node:crypto';
import { promises as sysdns } from 'node:dns';
import packet from 'dns-packet';
import type { ConnectGuard } from '../engine/index.ts';

type Decoded = packet.DecodedPacket & { rcode?: string };

export interface Resolution {
  /** 'ok', 'nxdomain' (the name does not exist), or 'error' (no resolver answered). */
  status: 'ok' | 'nxdomain' | 'error';
  a: string[];
  aaaa: string[];
  cname: string[];
}

export interface ResolverAddress {
  host: string;
  port: number;
}

/** "1.1.1.1", "1.1.1.1:53", "[::1]:5353" -> address; throws on anything else. */
export function parseResolver(text: string): ResolverAddress {
  const t = text.trim();
  const v6 = /^\[([0-9a-f:.]+)\](?::(\d+))?$/i.exec(t);
  const [host, portText] = v6
    ? [v6[1]!, v6[2]]
    : t.includes(':') && !net.isIPv6(t)
      ? (t.split(':') as [string, string])
      : [t, undefined];
  const port = portText === undefined ? 53 : Number(portText);
  if (!net.isIP(host) || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`resolver "${text}" is not an IP address with an optional port (host:port)`);
  }
  return { host, port };
}

export class Resolver {
  private next = 0;
  private readonly cache = new Map<string, Promise<Resolution>>();

  constructor(
    readonly servers: ResolverAddress[] = [],
    private readonly timeoutMs = 2000,
    private readonly retries = 2,
    /** Decides the configured servers' addresses: a refused one is never asked. */
    private readonly guard?: ConnectGuard,
  ) {}

  /** A, AAAA and the CNAME chain of a name (answers are cached for the resolver's lifetime). */
  resolve(name: string): Promise<Resolution> {
    const key = name.toLowerCase().replace(/\.$/, '');
    let p = this.cache.get(key);
    if (!p) {
      p = this.servers.length ? this.resolveCustom(key) : this.resolveSystem(key);
      this.cache.set(key, p);
    }
    return p;
  }

  /** Forgets cached answers (a rescan asks again). */
  clear(): void {
    this.cache.clear();
  }

  private async resolveSystem(name: string): Promise<Resolution> {
    const settle = async <T>(p: Promise<T[]>): Promise<T[] | 'nx' | 'err'> => {
      try {
        return await p;
      } catch (e) {
        const code = (e as { code?: string }).code;
        return code === 'ENOTFOUND' ? 'nx' : code === 'ENODATA' ? [] : 'err';
      }
    };
    const [a, aaaa, cname] = await Promise.all([
      settle(sysdns.resolve4(name)),
      settle(sysdns.resolve6(name)),
      settle(sysdns.resolveCname(name)),
    ]);
    if (a === 'nx' && aaaa === 'nx') return { status: 'nxdomain', a: [], aaaa: [], cname: [] };
    if (a === 'err' && aaaa === 'err') return { status: 'error', a: [], aaaa: [], cname: [] };
    const list = (v: string[] | 'nx' | 'err') => (Array.isArray(v) ? v : []);
    return { status: 'ok', a: list(a), aaaa: list(aaaa), cname: list(cname) };
  }

  private async resolveCustom(name: string): Promise<Resolution> {
    const [a, aaaa] = await Promise.all([this.query(name, 'A'), this.query(name, 'AAAA')]);
    if (!a && !aaaa) return { status: 'error', a: [], aaaa: [], cname: [] };
    const answers = [...(a?.answers ?? []), ...(aaaa?.answers ?? [])];
    if ((a?.rcode ?? aaaa?.rcode) === 'NXDOMAIN' && answers.length === 0)
      return { status: 'nxdomain', a: [], aaaa: [], cname: [] };
    // Follow the CNAME chain inside the answers; a resolver that gives only the CNAME is asked again.
    const cname: string[] = [];
    let current = name;
    const out = { a: [] as string[], aaaa: [] as string[] };
    for (let hop = 0; hop < 10; hop++) {
      const alias = answers.find((r) => r.type === 'CNAME' && lower(r.name) === current);
      const here = answers.filter((r) => lower(r.name) === current);
      for (const r of here) {
        if (r.type === 'A') out.a.push(String((r as { data: unknown }).data));
        if (r.type === 'AAAA') out.aaaa.push(String((r as { data: unknown }).data));
      }
      if (!alias) break;
      current = lower(String((alias as { data: unknown }).data));
      if (cname.includes(current)) break;
      cname.push(current);
    }
    if (cname.length && !out.a.length && !out.aaaa.length) {
      const target = await this.resolve(cname[cname.length - 1]!);
      out.a.push(...target.a);
      out.aaaa.push(...target.aaaa);
      cname.push(...target.cname.filter((c) => !cname.includes(c)));
    }
    return { status: 'ok', a: uniq(out.a), aaaa: uniq(out.aaaa), cname };
  }

  /** One question to the configured servers in turn; undefined when none answers. */
  private async query(name: string, type: 'A' | 'AAAA'): Promise<Decoded | undefined> {
    for (let attempt = 0; attempt <= this.retries; attempt++) {
      const server = this.servers[this.next++ % this.servers.length]!;
      if (this.guard?.egress.addressDenied(server.host, server.port)) continue;
      try {
        const res = await udpQuery(server, name, type, this.timeoutMs);
        if (res.flag_tc) return await tcpQuery(server, name, type, this.timeoutMs);
        if (res.rcode === 'SERVFAIL' || res.rcode === 'REFUSED') continue;
        return res;
      } catch {
        // timeout or unreachable: the next server / attempt
      }
    }
    return undefined;
  }
}

const lower = (s: string) => s.toLowerCase().replace(/\.$/, '');
const uniq = (xs: string[]) => [...new Set(xs)];

function question(name: string, type: 'A' | 'AAAA'): { id: number; buf: Buffer } {
  const id = randomInt(0, 65536);
  const buf = packet.encode({
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
  });
  return { id, buf };
}

function udpQuery(server: ResolverAddress, name: string, type: 'A' | 'AAAA', timeoutMs: number): Promise<Decoded> {
  return new Promise((resolve, reject) => {
    const sock = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
    const { id, buf } = question(name, type);
    const timer = setTimeout(() => finish(new Error('DNS query timed out')), timeoutMs);
    const finish = (err?: Error, res?: Decoded) => {
      clearTimeout(timer);
      sock.close();
      if (err) reject(err);
      else resolve(res!);
    };
    sock.on('error', (e) => finish(e));
    sock.on('message', (msg) => {
      try {
        const res = packet.decode(msg) as Decoded;
        if (res.id !== id) return; // not our answer: keep waiting
        finish(undefined, res);
      } catch {
        // a malformed datagram: keep waiting for a good one
      }
    });
    sock.send(buf, server.port, server.host, (e) => e && finish(e));
  });
}

function tcpQuery(server: ResolverAddress, name: string, type: 'A' | 'AAAA', timeoutMs: number): Promise<Decoded> {
  return new Promise((resolve, reject) => {
    const { id, buf } = question(name, type);
    const sock = net.connect({ host: server.host, port: server.port });
    let data = Buffer.alloc(0);
    sock.setTimeout(timeoutMs, () => sock.destroy(new Error('DNS query timed out')));
    sock.on('connect', () => sock.write(Buffer.concat([Buffer.from([buf.length >> 8, buf.length & 255]), buf])));
    sock.on('data', (d) => {
      data = Buffer.concat([data, d]);
      if (data.length >= 2 && data.length >= 2 + data.readUInt16BE(0)) {
        sock.end();
        try {
          const res = packet.decode(data.subarray(2, 2 + data.readUInt16BE(0))) as Decoded;
          if (res.id === id) resolve(res);
          else reject(new Error('DNS answer id mismatch'));
        } catch (e) {
          reject(e as Error);
        }
      }
    });
    sock.on('error', reject);
    sock.on('close', () => reject(new Error('DNS connection closed')));
  });
}
