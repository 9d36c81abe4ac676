// Who an API key's caller is (user, team, role), kept in memory so that a request does not pay a database
// round trip for it (bench/intel.ts: the round trip was half of a vulnerability lookup's database work).
// Correctness over speed (the invalidation itself is shared/notified-cache.ts's):
// - Any change to api_keys, team_members, users (email, default team) or teams makes the database send
//   NOTIFY vigil_auth (triggers of migration 026), whichever process made it; every process listening
//   forgets all it has. PGlite delivers it before the changing statement returns; a PostgreSQL server over
//   the listening connection right after the commit.
// - The auth store's own changes also clear this process's cache after their commit (db.afterCommit), so
//   a rotated key or a demoted member is refused on the very next request sent to the same process.
// - A read that started before a clear is not stored (generation), so a clear cannot be undone by a
//   slow read of the old state.
// - Without a working listening connection (lost, not yet open, a database that cannot LISTEN) nothing is
//   cached; entries also expire after a few minutes, and only callers that are members are cached.
import type { Db } from '../../db/connection.ts';
import { forgetAfterCommit, notifiedCache, type NotifiedCache } from '../shared/notified-cache.ts';
import type { Role } from './permissions.ts';

/** A key's caller as the auth store reads it: the user and their membership of the asked team. */
export interface CallerRow {
  user_id: number;
  email: string;
  last_sign_in: Date | null;
  team_id: string | null;
  role: Role | null;
  status: string | null;
}

export const AUTH_CHANNEL = 'vigil_auth';
const LIMITS = { maxEntries: 10_000, ttlMs: 5 * 60_000 };

/** The cache of this database (shared by its transactions); starts listening for changes on first use. */
export function callerCache(db: Db): NotifiedCache<CallerRow> {
  return notifiedCache<CallerRow>(db, AUTH_CHANNEL, LIMITS);
}

/** After the surrounding transaction commits: this process forgets every cached caller. */
export function forgetCallers(db: Db): void {
  forgetAfterCommit(db, AUTH_CHANNEL);
}
