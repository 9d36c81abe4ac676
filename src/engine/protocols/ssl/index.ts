// ssl blocks: one TLS handshake per address (default `{{Host}}:{{Port}}`, port 443 when the input names
// none), within `min_version` / `max_version`, and the certificate's facts under the names nuclei's TLS
// library gives them: subject_cn, subject_dn, subject_an, issuer_cn, issuer_dn, not_before, not_after,
// expired, self_signed, mismatched, untrusted, wildcard_certificate, tls_version, cipher, serial,
// fingerprint_hash. The JSON of all of them is the default part (json extractors read `.tls_version`).
import { X509Certificate } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import { blockVars, combos, commonBlock, inputVariables, operate, render, type CommonBlock } from '../common/block.ts';

const VERSIONS: Record<string, tls.SecureVersion | undefined> = {
  sslv3: undefined, ssl30: undefined, tls10: 'TLSv1', tls11: 'TLSv1.1', tls12: 'TLSv1.2', tls13: 'TLSv1.3',
};
const NAMES: Record<string, string> = { TLSv1: 'tls10', 'TLSv1.1': 'tls11', 'TLSv1.2': 'tls12', 'TLSv1.3': 'tls13' };

/** Go's pkix.Name.String(): the RDNs last first, comma separated. */
const goDn = (dn: string) => dn.split('\n').filter(Boolean).reverse().join(',');
const field = (dn: string, key: string) => dn.split('\n').find((l) => l.startsWith(`${key}=`))?.slice(key.length + 1) ?? '';
const iso = (d: string) => new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z');

function handshake(host: string, port: number, sni: string | undefined, min: tls.SecureVersion | undefined, max: tls.SecureVersion | undefined, timeoutMs: number): Promise<tls.TLSSocket> {
  return new Promise((resolve, reject) => {
    const old = (min && min < 'TLSv1.2') || (max && max < 'TLSv1.2');
    const sock = tls.connect({
      host, port, servername: sni, rejectUnauthorized: false, minVersion: min, maxVersion: max,
      // OpenSSL refuses TLS 1.0 / 1.1 at its default security level: a scanner must still ask.
      ...(old ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
    });
    const timer = setTimeout(() => { sock.destroy(); reject(new Error(`TLS handshake with ${host}:${port} timed out`)); }, timeoutMs);
    sock.once('secureConnect', () => { clearTimeout(timer); resolve(sock); });
    sock.once('error', (e) => { clearTimeout(timer); reject(e); });
  });
}

export function certificateFacts(sock: tls.TLSSocket, host: string, port: number, ip: string, sni: string | undefined): Record<string, unknown> {
  const raw = sock.getPeerX509Certificate();
  const protocol = sock.getProtocol() ?? '';
  const cipher = sock.getCipher();
  const base: Record<string, unknown> = {
    host, port: String(port), ip, sni: sni ?? '', probe_status: true, tls_connection: 'ctls',
    tls_version: NAMES[protocol] ?? protocol.toLowerCase(), cipher: cipher.standardName ?? cipher.name,
  };
  if (!raw) return base;
  const x = raw as X509Certificate;
  const sans = (x.subjectAltName ?? '').split(', ').map((s) => s.replace(/^(DNS|IP Address):/, '')).filter(Boolean);
  const selfSigned = x.checkIssued(x) && x.verify(x.publicKey);
  const names = [field(x.subject, 'CN'), ...sans];
  const mismatched = tls.checkServerIdentity(sni ?? host, { subject: { CN: field(x.subject, 'CN') }, subjectaltname: x.subjectAltName ?? '' } as tls.PeerCertificate) !== undefined;
  return {
    ...base,
    subject_cn: field(x.subject, 'CN'), subject_org: field(x.subject, 'O') ? [field(x.subject, 'O')] : [], subject_dn: goDn(x.subject), subject_an: sans,
    issuer_cn: field(x.issuer, 'CN'), issuer_org: field(x.issuer, 'O') ? [field(x.issuer, 'O')] : [], issuer_dn: goDn(x.issuer),
    not_before: iso(x.validFrom), not_after: iso(x.validTo), expired: Date.now() > new Date(x.validTo).getTime(),
    self_signed: selfSigned, mismatched, untrusted: !sock.authorized, revoked: false,
    wildcard_certificate: names.some((n) => n.startsWith('*.')),
    serial: (x.serialNumber.match(/.{1,2}/g) ?? []).join(':').toUpperCase(),
    fingerprint_hash: { md5: '', sha1: x.fingerprint.replace(/:/g, '').toLowerCase(), sha256: x.fingerprint256.replace(/:/g, '').toLowerCase() },
  };
}

export interface SslBlock extends CommonBlock {
  addresses: string[];
  min?: tls.SecureVersion;
  max?: tls.SecureVersion;
  /** A version this TLS library cannot offer (SSL 3.0): the block reports nothing. */
  unavailable?: string;
  sni?: string;
}

function compile(t: Template): SslBlock[] {
  return t.other.filter((b) => b.protocol === 'ssl').map((b) => {
    const c = commonBlock(b);
    const f = c.fields;
    const min = VERSIONS[String(f.min_version ?? '').toLowerCase()];
    const max = VERSIONS[String(f.max_version ?? '').toLowerCase()];
    const addresses = Array.isArray(f.address) ? f.address.map(String) : f.address !== undefined ? [String(f.address)] : ['{{Host}}:{{Port}}'];
    return {
      ...c, addresses, min, max, sni: typeof f.sni === 'string' && f.sni ? f.sni : undefined,
      unavailable: (f.min_version && !min) || (f.max_version && !max) ? 'SSL 3.0 is not available in this TLS library' : undefined,
    };
  });
}

const compiled = new WeakMap<Template, SslBlock[]>();

async function execute(b: SslBlock, ctx: BlockContext): Promise<BlockResult> {
  if (b.unavailable) return { matched: false, requests: 0, error: b.unavailable };
  let matched = false;
  let requests = 0;
  let error: string | undefined;
  // An input without a port means the TLS port, not http's 80.
  const explicitPort = ctx.target ? /:\d+(\/|$)/.test(ctx.target.replace(/^[a-z]+:\/\//i, '')) : false;
  const builtins = ctx.target ? { ...inputVariables(ctx.target) } : {};
  if (!explicitPort && !/^https:/i.test(ctx.target ?? '')) builtins.Port = '443';
  for (const combo of combos(ctx, b)) {
    const vars = blockVars(ctx, builtins, combo);
    for (const tpl of b.addresses) {
      if (ctx.o.signal?.aborted) break;
      const { host, port } = splitAddress(render(tpl, vars).replace(/^[a-z]+:\/\//i, ''));
      const p = port ?? 443;
      const sni = b.sni ? render(b.sni, vars) : net.isIP(host) ? undefined : host;
      if (ctx.o.takeToken) await ctx.o.takeToken();
      requests++;
      ctx.o.onRequest?.();
      let sock: tls.TLSSocket;
      try {
        sock = await handshake(host, p, sni, b.min, b.max, ctx.o.timeout);
      } catch (err) {
        error = `${host}:${p}: ${(err as Error).message}`;
        continue;
      }
      const ip = net.isIP(host) ? host : (await lookup(host).catch(() => ({ address: '' }))).address;
      const facts = certificateFacts(sock, host, p, ip, sni);
      sock.destroy();
      const json = JSON.stringify(facts);
      const where = `${host}:${p}`;
      const r = await operate(ctx, 'ssl', b, { ...facts, body: json, raw: json, response: json, matched: where, type: 'ssl' }, vars, {
        host: ctx.target ?? where, matchedAt: where, ip, request: where, response: json,
      });
      if (r.matched) matched = true;
    }
  }
  return { matched, requests, error: matched ? undefined : error };
}

/** host:port split; IPv6 in brackets. */
function splitAddress(address: string): { host: string; port: number | undefined } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!m) return { host: address, port: undefined };
  return { host: m[1]!, port: m[2] ? Number(m[2]) : undefined };
}

export const sslProtocol: Protocol<SslBlock> = {
  name: 'ssl',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  execute,
};
