// ssl blocks: one TLS handshake per address (default `{{Host}}:{{Port}}`, port 443 when the input names
// none), within `min_version` / `max_version`, and the certificate's facts under the names nuclei's TLS
// library gives them: subject_cn, subject_dn, subject_an, issuer_cn, issuer_dn, not_before, not_after,
// expired, self_signed, mismatched, untrusted, wildcard_certificate, tls_version, cipher, serial,
// fingerprint_hash. The JSON of all of them is the default part (json extractors read `.tls_version`).
import { X509Certificate } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import net from 'node:net';
import tls from 'node:tls';
import type { OtherProtocolBlock } from '../../template/types.ts';
import type { BlockContext, BlockOutcome } from '../types.ts';
import { evaluate, list, payloadSets, renderText, requestVars, splitHostPort } from '../common.ts';

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

export async function runSsl(block: OtherProtocolBlock, ctx: BlockContext): Promise<BlockOutcome> {
  const f = block.fields;
  const min = VERSIONS[String(f.min_version ?? '').toLowerCase()];
  const max = VERSIONS[String(f.max_version ?? '').toLowerCase()];
  const out: BlockOutcome = { passed: false, reported: false };
  if ((f.min_version && !min) || (f.max_version && !max)) {
    out.error = 'SSL 3.0 is not available in this TLS library';
    return out;
  }
  const explicitPort = ctx.target ? /:\d+(\/|$)/.test(ctx.target.replace(/^[a-z]+:\/\//i, '')) : false;
  const addresses = list(f.address).length ? list(f.address) : ['{{Host}}:{{Port}}'];
  for (const combo of payloadSets(block)) {
    const vars = requestVars(ctx, combo);
    // An input without a port means the TLS port, not http's 80.
    if (!explicitPort && !/^https:/i.test(ctx.target ?? '')) vars.Port = '443';
    for (const tpl of addresses) {
      if (ctx.signal?.aborted) return out;
      const { host, port } = splitHostPort(renderText(tpl, vars).replace(/^[a-z]+:\/\//i, ''));
      const p = port ?? 443;
      const sni = typeof f.sni === 'string' && f.sni ? renderText(f.sni, vars) : net.isIP(host) ? undefined : host;
      await ctx.beforeRequest?.();
      let sock: tls.TLSSocket;
      try {
        sock = await handshake(host, p, sni, min, max, ctx.timeoutMs);
      } catch (err) {
        out.error = `${host}:${p}: ${(err as Error).message}`;
        continue;
      }
      const ip = net.isIP(host) ? host : (await lookup(host).catch(() => ({ address: '' }))).address;
      const facts = certificateFacts(sock, host, p, ip, sni);
      sock.destroy();
      const json = JSON.stringify(facts);
      const where = `${host}:${p}`;
      const r = evaluate(ctx, block, vars, { ...facts, body: json, raw: json, response: json, matched: where, type: 'ssl' }, {
        type: 'ssl', host: ctx.target ?? where, matchedAt: where, ip, request: where, response: json,
      });
      out.passed ||= r.passed;
      out.reported ||= r.reported;
    }
  }
  return out;
}
