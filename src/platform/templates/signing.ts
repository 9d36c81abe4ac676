// The template-signing certificates this platform trusts: ProjectDiscovery's (always) and the operator's
// (VIGIL_TEMPLATE_CERTIFICATES: PEM files, comma separated; read on first use, so `vigil serve`, workers
// and `vigil templates import` agree; signature-recheck.ts updates stored rows when the set changes). The store records who signed each template (signed_by) and under
// which set of certificates (signature_keys); scans get the same certificates for their run-time check.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { hasDigest, signersFor, type TemplateSigners } from '../../engine/index.ts';

let certificates: string[] | undefined;

/** Reads VIGIL_TEMPLATE_CERTIFICATES; a file that cannot be read or is no signing certificate throws naming it. */
export function certificatesFromEnv(env: NodeJS.ProcessEnv = process.env): string[] {
  const files = (env.VIGIL_TEMPLATE_CERTIFICATES ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const pems = files.map((f) => {
    try {
      return readFileSync(f, 'utf8');
    } catch (err) {
      throw new Error(`VIGIL_TEMPLATE_CERTIFICATES: cannot read ${f}: ${(err as NodeJS.ErrnoException).code ?? err}`);
    }
  });
  try {
    signersFor(pems);
  } catch (err) {
    throw new Error(`VIGIL_TEMPLATE_CERTIFICATES: ${(err as Error).message}`);
  }
  return pems;
}

/** The operator's certificates (PEM texts) scans trust besides ProjectDiscovery's. */
export function templateCertificates(): string[] {
  certificates ??= certificatesFromEnv();
  return certificates;
}

/** Replaces the trusted set (tests; a start that read the certificates itself). */
export function setTemplateCertificates(pems: string[]): void {
  signersFor(pems);
  certificates = pems;
}

export function platformSigners(): TemplateSigners {
  return signersFor(templateCertificates());
}

let keysName: { for: string[]; name: string } | undefined;
/** A short name for the trusted set: what signature_keys records. */
export function signatureKeys(): string {
  const certs = templateCertificates();
  if (keysName?.for !== certs) {
    const name = createHash('sha256').update(platformSigners().signers.join('\n')).update(certs.join('\n'));
    keysName = { for: certs, name: name.digest('hex').slice(0, 16) };
  }
  return keysName.name;
}

/** Who signed this template text, among the trusted signers; null when none did. */
export function signedBy(text: string): string | null {
  if (!hasDigest(text)) return null;
  const s = platformSigners().verify(text);
  return s.state === 'verified' ? s.signer : null;
}
