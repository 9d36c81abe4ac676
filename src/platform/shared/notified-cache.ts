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
  weight: number;
}

export class NotifiedCache<V> {
  private readonly entries = new Map<string, Entry<V>>();
  private weight = 0;
  private generation = 0;
  /** Whether invalidations are being delivered: only then is anything stored. */
  private live = false;

  constructor(private readonly limits: CacheLimits<V>) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    this.entries.delete(key);
    if (e.until < Date.now()) {
      this.weight -= e.weight;
      return undefined;
    }
    this.entries.set(key, e); // re-inserted: the Map's order is least recently used first
    return e.value;
  }

  /** A token to pass to set() with what a read started now returns. */
  begin(): number {
    return this.generation;
  }

  set(key: string, value: V, token: number): void {
    if (!this.live || token !== this.generation) return;
    const { maxEntries, ttlMs, weight, maxWeight = Infinity, maxItemWeight = Infinity } = this.limits;
    const w = weight ? weight(value) : 0;
    if (w > maxItemWeight) return;
    const old = this.entries.get(key);
    if (old) {
      this.weight -= old.weight;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, until: ttlMs === undefined ? Infinity : Date.now() + ttlMs, weight: w });
    this.weight += w;
    while (this.entries.size > maxEntries || this.weight > maxWeight) {
      const [k, e] = this.entries.entries().next().value!;
      this.entries.delete(k);
      this.weight -= e.weight;
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.weight = 0;
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
