// Template searches kept in memory per database: facet counts of a search with q (they read every matching
// row; a search without q reads the counts table instead and is not cached) and result pages (a page
// carries each template's source, up to 1.4 MB for 50 templates of the corpus: reading and parsing it was
// most of a repeated search's time, see docs/performance.md). Both only change when the templates table
// does, so they are keyed by the query and by the table's change counter (template_changes, bumped by a
// trigger on every write from any process). Entries also expire after a minute because creation_stats
// buckets move with the clock. VIGIL_FACET_CACHE=off turns both off.
import type { Db } from '../../db/connection.ts';
import { Lru } from '../shared/lru.ts';

const MAX_ENTRIES = 500;
const TTL_MS = 60_000;
/** Result pages: at most this many characters of values held in all (least recently used first out). */
const MAX_PAGE_CHARS = 32 * 1024 * 1024;

interface Entry {
  version: number;
  at: number;
  value: unknown;
}

/** Values valid for one version of the templates table and for TTL_MS. */
class VersionedCache {
  private readonly entries: Lru<Entry>;
  constructor(private readonly maxSize: number) {
    this.entries = new Lru(MAX_ENTRIES, maxSize);
  }

  get<T>(key: string, version: number): T | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.version !== version || Date.now() - hit.at >= TTL_MS) {
      this.entries.delete(key);
      return undefined;
    }
    return hit.value as T;
  }

  set(key: string, version: number, value: unknown, size: number): void {
    this.entries.delete(key);
    if (size > this.maxSize) return;
    this.entries.set(key, { version, at: Date.now(), value }, size);
  }
}

const facetCaches = new WeakMap<Db, VersionedCache>();
const pageCaches = new WeakMap<Db, VersionedCache>();

/** Whether searches are cached (VIGIL_FACET_CACHE=off for measuring the uncached path). */
export function searchCacheOn(): boolean {
  return process.env.VIGIL_FACET_CACHE !== 'off';
}

async function cached<T>(
  caches: WeakMap<Db, VersionedCache>,
  maxSize: number,
  db: Db,
  key: string,
  version: number,
  compute: () => Promise<T>,
  sizeOf: (v: T) => number,
): Promise<T> {
  if (!searchCacheOn()) return compute();
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new VersionedCache(maxSize)));
  const hit = cache.get<T>(key, version);
  if (hit !== undefined) return hit;
  const value = await compute();
  cache.set(key, version, value, sizeOf(value));
  return value;
}

/** The cached value for key at this version, or compute() (read the version before computing). */
export async function cachedFacets<T>(db: Db, key: string, version: number, compute: () => Promise<T>): Promise<T> {
  return cached(facetCaches, Infinity, db, key, version, compute, () => 1);
}

/**
 * A result page (records) for key at this version, or compute(). The page is shared by the callers that
 * get it from here: it must not be changed.
 */
export async function cachedPage<T extends Record<string, unknown>[]>(
  db: Db,
  key: string,
  version: number,
  compute: () => Promise<T>,
): Promise<T> {
  return cached(pageCaches, MAX_PAGE_CHARS, db, key, version, compute, pageSize);
}

/** A result page as the JSON text of its records (joined by commas) and their number, for key at this version, or compute(). */
export async function cachedPageText(
  db: Db,
  key: string,
  version: number,
  compute: () => Promise<{ text: string; count: number }>,
): Promise<{ text: string; count: number }> {
  return cached(pageCaches, MAX_PAGE_CHARS, db, key, version, compute, (v) => v.text.length);
}

/** About how much a page holds: its strings' lengths (template sources dominate) plus a little per value. */
function pageSize(rows: Record<string, unknown>[]): number {
  let n = 0;
  for (const r of rows)
    for (const v of Object.values(r)) n += typeof v === 'string' ? v.length : Array.isArray(v) ? 16 * v.length : 16;
  return n;
}
