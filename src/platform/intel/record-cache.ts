// Stored vulnerability records kept in memory, so that GET /v2/vulnerability/{id} of a record read recently
// costs no database round trip (bench/intel.ts: the round trip, the pg client's socket write and the row's
// parsing were a third of a lookup's CPU). Records change only when an import writes intel_vulns.
// Correctness over speed, as the caller cache (both are shared/notified-cache.ts):
// - any statement that changes intel_vulns, from any process, sends NOTIFY vigil_intel (trigger of migration
//   030) and every listening process forgets all it holds; the intel store's own writes also clear this
//   process's cache after their commit, so a lookup right after an import in the same process sees it;
// - a read that started before a clear is not stored (generation);
// - without a working listening connection nothing is stored.
// Memory is bounded: at most 20,000 records and 32 M characters of record text, each counted twice for the
// answer bytes kept with it (least recently used first out); a record over 1 M characters is never kept.
// VIGIL_RECORD_CACHE=off turns it off (same-run comparisons).
import type { Db } from '../../db/connection.ts';
import { forgetAfterCommit, notifiedCache, type NotifiedCache } from '../shared/notified-cache.ts';

/** What is kept: a stored record (store.ts's StoredVuln), measured by its JSON text. */
interface Row {
  doc: string;
}

export const INTEL_CHANNEL = 'vigil_intel';
const LIMITS = {
  maxEntries: 20_000,
  // Its text and, once looked up whole, the answer's bytes kept beside it (service.ts's lookupAnswer).
  weight: (row: Row) => 2 * row.doc.length,
  maxWeight: 64 * 1024 * 1024,
  maxItemWeight: 2 * 1024 * 1024,
};

/** The cache of this database (shared by its transactions); starts listening for changes on first use. */
export function recordCache(db: Db): NotifiedCache<Row> {
  return notifiedCache<Row>(db, INTEL_CHANNEL, LIMITS);
}

/** After the surrounding transaction commits: this process forgets every cached record. */
export function forgetRecords(db: Db): void {
  forgetAfterCommit(db, INTEL_CHANNEL);
}

/** The record under key (a CVE id or a doc_id, as read), from memory or from read(). */
export async function cachedRecord<T extends Row>(
  db: Db,
  key: string,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (process.env.VIGIL_RECORD_CACHE === 'off') return read();
  const cache = recordCache(db);
  const hit = cache.get(key) as T | undefined; // only read() of this key's kind put it there
  if (hit) return hit;
  const token = cache.begin();
  const row = await read();
  if (row) cache.set(key, row, token);
  return row;
}
