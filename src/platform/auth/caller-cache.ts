// Who an API key's caller is (user, team, role), kept in memory so that a request does not pay a database
// round trip for it (bench/intel.ts: the round trip was half of a vulnerability lookup's database work).
// Correctness over speed:
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
const TTL_MS = 5 * 60_000;
const MAX_ENTRIES = 10_000;

interface Entry {
  row: CallerRow;
  until: number;
}

export class CallerCache {
  private readonly entries = new Map<string, Entry>();
  private generation = 0;
  /** Whether invalidations are being delivered: only then is anything stored. */
  private live = false;

  get(key: string): CallerRow | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.row;
  }

  /** A token to pass to set() with what a read started now returns. */
  begin(): number {
    return this.generation;
  }

  set(key: string, row: CallerRow, token: number): void {
    if (!this.live || token !== this.generation) return;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { row, until: Date.now() + TTL_MS });
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
  }

  setLive(up: boolean): void {
    this.clear();
    this.live = up;
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, CallerCache>();

/** The cache of this database (shared by its transactions); starts listening for changes on first use. */
export function callerCache(db: Db): CallerCache {
  let cache = caches.get(db.scope);
  if (!cache) {
    const c = new CallerCache();
    cache = c;
    caches.set(db.scope, c);
    void db
      .listen?.(
        AUTH_CHANNEL,
        () => c.clear(),
        (up) => c.setLive(up),
      )
      .catch(() => c.setLive(false));
  }
  return cache;
}

/** After the surrounding transaction commits: this process forgets every cached caller. */
export function forgetCallers(db: Db): void {
  db.afterCommit(() => caches.get(db.scope)?.clear());
}
