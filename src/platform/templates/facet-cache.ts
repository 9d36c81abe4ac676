// Facet counts of a search with q are its costly part (they read every matching row; a search without q
// reads the counts table instead and is not cached). They only change when the templates table does, so they are kept in memory per database, keyed by the query and by the table's
// change counter (template_changes, bumped by a trigger on every write from any process). Entries also
// expire after a minute because creation_stats buckets move with the clock.
import type { Db } from '../../db/connection.ts';

const MAX_ENTRIES = 500;
const TTL_MS = 60_000;

interface Entry<T> {
  version: number;
  at: number;
  value: T;
}

const caches = new WeakMap<Db, Map<string, Entry<unknown>>>();

/** The cached value for key at this version, or compute() (read the version before computing). */
export async function cachedFacets<T>(db: Db, key: string, version: number, compute: () => Promise<T>): Promise<T> {
  if (process.env.VIGIL_FACET_CACHE === 'off') return compute();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(key);
  if (hit && hit.version === version && Date.now() - hit.at < TTL_MS) {
    // Re-insert to keep the Map in least-recently-used order.
    cache.delete(key);
    cache.set(key, hit);
    return hit.value as T;
  }
  const value = await compute();
  cache.set(key, { version, at: Date.now(), value });
  if (cache.size > MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  return value;
}
