// The cipher levels of tls_cipher_enum against the corpus's own lists: every suite the weak-cipher and
// insecure-cipher templates name must be filed at that level (read from ../shared at test time).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { cipherLevel } from '../../../../src/engine/protocols/ssl/ciphers.ts';
import { hasShared, sharedDir } from '../../../helpers/shared.ts';

function words(file: string): string[] {
  const doc = yaml.load(readFileSync(path.join(sharedDir, 'corpus/nuclei-templates/ssl', file), 'utf8')) as {
    ssl: { matchers?: { words?: string[] }[] }[];
  };
  return [...new Set(doc.ssl.flatMap((b) => (b.matchers ?? []).flatMap((m) => m.words ?? [])))];
}

describe('cipher levels', () => {
  it('files well-known suites', () => {
    expect(cipherLevel('TLS_RSA_WITH_RC4_128_MD5')).toBe('insecure');
    expect(cipherLevel('TLS_DH_anon_WITH_AES_128_GCM_SHA256')).toBe('insecure');
    expect(cipherLevel('TLS_RSA_WITH_3DES_EDE_CBC_SHA')).toBe('weak');
    expect(cipherLevel('TLS_RSA_WITH_AES_256_GCM_SHA384')).toBe('weak');
    expect(cipherLevel('TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA')).toBe('weak');
    expect(cipherLevel('TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384')).toBe('secure');
    expect(cipherLevel('TLS_AES_128_GCM_SHA256')).toBe('secure');
  });

  it.runIf(hasShared('corpus/nuclei-templates/ssl'))('agrees with the corpus weak and insecure cipher lists', () => {
    const weak = words('weak-cipher-suites.yaml');
    const insecure = words('insecure-cipher-suite-detect.yaml');
    expect(weak.length).toBeGreaterThan(50);
    expect(insecure.length).toBeGreaterThan(50);
    expect(
      weak.filter((c) => cipherLevel(c) !== 'weak'),
      'weak',
    ).toEqual([]);
    expect(insecure.filter((c) => cipherLevel(c) !== 'insecure')).toEqual([]);
  });
});
