// The ssl protocol: one TLS handshake to `address` (default {{Host}}:{{Port}}, port 443 when the input
// has none) within min_version..max_version; the handshake and certificate facts become the values
// matchers and extractors see, named as nuclei names them (tls_version, cipher, subject_cn, subject_an,
// issuer_dn, not_after, expired, self_signed, mismatched ...), and `response` holds them all as JSON.
import type { X509Certificate } from 'node:crypto';
import net from 'node:net';
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import {
  blockVars,
  commonBlock,
  inputVariables,
  operate,
  render,
  unresolved,
  type CommonBlock,
} from '../common/block.ts';
import { certFacts, type CertFacts } from './cert.ts';
import { ciphersFor, fileCiphers, type CipherEnum } from './ciphers.ts';
import { crypto } from '../../lazy.ts';
import { dialTls } from '../../net/guard.ts';
import type { DetailedPeerCertificate, SecureVersion } from 'node:tls';

export interface SslBlock extends CommonBlock {
  address: string;
  minVersion?: string;
  maxVersion?: string;
  versionEnum: boolean;
  cipherEnum: boolean;
  /** Levels the cipher enumeration reports: insecure (default), weak, secure, all. */
  cipherTypes: string[];
}

const VERSIONS: Record<string, SecureVersion | undefined> = {
  sslv3: undefined,
  ssl30: undefined,
  tls10: 'TLSv1',
  tls11: 'TLSv1.1',
  tls12: 'TLSv1.2',
  tls13: 'TLSv1.3',
};
const NAMES: Record<string, string> = { TLSv1: 'tls10', 'TLSv1.1': 'tls11', 'TLSv1.2': 'tls12', 'TLSv1.3': 'tls13' };

function compile(t: Template): SslBlock[] {
  return t.other
    .filter((b) => b.protocol === 'ssl')
    .map((b) => {
      const c = commonBlock(b);
      const f = c.fields;
      return {
        ...c,
        address: typeof f.address === 'string' && f.address ? f.address : '{{Host}}:{{Port}}',
        minVersion: typeof f.min_version === 'string' ? f.min_version : undefined,
        maxVersion: typeof f.max_version === 'string' ? f.max_version : undefined,
        // As nuclei: cipher enumeration needs the versions first, and looks for insecure ciphers by default.
        versionEnum: f.tls_version_enum === true || f.tls_cipher_enum === true,
        cipherEnum: f.tls_cipher_enum === true,
        cipherTypes:
          Array.isArray(f.tls_cipher_types) && f.tls_cipher_types.length > 0
            ? f.tls_cipher_types.map(String)
            : ['insecure'],
      };
    });
}

const compiled = new WeakMap<Template, SslBlock[]>();

/** host:port of the input; 443 when it names no port. */
function hostPort(target: string): { host: string; port: string } {
  let host = target;
  let port = '';
  if (target.includes('://')) {
    const u = new URL(target);
    host = u.hostname;
    port = u.port;
  } else {
    const m = /^(\[[^\]]+\]|[^:/]+)(?::(\d+))?/.exec(target);
    host = m?.[1] ?? target;
    port = m?.[2] ?? '';
  }
  return { host: host.replace(/^\[|\]$/g, ''), port: port || '443' };
}

interface Handshake {
  version: string;
  cipher: string;
  ip: string;
  leaf?: X509Certificate;
  chain: X509Certificate[];
  sni?: string;
}

function handshake(
  host: string,
  port: number,
  ctx: BlockContext,
  min?: SecureVersion,
  max?: SecureVersion,
  ciphers = 'ALL',
): Promise<Handshake> {
  return new Promise((resolve, reject) => {
    // The scan's -sni wins; an IP is never sent as a server name.
    const sni = ctx.o.sni || (net.isIP(host) ? undefined : host);
    const socket = dialTls(ctx.o.guard, {
      host,
      port,
      servername: sni,
      rejectUnauthorized: false,
      // Every cipher and version the server may speak (a scanner asks, it does not judge).
      ciphers: `${ciphers}:@SECLEVEL=0`,
      minVersion: min ?? 'TLSv1',
      maxVersion: max ?? 'TLSv1.3',
    });
    const timer = setTimeout(() => done(new Error(`tls handshake with ${host}:${port} timed out`)), ctx.o.timeout);
    const onAbort = () => done(new Error('aborted'));
    ctx.o.signal?.addEventListener('abort', onAbort, { once: true });
    function done(err?: Error, h?: Handshake) {
      clearTimeout(timer);
      ctx.o.signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      if (err) reject(err);
      else resolve(h!);
    }
    socket.once('error', (err) => done(err));
    socket.once('secureConnect', () => {
      const cipher = socket.getCipher();
      const chain: X509Certificate[] = [];
      let leaf: X509Certificate | undefined;
      try {
        let c = socket.getPeerCertificate(true) as DetailedPeerCertificate | undefined;
        const seen = new Set<string>();
        while (c && c.raw && !seen.has(c.fingerprint256)) {
          seen.add(c.fingerprint256);
          chain.push(new (crypto().X509Certificate)(c.raw));
          c = c.issuerCertificate;
        }
        leaf = chain[0];
      } catch {
        // No certificate (anonymous ciphers): facts stay empty.
      }
      done(undefined, {
        version: NAMES[socket.getProtocol() ?? ''] ?? String(socket.getProtocol()),
        cipher: cipher.standardName ?? cipher.name,
        ip: socket.remoteAddress ?? '',
        leaf,
        chain,
        sni,
      });
    });
  });
}

/** Go's time.Time text (what nuclei's DSL and kval show for not_after). */
function goTime(d: Date): string {
  return `${d.toISOString().slice(0, 19).replace('T', ' ')} +0000 UTC`;
}

function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The JSON nuclei's ssl protocol exposes as `response`, fields in its order. */
function responseJson(
  host: string,
  ip: string,
  port: string,
  h: Handshake,
  facts: CertFacts | undefined,
  versionEnum?: string[],
  cipherEnum?: CipherEnum[],
): string {
  const o: Record<string, unknown> = {
    timestamp: new Date().toISOString(),
    host,
    ip,
    port,
    probe_status: true,
    tls_version: h.version,
    cipher: h.cipher,
  };
  if (facts) {
    for (const [k, v] of Object.entries(facts)) o[k] = v instanceof Date ? rfc3339(v) : v;
  }
  o.tls_connection = 'ctls';
  if (h.sni) o.sni = h.sni;
  if (versionEnum && versionEnum.length > 0) o.version_enum = versionEnum;
  if (cipherEnum && cipherEnum.length > 0) o.cipher_enum = cipherEnum;
  return JSON.stringify(o);
}

async function execute(b: SslBlock, ctx: BlockContext): Promise<BlockResult> {
  const input = ctx.target ? hostPort(ctx.target) : { host: '', port: '443' };
  const builtins = {
    ...(input.host ? inputVariables(input.host) : {}),
    Hostname: `${input.host.includes(':') ? `[${input.host}]` : input.host}:${input.port}`,
    Host: input.host,
    Port: input.port,
    Input: ctx.target ?? '',
  };
  const vars = blockVars(ctx, builtins, {});
  const address = render(b.address, vars);
  const missing = unresolved(address, vars);
  if (missing.length > 0) return { matched: false, requests: 0, error: `unresolved variables: ${missing.join(', ')}` };
  const m = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(address);
  if (!m) return { matched: false, requests: 0, error: `could not split input host port: ${address}` };
  const host = m[1].replace(/^\[|\]$/g, '');
  const port = m[2];
  const min = b.minVersion ? VERSIONS[b.minVersion] : undefined;
  const max = b.maxVersion ? VERSIONS[b.maxVersion] : undefined;
  // SSL 3.0 alone cannot be spoken by this TLS stack: such a block finds nothing, as against a server without it.
  if (b.minVersion && !min && b.maxVersion && !max)
    return { matched: false, requests: 0, error: 'ssl30 is not supported by this TLS stack' };
  if (ctx.o.hostErrors?.isSkipped(address))
    return { matched: false, requests: 0, error: `host ${address} skipped after too many errors` };
  let h: Handshake;
  let requests = 1;
  try {
    if (ctx.o.takeToken) await ctx.o.takeToken();
    ctx.o.onRequest?.();
    h = await handshake(host, Number(port), ctx, min, max);
  } catch (err) {
    ctx.o.hostErrors?.record(address);
    return { matched: false, requests, error: `could not connect to server: ${(err as Error).message}` };
  }
  let versionEnum: string[] | undefined;
  if (b.versionEnum) {
    versionEnum = [];
    for (const v of ['TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as SecureVersion[]) {
      if (ctx.o.signal?.aborted) break;
      if (ctx.o.takeToken) await ctx.o.takeToken();
      requests++;
      ctx.o.onRequest?.();
      try {
        await handshake(host, Number(port), ctx, v, v);
        versionEnum.push(NAMES[v]);
      } catch {
        // Not spoken.
      }
    }
  }
  let cipherEnum: CipherEnum[] | undefined;
  if (b.cipherEnum && versionEnum) {
    cipherEnum = [];
    for (const version of versionEnum) {
      const accepted: string[] = [];
      const v = VERSIONS[version]!;
      for (const cipher of ciphersFor(version)) {
        if (ctx.o.signal?.aborted) break;
        if (ctx.o.takeToken) await ctx.o.takeToken();
        requests++;
        ctx.o.onRequest?.();
        try {
          const got = await handshake(host, Number(port), ctx, v, v, cipher);
          if (!accepted.includes(got.cipher)) accepted.push(got.cipher);
        } catch {
          // Not accepted.
        }
      }
      const filed = fileCiphers(version, accepted, b.cipherTypes);
      if (Object.keys(filed.ciphers).length > 0) cipherEnum.push(filed);
    }
  }
  const facts = h.leaf ? certFacts(h.leaf, h.chain, host) : undefined;
  const response: Record<string, unknown> = {
    type: 'ssl',
    response: responseJson(host, h.ip, port, h, facts, versionEnum, cipherEnum),
    matched: address,
    ip: h.ip,
    host,
    port,
    probe_status: true,
    tls_version: h.version,
    cipher: h.cipher,
    tls_connection: 'ctls',
  };
  response.body = response.response;
  if (h.sni) response.sni = h.sni;
  if (versionEnum && versionEnum.length > 0) response.version_enum = versionEnum;
  if (cipherEnum && cipherEnum.length > 0) response.cipher_enum = cipherEnum;
  if (facts) {
    for (const [k, v] of Object.entries(facts)) response[k] = v instanceof Date ? goTime(v) : v;
    response.domains = [...new Set([...(facts.subject_cn ? [facts.subject_cn] : []), ...(facts.subject_an ?? [])])];
  }
  const r = await operate(ctx, 'ssl', b, response, vars, {
    host: ctx.target ?? host,
    matchedAt: address,
    ip: h.ip,
    request: '',
    response: '',
  });
  return { matched: r.matched, requests, stop: r.matched && ctx.t.stopAtFirstMatch };
}

export const sslProtocol: Protocol<SslBlock> = {
  name: 'ssl',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  unsupported(b) {
    if (Array.isArray(b.fields.cipher_suites) && b.fields.cipher_suites.length > 0) return 'uses ssl cipher_suites';
    return undefined;
  },
  execute,
  // nuclei: blocks choosing their own versions or ciphers do not share a handshake; the rest share it
  // when address, scan mode and enumeration settings are equal.
  cluster: {
    verdict(b, t) {
      const f = b.fields;
      if (
        b.minVersion ||
        b.maxVersion ||
        (Array.isArray(f.cipher_suites) && f.cipher_suites.length > 0) ||
        b.payloads
      ) {
        return { reason: 'ssl block not clusterable' };
      }
      const key = [
        b.address,
        String(f.scan_mode ?? 'auto'),
        f.tls_cipher_enum === true,
        f.tls_version_enum === true,
        b.cipherTypes,
      ];
      return { key: JSON.stringify(['ssl', ...key, t.stopAtFirstMatch]) };
    },
  },
};
