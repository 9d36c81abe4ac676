// Signing templates the way `nuclei -sign` does, for tests: an ECDSA P-256 key and a self-signed
// certificate naming the signer (made with the openssl CLI), and a `# digest:` line over a template's
// text (SHA-256, ASN.1 signature wrapped in Go's gob encoding of a []byte, then the key's fragment).
import { execFileSync } from 'node:child_process';
import { createHash, createPrivateKey, sign, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export interface SigningKey {
  /** The certificate an operator adds to trust this signer. */
  cert: string;
  key: string;
  name: string;
}

/** A new signer named `name` (the certificate's common name, which Vigil and nuclei report). */
export function makeSigningKey(name: string): SigningKey {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-signer-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', key], { stdio: 'pipe' });
    execFileSync(
      'openssl',
      ['req', '-new', '-x509', '-key', key, '-subj', `/CN=${name.replace(/\//g, '\\/')}`, '-days', '30', '-out', cert],
      { stdio: 'pipe' },
    );
    return { cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8'), name };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function gobBytes(der: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from([0x0a, 0x00, der.length]), der]);
  return Buffer.concat([Buffer.from([body.length]), body]);
}

/** The template text with its `# digest:` line (an old one replaced), signed by `k`. */
export function signTemplate(text: string, k: SigningKey): string {
  const at = text.lastIndexOf('# digest: ');
  const content = (at >= 0 ? text.slice(0, at) : text).trim();
  const der = sign('sha256', Buffer.from(content), createPrivateKey(k.key));
  const jwk = new X509Certificate(k.cert).publicKey.export({ format: 'jwk' });
  let x = Buffer.from(jwk.x!, 'base64url');
  while (x.length > 1 && x[0] === 0) x = x.subarray(1);
  const fragment = createHash('md5').update(x).digest('hex');
  return `${content}\n# digest: ${gobBytes(der).toString('hex')}:${fragment}\n`;
}
