// API keys: random, shown once, stored only as a SHA-256 hash (the keys carry 256 bits of entropy, so a
// fast hash is enough and keeps every request's lookup to one indexed query).
import { createHash, randomBytes } from 'node:crypto';

export const KEY_PREFIX = 'vgl_';

export function newApiKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url');
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/**
 * What is shown of a key so a user can tell keys apart: the fixed `vgl_` and four characters of the key's
 * hash, so no character of the secret itself is ever stored or shown in clear.
 */
export function keyPrefix(key: string): string {
  return `${KEY_PREFIX}…${hashApiKey(key).slice(0, 4)}`;
}
