// API keys: random, shown once, stored only as a SHA-256 hash (shared/tokens.ts).
import { hashToken, newToken } from '../shared/tokens.ts';

export const KEY_PREFIX = 'vgl_';

export function newApiKey(): string {
  return newToken(KEY_PREFIX);
}

export function hashApiKey(key: string): string {
  return hashToken(key);
}

/**
 * What is shown of a key so a user can tell keys apart: the fixed `vgl_` and four characters of the key's
 * hash, so no character of the secret itself is ever stored or shown in clear.
 */
export function keyPrefix(key: string): string {
  return `${KEY_PREFIX}…${hashApiKey(key).slice(0, 4)}`;
}
