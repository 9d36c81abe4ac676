// Stored vulnerability records kept in memory, so that GET /v2/vulnerability/{id} of a record read recently
// costs no database round trip (bench/intel.ts: the round trip, the pg client's socket write and the row's
// parsing were a third of a lookup's CPU). Records change only when an import writes intel_vulns.
// Correctness over speed, as the caller cache (auth/caller-cache.ts):
// - any statement that changes intel_vulns, from any process, sends NOTIFY vigil_intel (trigger of migration
//   030) and every listening process forgets all it holds; the intel store's own writes also clear this
//   process's cache after their commit, so a lookup right after an import in the same process sees it;
// - a read that started before a clear is not stored (generation);
// - without a working listening connection nothing is stored.
// Memory is bounded: at most MAX_ENTRIES records and MAX_CHARS characters of record text (least recently
// used first out); a record larger than MAX_RECORD is never kept.
// VIGIL_RECORD_CACHE=off turns it off (same-run comparisons).
import type { Db } from '../../db/connection.ts';

/** What is kept: a stored record (store.ts's StoredVuln), measured by its JSON text. */
interface Row {
  doc: string;
}

export const INTEL_CHANNEL = 'vigil_intel';
const MAX_ENTRIES = 20_000;
const MAX_CHARS = 32 * 1024 * 1024;
const MAX_RECORD = 1024 * 1024;

export class RecordCache {
  private readonly entries = new Map<string, Row>();
  private chars = 0;
  private generation = 0;
  private live = false;

  get(key: string): Row | undefined {
    const row = this.entries.get(key);
    if (row) {
      // Re-inserted: the Map's order is least recently used first.
      this.entries.delete(key);
      this.entries.set(key, row);
    }
    return row;
  }

  /** A token to pass to set() with what a read started now returns. */
  begin(): number {
    return this.generation;
  }

  set(key: string, row: Row, token: number): void {
    if (!this.live || token !== this.generation || row.doc.length > MAX_RECORD) return;
    const old = this.entries.get(key);
    if (old) {
      this.chars -= old.doc.length;
      this.entries.delete(key);
    }
    this.entries.set(key, row);
    this.chars += row.doc.length;
    while (this.entries.size > MAX_ENTRIES || this.chars > MAX_CHARS) {
      const [k, r] = this.entries.entries().next().value!;
      this.entries.delete(k);
      this.chars -= r.doc.length;
    }
  }

  clear(): void {
    this.generation++;
    this.entries.clear();
    this.chars = 0;
  }

  setLive(up: boolean): void {
    this.clear();
    this.live = up;
  }

  get size(): number {
    return this.entries.size;
  }
}

const caches = new WeakMap<object, RecordCache>();

/** The cache of this database (shared by its transactions); starts listening for changes on first use. */
export function recordCache(db: Db): RecordCache {
  let cache = caches.get(db.scope);
  if (!cache) {
    const c = new RecordCache();
    cache = c;
    caches.set(db.scope, c);
    void db
      .listen?.(
        INTEL_CHANNEL,
        () => c.clear(),
        (up) => c.setLive(up),
      )
      .catch(() => c.setLive(false));
  }
  return cache;
}

/** After the surrounding transaction commits: this process forgets every cached record. */
export function forgetRecords(db: Db): void {
  db.afterCommit(() => caches.get(db.scope)?.clear());
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
