// Certificate facts under the names nuclei's ssl protocol gives them (its TLS library's JSON tags):
// subject/issuer names, SANs, validity, fingerprints, self-signed, mismatched, wildcard, untrusted.
import type { X509Certificate } from 'node:crypto';
import { crypto, tls } from '../../lazy.ts';

export interface CertFacts {
  expired?: boolean;
  self_signed?: boolean;
  mismatched?: boolean;
  untrusted?: boolean;
  not_before: Date;
  not_after: Date;
  subject_dn?: string;
  subject_cn?: string;
  subject_org?: string[];
  subject_an?: string[];
  serial?: string;
  issuer_dn?: string;
  issuer_cn?: string;
  issuer_org?: string[];
  emails?: string[];
  fingerprint_hash: { md5: string; sha1: string; sha256: string };
  wildcard_certificate?: boolean;
}

/** `C=US\nO=Org\nCN=x` (Node) -> `CN=x,O=Org,C=US` (Go's pkix.Name order). */
function dn(text: string): string {
  return text.split('\n').filter(Boolean).reverse().join(',');
}

function attrs(text: string, key: string): string[] {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

/** The value octets of a DER element at `i`: [start, end) of its content. */
function element(der: Buffer, i: number): { start: number; end: number } | undefined {
  if (i + 2 > der.length) return undefined;
  let len = der[i + 1];
  let start = i + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n > 3 || start + n > der.length) return undefined;
    len = 0;
    for (let k = 0; k < n; k++) len = (len << 8) | der[start + k];
    start += n;
  }
  return start + len <= der.length ? { start, end: start + len } : undefined;
}

/** The extnValue of the extension with OID 2.5.29.<last>, found by its encoded OID. */
function extension(der: Buffer, last: number): Buffer | undefined {
  const oid = Buffer.from([0x06, 0x03, 0x55, 0x1d, last]);
  const at = der.indexOf(oid);
  if (at < 0) return undefined;
  let i = at + oid.length;
  if (der[i] === 0x01) i += 3; // critical BOOLEAN
  if (der[i] !== 0x04) return undefined;
  const e = element(der, i);
  return e ? der.subarray(e.start, e.end) : undefined;
}

function subjectKeyId(der: Buffer): Buffer | undefined {
  const v = extension(der, 0x0e);
  if (!v || v[0] !== 0x04) return undefined;
  const e = element(v, 0);
  return e ? v.subarray(e.start, e.end) : undefined;
}

function authorityKeyId(der: Buffer): Buffer | undefined {
  const v = extension(der, 0x23);
  if (!v || v[0] !== 0x30) return undefined;
  const seq = element(v, 0);
  if (!seq || v[seq.start] !== 0x80) return undefined;
  const e = element(v, seq.start);
  return e ? v.subarray(e.start, e.end) : undefined;
}

/**
 * As nuclei's TLS library (tlsx `IsSelfSigned` since v1.2.0): no authority key id, one equal to the subject
 * key id, or no DNS names at all.
 */
export function isSelfSigned(der: Buffer, dnsNames: string[]): boolean {
  const aki = authorityKeyId(der);
  return !aki || aki.length === 0 || aki.equals(subjectKeyId(der) ?? Buffer.alloc(0)) || dnsNames.length === 0;
}

function dnsNamesOf(c: X509Certificate): string[] {
  return (c.subjectAltName ?? '')
    .split(', ')
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4));
}

function wildcardToken(name: string, host: string): boolean {
  const [a, b = ''] = name.split('*');
  if (name.startsWith('*')) return host.endsWith(b);
  if (name.endsWith('*')) return host.startsWith(a);
  return host.startsWith(a) && host.endsWith(b);
}

/** True when no name of the certificate (SANs and CN) covers `host`. */
export function isMismatched(host: string, names: string[]): boolean {
  const hostTokens = host.split('.');
  for (const name of names) {
    if (!name.includes('*')) {
      if (name.toLowerCase() === host.toLowerCase()) return false;
      continue;
    }
    const tokens = name.split('.');
    if (tokens.length !== hostTokens.length) continue;
    const ok = tokens.every((t, i) =>
      i === 0 ? wildcardToken(t, hostTokens[i]) : t.toLowerCase() === hostTokens[i].toLowerCase(),
    );
    if (ok) return false;
  }
  return true;
}

function serialText(hex: string): string {
  const h = hex.length % 2 ? `0${hex}` : hex;
  return (h.toUpperCase().match(/../g) ?? []).join(':');
}

let roots: Set<string> | undefined;
function isKnownRoot(c: X509Certificate): boolean {
  roots ??= new Set(tls().rootCertificates.map((p) => new (crypto().X509Certificate)(p).fingerprint256));
  return roots.has(c.fingerprint256);
}

export function certFacts(leaf: X509Certificate, chain: X509Certificate[], host: string): CertFacts {
  const der = leaf.raw;
  const sans = dnsNamesOf(leaf);
  const emails = (leaf.subjectAltName ?? '')
    .split(', ')
    .filter((s) => s.startsWith('email:'))
    .map((s) => s.slice(6));
  const subjectCn = attrs(leaf.subject, 'CN')[0];
  const facts: CertFacts = {
    not_before: new Date(leaf.validFrom),
    not_after: new Date(leaf.validTo),
    fingerprint_hash: {
      md5: crypto().createHash('md5').update(der).digest('hex'),
      sha1: crypto().createHash('sha1').update(der).digest('hex'),
      sha256: crypto().createHash('sha256').update(der).digest('hex'),
    },
  };
  if (facts.not_after.getTime() < Date.now()) facts.expired = true;
  if (isSelfSigned(der, sans)) facts.self_signed = true;
  if (isMismatched(host, [...sans, ...(subjectCn ? [subjectCn] : [])])) facts.mismatched = true;
  // As tlsx: a CA after the leaf that signs itself and is not a known root. The leaf itself is not judged,
  // so a server sending only its own self-signed certificate (even one marked CA) is self-signed, not an
  // untrusted root.
  const issuers = chain.filter((c) => c.fingerprint256 !== leaf.fingerprint256);
  if (issuers.some((c) => c.ca && isSelfSigned(c.raw, dnsNamesOf(c)) && !isKnownRoot(c))) facts.untrusted = true;
  const set = <K extends keyof CertFacts>(k: K, v: CertFacts[K] | undefined) => {
    if (v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0)) facts[k] = v;
  };
  set('subject_dn', dn(leaf.subject));
  set('subject_cn', subjectCn);
  set('subject_org', attrs(leaf.subject, 'O'));
  set('subject_an', sans);
  set('serial', serialText(leaf.serialNumber));
  set('issuer_dn', dn(leaf.issuer));
  set('issuer_cn', attrs(leaf.issuer, 'CN')[0]);
  set('issuer_org', attrs(leaf.issuer, 'O'));
  set('emails', emails);
  if (sans.some((s) => s.includes('*.'))) facts.wildcard_certificate = true;
  return facts;
}
