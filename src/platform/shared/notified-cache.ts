// A per-process, per-database memory cache that the database itself invalidates: triggers send NOTIFY on a
// channel whenever the cached tables change (from any process), and every process listening on it forgets
// all it holds. Used by the auth area (an API key's caller) and the intel area (stored records).
// Correctness over speed:
// - A store's own writes also clear its process's cache after their commit (forgetAfterCommit), so the
//   very next request in the same process sees them, whenever the notification arrives.
// - A read that started before a clear is not stored (the generation token from begin()), so a clear cannot
//   be undone by a slow read of the old state.
// - Without a working listening connection (lost, not yet open, a database that cannot LISTEN) nothing is
//   stored.
// Memory is bounded by entry count, optionally by a total weight (e.g. characters of text), and entries
// may expire; the least recently used go first.
import type { Db } from '../../db/connection.ts';
import { Lru } from './lru.ts';

export interface CacheLimits<V> {
  maxEntries: number;
  /** Entries older than this are not answered. */
  ttlMs?: number;
  /** With maxWeight: what one value costs; a value heavier than maxItemWeight is never kept. */
  weight?: (value: V) => number;
  maxWeight?: number;
  maxItemWeight?: number;
}

interface Entry<V> {
  value: V;
  until: number;
}

export class NotifiedCache<V> {
  private readonly entries: Lru<Entry<V>>;
  private generation = 0;
  /** Whether invalidations are being delivered: only then is anything stored. */
  private live = false;

  constructor(private readonly limits: CacheLimits<V>) {
    this.entries = new Lru(limits.maxEntries, limits.maxWeight);
  }

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (e.until < Date.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** A token to pass to set() with what a read started now returns. */
  begin(): number {
    return this.generation;
  }

  set(key: string, value: V, token: number): void {
    if (!this.live || token !== this.generation) return;
    const { ttlMs, weight, maxItemWeight = Infinity } = this.limits;
    const w = weight ? weight(value) : 0;
    if (w > maxItemWeight) return;
    this.entries.set(key, { value, until: ttlMs === undefined ? Infinity : Date.now() + ttlMs }, w);
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

const caches = new WeakMap<object, Map<string, NotifiedCache<unknown>>>();

/**
 * The cache of this database (shared by its transactions) cleared by NOTIFY on channel; starts listening
 * on first use. One cache per channel: the limits of the first call stand.
 */
export function notifiedCache<V>(db: Db, channel: string, limits: CacheLimits<V>): NotifiedCache<V> {
  let byChannel = caches.get(db.scope);
  if (!byChannel) caches.set(db.scope, (byChannel = new Map()));
  let cache = byChannel.get(channel) as NotifiedCache<V> | undefined;
  if (!cache) {
    const c = new NotifiedCache<V>(limits);
    cache = c;
    byChannel.set(channel, c as NotifiedCache<unknown>);
    void db
      .listen?.(
        channel,
        () => c.clear(),
        (up) => c.setLive(up),
      )
      .catch(() => c.setLive(false));
  }
  return cache;
}

/** After the surrounding transaction commits: this process's cache of channel forgets everything. */
export function forgetAfterCommit(db: Db, channel: string): void {
  db.afterCommit(() => caches.get(db.scope)?.get(channel)?.clear());
}
