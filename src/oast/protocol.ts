// The interactsh protocol as its clients expect it (projectdiscovery/interactsh, read for the facts):
// a client registers a correlation id (20 characters), a secret and its RSA public key; the names it hands
// out are <correlation id><13-character nonce>.<domain>; the server keeps each interaction as JSON,
// encrypted with an AES-256 key of the client's own (CTR mode, the 16-byte IV in front, base64), and hands
// that key over wrapped with RSA-OAEP (SHA-256) for the client's public key.
import { createCipheriv, createPublicKey, publicEncrypt, randomBytes, constants, type KeyObject } from 'node:crypto';

export const CORRELATION_ID_LENGTH = 20;
export const NONCE_LENGTH = 13;
export const ID_LENGTH = CORRELATION_ID_LENGTH + NONCE_LENGTH;

/** One interaction, with interactsh's JSON field names. */
export interface Interaction {
  protocol: string;
  'unique-id': string;
  'full-id': string;
  'q-type'?: string;
  'raw-request'?: string;
  'raw-response'?: string;
  'smtp-from'?: string;
  'remote-address': string;
  timestamp: string;
}

const ALNUM = /^[a-z0-9]+$/;

/**
 * The interaction ids in the labels of a name (a Host header, a queried name, a mail domain): every
 * window of ID_LENGTH characters of a label that is alphanumeric and whose correlation id is registered.
 * Returns each id once, with its full id (the name up to and including the label, as interactsh reports).
 */
export function idsInName(
  name: string,
  registered: (correlationId: string) => boolean,
): { id: string; full: string }[] {
  const labels = name.toLowerCase().replace(/\.$/, '').split('.');
  const found = new Map<string, string>();
  labels.forEach((label, i) => {
    for (let k = 0; k + ID_LENGTH <= label.length && k < 64; k++) {
      const id = label.slice(k, k + ID_LENGTH);
      if (found.has(id) || !ALNUM.test(id) || !registered(id.slice(0, CORRELATION_ID_LENGTH))) continue;
      found.set(id, labels.slice(0, i + 1).join('.'));
    }
  });
  return [...found].map(([id, full]) => ({ id, full }));
}

/**
 * Ids anywhere in a text (an LDAP message, a mail body): split at characters that cannot be part of a name
 * label, then read every piece as a name.
 */
export function idsInText(
  text: string,
  registered: (correlationId: string) => boolean,
): { id: string; full: string }[] {
  const out = new Map<string, string>();
  for (const piece of text.slice(0, 65536).split(/[^A-Za-z0-9.-]+/)) {
    if (piece.length < ID_LENGTH) continue;
    for (const hit of idsInName(piece, registered)) if (!out.has(hit.id)) out.set(hit.id, hit.full);
  }
  return [...out].map(([id, full]) => ({ id, full }));
}

/** The client's key as it sends it: base64 of a PEM block holding a PKIX (SubjectPublicKeyInfo) RSA key. */
export function parseClientKey(b64: string): KeyObject {
  const pem = Buffer.from(b64, 'base64').toString('utf8');
  const m = /-----BEGIN [A-Z ]+-----([\s\S]+?)-----END [A-Z ]+-----/.exec(pem);
  if (!m) throw new Error('public-key is not a base64-encoded PEM block');
  const der = Buffer.from(m[1]!.replace(/\s+/g, ''), 'base64');
  const key = createPublicKey({ key: der, format: 'der', type: 'spki' });
  if (key.asymmetricKeyType !== 'rsa') throw new Error('public-key is not an RSA key');
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (bits < 1024 || bits > 8192) throw new Error(`public-key has ${bits} bits; use 1024 to 8192`);
  return key;
}

/** A fresh AES-256 key and the same key wrapped for the client (RSA-OAEP, SHA-256), base64. */
export function newSessionKey(client: KeyObject): { key: Buffer; wrapped: string } {
  const key = randomBytes(32);
  const wrapped = publicEncrypt({ key: client, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, key);
  return { key, wrapped: wrapped.toString('base64') };
}

/** base64(IV || AES-256-CTR(plaintext)). */
export function sealInteraction(key: Buffer, plaintext: string): string {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-256-ctr', key, iv);
  return Buffer.concat([iv, c.update(plaintext, 'utf8'), c.final()]).toString('base64');
}
