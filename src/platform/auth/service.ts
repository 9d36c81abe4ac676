// Who is calling: API key -> user -> team (X-Team-Id or the user's default) -> role. Also the first-start
// bootstrap of the owner account and key issuing.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { advisoryXactLock } from '../../db/generic.ts';
import { conflict, forbidden, notFound, unauthorized } from '../shared/errors.ts';
import { keyPrefix, hashApiKey, newApiKey } from './keys.ts';
import type { Role } from './permissions.ts';
import * as store from './store.ts';
import { callerCache } from './caller-cache.ts';

export interface Caller {
  userId: number;
  email: string;
  teamId: string;
  role: Role;
}

export async function authenticate(
  db: Db,
  apiKey: string | undefined,
  teamHeader: string | undefined,
): Promise<Caller> {
  if (!apiKey) throw unauthorized('missing API key: send it in the X-API-Key header');
  const asked = teamHeader?.trim() || undefined;
  const keyHash = hashApiKey(apiKey.trim());
  // key -> user -> membership of the asked (or default) team: one round trip, or none when this process
  // already knows the answer. The cache forgets everything on any change of keys, members, users or teams
  // (caller-cache.ts), so a rotated key or a downgrade takes effect on the very next request.
  const cache = callerCache(db);
  const cacheKey = `${keyHash}\u0000${asked ?? ''}`;
  let found = cache.get(cacheKey);
  if (!found) {
    const token = cache.begin();
    found = await store.findCallerByKeyHash(db, keyHash, asked);
    if (!found) throw unauthorized('invalid API key');
    // Only a member who accepted: an invited one is accepted by this very request (a write).
    if (found.role && found.status === 'ACCEPTED') cache.set(cacheKey, found, token);
  }
  return resolveCaller(db, found, asked);
}

/** The caller's team and role from a key's or a session's user row (shared by both ways of signing in). */
export async function resolveCaller(db: Db, found: store.CallerRow, asked: string | undefined): Promise<Caller> {
  let teamId = found.team_id ?? undefined;
  let membership: { role: Role; status: string } | undefined = found.role
    ? { role: found.role, status: found.status! }
    : undefined;
  if (!membership && !asked) {
    // Removed from the default team (or never had one): fall back to the first team the user is in.
    const first = (await store.listUserTeams(db, found.user_id))[0];
    const m = first && (await store.findMembership(db, first.id, found.user_id));
    if (m) [teamId, membership] = [first.id, m];
  }
  if (!membership || !teamId) throw forbidden(asked ? `not a member of team ${asked}` : 'the user belongs to no team');
  if (!found.last_sign_in || Date.now() - found.last_sign_in.getTime() > 60_000) {
    void store.touchSignIn(db, found.user_id).catch(() => {});
    // A cached row then waits another minute before touching again.
    found.last_sign_in = new Date();
  }
  if (membership.status === 'INVITED') await store.acceptInvite(db, teamId, found.user_id);
  return { userId: Number(found.user_id), email: found.email, teamId, role: membership.role };
}

/** Issues a fresh key for the user (or installs `given`), replacing any previous one. Returns the clear key. */
export async function issueKey(db: Db, userId: number, given?: string): Promise<string> {
  const key = given ?? newApiKey();
  await store.replaceApiKey(db, userId, hashApiKey(key), keyPrefix(key));
  return key;
}

/** A first key for a user who has none (POST /v1/user/apikey); a user with a key rotates it instead. */
export async function createFirstKey(db: Db, userId: number): Promise<string> {
  const key = newApiKey();
  if (!(await store.insertFirstApiKey(db, userId, hashApiKey(key), keyPrefix(key))))
    throw conflict('you already have an API key; rotate it (POST /v1/user/apikey/rotate) to get a new one', 'api_key');
  return key;
}

/** Revokes the user's key (DELETE /v1/user/apikey); the console's session keeps working. */
export async function revokeKey(db: Db, userId: number): Promise<void> {
  if (!(await store.deleteApiKeys(db, userId))) throw notFound('you have no API key', 'api_key');
}

export async function createTeamWithOwner(
  db: Db,
  email: string,
  teamName: string,
): Promise<{ userId: number; teamId: string }> {
  return db.transaction(async (tx) => {
    const teamId = randomUUID();
    await store.insertTeam(tx, teamId, teamName);
    let user = await store.findUserByEmail(tx, email);
    if (!user) user = await store.insertUser(tx, email, teamId);
    else if (!user.default_team_id) await store.setDefaultTeam(tx, user.id, teamId);
    await store.insertMember(tx, teamId, user.id, 'OWNER', true);
    return { userId: user.id, teamId };
  });
}

/**
 * First start: when no team exists, creates the owner account and its team and returns the owner's new
 * key (shown once by `vigil serve`). With VIGIL_BOOTSTRAP_API_KEY the key is that value instead. It applies
 * only then: once an owner exists the variable changes nothing, so a key the owner rotated stays rotated
 * across restarts (a leaked bootstrap value must not come back to life).
 */
export async function bootstrapOwner(
  db: Db,
  ownerEmail: string,
  bootstrapKey?: string,
): Promise<{ email: string; apiKey?: string; userId?: number; teamId?: string }> {
  // Serialised with an advisory lock: two processes starting at once must not create two owners.
  return db.transaction(async (tx) => {
    await advisoryXactLock(tx, BOOTSTRAP_LOCK);
    if ((await store.countTeams(tx)) === 0) {
      const { userId, teamId } = await createTeamWithOwner(tx, ownerEmail, 'Default team');
      await store.markInstanceOwner(tx, userId);
      return { email: ownerEmail, apiKey: await issueKey(tx, userId, bootstrapKey), userId: Number(userId), teamId };
    }
    return { email: ownerEmail };
  });
}

const BOOTSTRAP_LOCK = 7_305_113;
