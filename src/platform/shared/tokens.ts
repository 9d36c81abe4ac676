// Bearer secrets the platform hands out (API keys, sessions, invites, template share links): random,
// shown once, stored only as a SHA-256 hash. They carry 192-256 bits of entropy, so a fast hash is enough
// and keeps each lookup to one indexed query.
import { hash, randomBytes } from 'node:crypto';

/** A new secret: the kind's prefix (vgl_, vgs_, vgi_, vts_) and `bytes` random bytes in base64url. */
export function newToken(prefix: string, bytes = 32): string {
  return prefix + randomBytes(bytes).toString('base64url');
}

/**
 * What is stored of a token: its SHA-256 in hex. Every API request with a key computes it (the caller
 * cache is keyed by it): the one-shot crypto.hash costs about half of a Hash object's create, update, digest.
 */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}
