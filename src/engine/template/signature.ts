// Template signatures as nuclei writes them (pkg/templates/signer): the last line of a signed template is
// `# digest: <hex>:<fragment>`, where <hex> is a Go gob encoding of an ASN.1 ECDSA signature over the
// SHA-256 of the template's text before that line (surrounding white space trimmed), and <fragment> is
// the MD5 of the signing public key's X coordinate, which names the key. A template is verified when one
// trusted certificate's key verifies it: ProjectDiscovery's (a data file beside this one) and those an
// operator adds (`vigil scan --trust-certificate`, NUCLEI_USER_CERTIFICATE, the platform's VIGIL_TEMPLATE_CERTIFICATES).
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { crypto } from '../lazy.ts';

const DIGEST_MARK = '# digest: ';
/** The signer name nuclei gives ProjectDiscovery's own templates (its certificate's common name). */
export const PD_SIGNER = 'projectdiscovery/nuclei-templates';

/** What a template's signature says: verified by a trusted key (and which), a digest no trusted key verifies, or none. */
export type SignatureStatus =
  { state: 'verified'; signer: string } | { state: 'unverified'; fragment?: string } | { state: 'unsigned' };

interface TrustedKey {
  signer: string;
  key: KeyObject;
  fragment: string;
}

// Go's bytes.TrimSpace: ASCII white space plus Unicode's (U+0085, U+00A0, the Z categories); not U+FEFF.
const GO_SPACE = '\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000';
const TRIM = new RegExp(`^[${GO_SPACE}]+|[${GO_SPACE}]+$`, 'g');

/** The text a digest covers and the digest line's value, as nuclei's ExtractSignatureAndContent splits them. */
export function splitDigest(text: string): { content: string; digest?: string } {
  const at = text.lastIndexOf(DIGEST_MARK);
  if (at < 0) return { content: text.replace(TRIM, '') };
  return {
    content: text.slice(0, at).replace(TRIM, ''),
    digest: text
      .slice(at + DIGEST_MARK.length)
      .replace(TRIM, '')
      .trim(),
  };
}

/** True when the text carries a `# digest:` line at all (signed by someone, trusted or not). */
export function hasDigest(text: string): boolean {
  return text.includes(DIGEST_MARK);
}

/** One gob unsigned integer at `at`: a byte below 128 is the value; else the byte is minus the length of a big-endian value. */
function gobUint(b: Buffer, at: number): [number, number] | undefined {
  if (at >= b.length) return undefined;
  const first = b[at]!;
  if (first < 0x80) return [first, at + 1];
  const n = 256 - first;
  if (n > 6 || at + 1 + n > b.length) return undefined;
  let v = 0;
  for (let i = 0; i < n; i++) v = v * 256 + b[at + 1 + i]!;
  return [v, at + 1 + n];
}

/**
 * The ASN.1 signature inside a gob stream holding one []byte value (what Go's gob.Encode writes for it):
 * message length, type id 5 (gob's []byte, written as 10), a zero byte, the byte count, the bytes.
 */
export function gobBytes(b: Buffer): Buffer | undefined {
  const len = gobUint(b, 0);
  if (!len || len[1] + len[0] !== b.length) return undefined;
  const type = gobUint(b, len[1]);
  if (!type || type[0] !== 10 || b[type[1]] !== 0) return undefined;
  const count = gobUint(b, type[1] + 1);
  if (!count || count[1] + count[0] !== b.length) return undefined;
  return b.subarray(count[1]);
}

function pemBody(pem: string): Buffer {
  const m = /-----BEGIN [A-Z0-9 ]+-----([\s\S]*?)-----END [A-Z0-9 ]+-----/.exec(pem);
  if (!m) throw new Error('no PEM certificate block (-----BEGIN ... CERTIFICATE-----) found');
  return Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
}

/**
 * A signing certificate: its common name (the signer's name, as nuclei reports it), its ECDSA key and the
 * fragment that names the key in digest lines. Throws with a reason when the text is not one.
 */
export function readSigningCertificate(pem: string): TrustedKey {
  let cert: import('node:crypto').X509Certificate;
  try {
    cert = new (crypto().X509Certificate)(pemBody(pem));
  } catch (err) {
    throw new Error(`not a certificate: ${(err as Error).message}`);
  }
  const cn = /(?:^|\n)CN=([^\n]*)/.exec(cert.subject)?.[1]?.trim();
  if (!cn) throw new Error('invalid certificate: expected common name to be set');
  const key = cert.publicKey;
  if (key.asymmetricKeyType !== 'ec') throw new Error('the certificate does not hold an ECDSA public key');
  const x = Buffer.from(key.export({ format: 'jwk' }).x!, 'base64url');
  // Go's big.Int.Bytes(): no leading zero bytes.
  let start = 0;
  while (start < x.length - 1 && x[start] === 0) start++;
  const fragment = crypto().createHash('md5').update(x.subarray(start)).digest('hex');
  return { signer: cn, key, fragment };
}

let pdKey: TrustedKey | undefined;
function projectDiscoveryKey(): TrustedKey {
  pdKey ??= readSigningCertificate(
    readFileSync(new URL('./signers/projectdiscovery-nuclei-templates.pem', import.meta.url), 'utf8'),
  );
  return pdKey;
}

/** The certificates a scan trusts: ProjectDiscovery's first, then the operator's, each verifying digests. */
export class TemplateSigners {
  private readonly keys: TrustedKey[];

  /** `certificates`: PEM texts trusted besides ProjectDiscovery's; a bad one throws naming its position. */
  constructor(certificates: string[] = []) {
    this.keys = [projectDiscoveryKey()];
    certificates.forEach((pem, i) => {
      try {
        this.keys.push(readSigningCertificate(pem));
      } catch (err) {
        throw new Error(`template signing certificate ${i + 1}: ${(err as Error).message}`);
      }
    });
  }

  /** The trusted signers' names, ProjectDiscovery's first. */
  get signers(): string[] {
    return this.keys.map((k) => k.signer);
  }

  /**
   * Checks a template's text as written (before `{{randstr}}` is filled in). As nuclei, the digest covers
   * the text with CRLF turned into LF; a digest made over the exact bytes of a CRLF file is accepted too
   * (207 corpus files were signed that way, and nuclei's own check turns them down).
   */
  verify(text: string): SignatureStatus {
    const { content, digest } = splitDigest(text);
    if (digest === undefined) return { state: 'unsigned' };
    const colon = digest.indexOf(':');
    const fragment = colon >= 0 ? digest.slice(colon + 1) : undefined;
    for (const k of this.keys) {
      // nuclei strips this key's fragment; a digest naming another key then fails to decode as hex.
      const hex = fragment === k.fragment ? digest.slice(0, colon) : digest;
      if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex)) continue;
      const signature = gobBytes(Buffer.from(hex, 'hex'));
      if (!signature) continue;
      const lf = content.replace(/\r\n/g, '\n');
      const candidates = lf === content ? [content] : [lf, content];
      for (const c of candidates) {
        let ok = false;
        try {
          ok = crypto().verify('sha256', Buffer.from(c, 'utf8'), k.key, signature);
        } catch {
          ok = false; // a malformed ASN.1 signature is a failed check, not an error
        }
        if (ok) return { state: 'verified', signer: k.signer };
      }
    }
    return { state: 'unverified', fragment };
  }
}

const bySet = new Map<string, TemplateSigners>();
/** One TemplateSigners per distinct certificate list (scans pass the same list chunk after chunk). */
export function signersFor(certificates: string[] = []): TemplateSigners {
  const key = certificates.join('\n');
  let s = bySet.get(key);
  if (!s) {
    s = new TemplateSigners(certificates);
    if (bySet.size > 16) bySet.clear();
    bySet.set(key, s);
  }
  return s;
}
