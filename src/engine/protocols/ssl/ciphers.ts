// Cipher enumeration (`tls_cipher_enum`): one handshake per cipher this TLS stack can offer, for each
// version the server speaks; each accepted cipher is filed as insecure, weak or secure by the criteria
// ciphersuite.info publishes (which nuclei's TLS library uses): no encryption, no authentication, export
// grade, RC4, single DES, MD5, integrity-only TLS 1.3 suites and the national GOST / SM4 suites are
// insecure; no forward secrecy, CBC mode, SHA-1 MACs or 3DES are weak; forward-secret AEAD suites (and
// the standard TLS 1.3 suites) are secure.
import { tls } from '../../lazy.ts';

export type CipherLevel = 'insecure' | 'weak' | 'secure';

export function cipherLevel(iana: string): CipherLevel {
  const n = iana.toUpperCase();
  if (/NULL|_ANON_|EXPORT|RC4|_DES_|DES40|_MD5$|^TLS_SHA\d+_SHA\d+$|GOSTR|_28147_|_SM4_/.test(n)) return 'insecure';
  if (/^TLS_(AES|CHACHA20)_/.test(n)) return 'secure'; // TLS 1.3
  const forwardSecret = /^TLS_(ECDHE|DHE)_/.test(n);
  const aead = /_GCM_|_CCM|CHACHA20_POLY1305/.test(n);
  return forwardSecret && aead ? 'secure' : 'weak';
}

/** The OpenSSL names of the ciphers to try for one version (TLS 1.3 suites only for tls13). */
export function ciphersFor(version: string): string[] {
  const all = tls()
    .getCiphers()
    .map((c) => c.toUpperCase());
  return version === 'tls13' ? all.filter((c) => c.startsWith('TLS_')) : all.filter((c) => !c.startsWith('TLS_'));
}

export interface CipherEnum {
  version: string;
  ciphers: Partial<Record<CipherLevel, string[]>>;
}

/** The accepted ciphers of one version, filed by level and kept for the levels asked (`all`: every one). */
export function fileCiphers(version: string, accepted: string[], types: string[]): CipherEnum {
  const wanted = new Set(types.map((t) => t.toLowerCase()));
  const ciphers: Partial<Record<CipherLevel, string[]>> = {};
  for (const c of accepted) {
    const level = cipherLevel(c);
    if (!wanted.has('all') && !wanted.has(level)) continue;
    (ciphers[level] ??= []).push(c);
  }
  return { version, ciphers };
}
