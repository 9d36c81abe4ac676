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

/** The first characters of a key, safe to show so a user can tell keys apart. */
export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + 4);
}
