// Console sign-in: email + password or an API key gives a server-side session, carried by an HttpOnly,
// SameSite=Strict cookie. Only the token's hash is stored, so a database dump holds no usable session;
// sign-out deletes the row, so a copied cookie stops working at once. Requests that change state with the
// cookie must also send the session's CSRF token in X-CSRF-Token (checked in plugin.ts).
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { hashToken, newToken } from '../shared/tokens.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, unauthorized } from '../shared/errors.ts';
import { hashApiKey } from './keys.ts';
import { verifyPassword } from './passwords.ts';
import { resolveCaller, type Caller } from './service.ts';
import { FailureLimiter } from './sign-in-limit.ts';
import * as store from './store.ts';

export const SESSION_COOKIE = 'vigil_session';
export const SESSION_DAYS = 7;
/** A session unused this long ends (the cookie may still be in the browser; the row no longer matches). */
export const SESSION_IDLE_HOURS = 12;

const sha = hashToken;

export interface NewSession {
  token: string;
  csrfToken: string;
}

export async function createSession(db: Db, userId: number): Promise<NewSession> {
  const token = newToken('vgs_');
  const csrfToken = randomBytes(24).toString('base64url');
  await store.insertSession(db, sha(token), userId, csrfToken, SESSION_DAYS);
  return { token, csrfToken };
}

export async function authenticateSession(
  db: Db,
  token: string,
  teamHeader: string | undefined,
): Promise<{ caller: Caller; csrfToken: string }> {
  const asked = teamHeader?.trim() || undefined;
  const found = await store.findCallerBySessionHash(db, sha(token), asked, SESSION_IDLE_HOURS);
  if (!found) throw unauthorized('the session has ended: sign in again');
  if (Date.now() - new Date(found.last_seen_at).getTime() > 60_000)
    void store.touchSession(db, sha(token)).catch(() => {});
  return { caller: await resolveCaller(db, found, asked), csrfToken: found.csrf_token };
}

/** The session's user without choosing a team (invite acceptance); 401 when the session has ended. */
export async function sessionUser(
  db: Db,
  token: string,
): Promise<{ userId: number; email: string; csrfToken: string }> {
  const found = await store.findCallerBySessionHash(db, sha(token), undefined, SESSION_IDLE_HOURS);
  if (!found) throw unauthorized('the session has ended: sign in again');
  return { userId: Number(found.user_id), email: found.email, csrfToken: found.csrf_token };
}

export async function endSession(db: Db, token: string): Promise<boolean> {
  return (await store.deleteSession(db, sha(token))) > 0;
}

/** Ends every other session of the user (after a password change). */
export async function endOtherSessions(db: Db, userId: number, keepToken?: string): Promise<void> {
  await store.deleteUserSessions(db, userId, keepToken ? sha(keepToken) : undefined);
}

export function sameToken(a: string | undefined, b: string): boolean {
  if (!a) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export interface SignInLimits {
  byAccount: FailureLimiter;
  byAddress: FailureLimiter;
}

/** Five failures per account, thirty per address, in fifteen minutes (one set per app instance). */
export function createSignInLimits(): SignInLimits {
  return {
    byAccount: new FailureLimiter({ max: 5, windowMs: 15 * 60_000 }),
    byAddress: new FailureLimiter({ max: 30, windowMs: 15 * 60_000 }),
  };
}

/**
 * Counts a sign-in try against every limiter before anything is checked, in one synchronous step: tries
 * that arrive together each see the ones before them. Refused (429) when any key is at its limit; then
 * nothing is counted. Returns the time the try was recorded at, to forgive it on success.
 */
function countTry(keys: string[], limiters: FailureLimiter[]): number {
  const now = Date.now();
  const wait = Math.max(...keys.map((k, i) => limiters[i]!.retryAfter(k, now)));
  if (wait > 0) throw new ApiError(429, `too many failed sign-ins: try again in ${wait} s`, 'rate_limited');
  keys.forEach((k, i) => limiters[i]!.fail(k, now));
  return now;
}

export interface SignInInput {
  email?: string;
  password?: string;
  api_key?: string;
  ip: string;
}

/** Checks the credentials (with the failure limits) and returns the user; never says which part was wrong. */
export async function checkCredentials(
  db: Db,
  input: SignInInput,
  limits: SignInLimits,
): Promise<{ userId: number; email: string }> {
  const { byAccount, byAddress } = limits;
  const ipKey = 'ip:' + input.ip;
  if (input.api_key !== undefined) {
    const at = countTry([ipKey], [byAddress]);
    const found = await store.findUserByKeyHash(db, hashApiKey(input.api_key.trim()));
    if (!found) throw unauthorized('invalid API key');
    byAddress.forgive(ipKey, at);
    return { userId: Number(found.id), email: found.email };
  }
  const email = (input.email ?? '').trim().toLowerCase();
  const accountKey = 'e:' + email;
  const at = countTry([accountKey, ipKey], [byAccount, byAddress]);
  const user = await store.findUserByEmail(db, email);
  const ok = await verifyPassword(input.password ?? '', user ? await store.findPasswordHash(db, user.id) : null);
  if (!user || !ok) throw unauthorized('wrong email or password');
  byAccount.clear(accountKey);
  byAddress.forgive(ipKey, at);
  return { userId: Number(user.id), email: user.email };
}
