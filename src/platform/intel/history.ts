// Daily feeds (bug-bounty counts, EPSS scores) keep the previous day's values beside the new ones, so a
// record can show day-over-day deltas (bounty.delta_*; EPSS's previous score is kept for the same use).
import type { Db } from '../../db/connection.ts';
import * as store from './store.ts';

/** A daily fact: the day it describes (when known), its values, and the previous day's values. */
export type DailyFact = { date?: string; prev?: Record<string, unknown> } & Record<string, unknown>;

const values = (f: DailyFact): Record<string, unknown> => {
  const { prev: _prev, ...rest } = f;
  return rest;
};
// Stored facts come back from jsonb with their keys reordered, so compare key by key (values are flat).
function same(a: DailyFact, b: DailyFact): boolean {
  const va = values(a);
  const vb = values(b);
  const keys = new Set([...Object.keys(va), ...Object.keys(vb)]);
  return [...keys].every((k) => va[k] === vb[k]);
}

/**
 * The fact to store given the stored one: a newer day moves the stored values to `prev`; the same day
 * again (or an undated file with the same values) keeps the stored `prev`, so re-imports change nothing;
 * an older day never replaces a newer one. Undated files with new values count as a new day.
 */
export function nextFact(old: DailyFact | undefined, next: DailyFact): DailyFact {
  if (!old) return next;
  if (old.date && next.date) {
    if (old.date > next.date) return old;
    if (old.date === next.date) return old.prev ? { ...next, prev: old.prev } : next;
    return { ...next, prev: values(old) };
  }
  if (same(old, next)) return old.prev ? { ...next, prev: old.prev } : next;
  return { ...next, prev: values(old) };
}

export async function withPrevious(db: Db, feed: string, rows: { cve_id: string; data: DailyFact }[]) {
  const stored = await store.getFacts(
    db,
    feed,
    rows.map((r) => r.cve_id),
  );
  return rows.map(({ cve_id, data }) => ({
    cve_id,
    data: nextFact(stored.get(cve_id) as DailyFact | undefined, data),
  }));
}
