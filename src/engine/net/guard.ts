// The connect guard: every connection the engine makes under a policy goes to an address the policy was
// asked about. A literal is decided on its normal form before the socket exists; a name is resolved here
// (net.connect's `lookup` hook, or `addresses()` for code that dials an address itself), and only the
// addresses the policy allows are handed on, so what is checked is what is connected to, on every hop.
import net from 'node:net';
import { parseAddress } from './address.ts';
import { Egress, type EgressPolicy } from './policy.ts';
import { tls } from '../lazy.ts';
import { cachedLookup, resolverLookup, systemLookup, type NameLookup, type Resolved } from './lookup.ts';

export type { Resolved };

const bracketed = (a: string) => (a.includes(':') ? `[${a}]` : a);

/** A connection the policy refused; the message names the host, the address and the reason. */
export class EgressDenied extends Error {
  readonly code = 'EGRESS_DENIED';

  constructor(
    readonly host: string,
    readonly address: string | undefined,
    readonly port: number,
    readonly reason: string,
  ) {
    const where = address && address !== host ? `${bracketed(host)} (${address})` : bracketed(host);
    super(`connection to ${where} port ${port} refused: ${reason}`);
  }
}

export function isEgressDenied(err: unknown): err is EgressDenied {
  return (err as { code?: unknown } | null)?.code === 'EGRESS_DENIED';
}

const unbracket = (h: string) => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);

export class ConnectGuard {
  readonly egress: Egress;
  private readonly resolve: NameLookup;
  private readonly lookups = new Map<number, net.LookupFunction>();

  constructor(readonly policy: EgressPolicy) {
    this.egress = new Egress(policy);
    this.resolve = cachedLookup(policy.resolvers?.length ? resolverLookup(policy.resolvers) : systemLookup());
  }

  /**
   * Decides what can be decided without DNS: an address literal (any spelling) is returned in its normal
   * form or refused; a name is refused by the name rules or left for resolution (undefined).
   * Throws EgressDenied.
   */
  precheck(host: string, port: number): string | undefined {
    const bare = unbracket(host);
    if (net.isIPv4(bare)) {
      const why = this.egress.addressDenied(bare, port);
      if (why) throw new EgressDenied(bare, bare, port, why);
      return bare;
    }
    const a = parseAddress(bare);
    if (a) {
      const why = this.egress.addressDenied(a, port);
      if (why) throw new EgressDenied(bare, a.text, port, why);
      // A zone id (fe80::1%eth0) is needed to connect; the normal form drops it.
      return bare.includes('%') ? bare : a.text;
    }
    const why = this.egress.nameDenied(bare, port);
    if (why) throw new EgressDenied(bare, undefined, port, why);
    return undefined;
  }

  /** The addresses of `host` that may be connected to on `port` (a literal: itself). Throws EgressDenied when none may. */
  async addresses(host: string, port: number): Promise<Resolved[]> {
    const literal = this.precheck(host, port);
    if (literal !== undefined) return [{ address: literal, family: net.isIPv6(literal) ? 6 : 4 }];
    const name = unbracket(host);
    const found = await this.resolve(name);
    const allowed: Resolved[] = [];
    let refused: { address: string; why: string } | undefined;
    for (const r of found) {
      const why = this.egress.addressDenied(r.address, port);
      if (why) refused ??= { address: r.address, why };
      else allowed.push(r);
    }
    if (allowed.length === 0) throw new EgressDenied(name, refused?.address, port, refused?.why ?? 'no address');
    return allowed;
  }

  /** The first address of `host` that may be connected to on `port`. */
  async address(host: string, port: number): Promise<string> {
    return (await this.addresses(host, port))[0]!.address;
  }

  /**
   * `host` and `lookup` for net.connect / tls.connect: a literal in normal form, or the name with a lookup
   * that yields only allowed addresses (a TLS server name stays the name). Throws EgressDenied.
   */
  connectOptions(host: string, port: number): { host: string; lookup?: net.LookupFunction } {
    const literal = this.precheck(host, port);
    if (literal !== undefined) return { host: literal };
    return { host: unbracket(host), lookup: this.lookupFor(port) };
  }

  private lookupFor(port: number): net.LookupFunction {
    let fn = this.lookups.get(port);
    if (!fn) {
      fn = ((
        hostname: string,
        options: { all?: boolean; family?: number | string },
        callback: (...args: unknown[]) => void,
      ) => {
        this.addresses(hostname, port).then(
          (list) => {
            const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : Number(options.family) || 0;
            const fit = family ? list.filter((r) => r.family === family) : list;
            if (fit.length === 0)
              return callback(
                Object.assign(new Error(`no IPv${family} address allowed for ${hostname}`), { code: 'ENOTFOUND' }),
              );
            if (options.all) callback(null, fit);
            else callback(null, fit[0]!.address, fit[0]!.family);
          },
          (err: Error) => callback(err),
        );
      }) as net.LookupFunction;
      if (this.lookups.size < 1024) this.lookups.set(port, fn);
    }
    return fn;
  }
}

const guards = new Map<string, ConnectGuard>();

/** The guard of a policy (one per distinct policy: its resolution cache is shared); undefined without one. */
export function guardFor(policy: EgressPolicy | undefined): ConnectGuard | undefined {
  if (!policy) return undefined;
  const key = JSON.stringify(policy);
  let g = guards.get(key);
  if (!g) {
    if (guards.size >= 64) guards.delete(guards.keys().next().value!);
    g = new ConnectGuard(policy);
    guards.set(key, g);
  }
  return g;
}

/**
 * A socket that fails with `err` on the next tick, for code that must hand back a socket at once: its
 * 'error' and 'close' listeners see the refusal as they would a refused connection.
 */
export function failedSocket(err: Error): net.Socket {
  const socket = new net.Socket();
  process.nextTick(() => socket.destroy(err));
  return socket;
}

/** net.connect under a guard (none: as it is). A refused connection is a socket that fails with EgressDenied. */
export function dialTcp(guard: ConnectGuard | undefined, options: net.TcpNetConnectOpts): net.Socket {
  if (!guard) return net.connect(options);
  try {
    return net.connect({ ...options, ...guard.connectOptions(options.host ?? 'localhost', options.port) });
  } catch (err) {
    return failedSocket(err as Error);
  }
}

/** tls.connect under a guard (none: as it is); the server name stays the one asked for. */
export function dialTls(
  guard: ConnectGuard | undefined,
  options: import('node:tls').ConnectionOptions & { host: string; port: number },
): import('node:tls').TLSSocket {
  if (!guard) return tls().connect(options);
  try {
    const servername = options.servername ?? (net.isIP(unbracket(options.host)) ? undefined : unbracket(options.host));
    return tls().connect({ ...options, servername, ...guard.connectOptions(options.host, options.port) });
  } catch (err) {
    return failedSocket(err as Error) as import('node:tls').TLSSocket;
  }
}
