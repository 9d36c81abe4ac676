// Recomputes served records from stored facts (after imports, template catalogue changes, or a change in
// how records are computed).
import type { Db } from '../../db/connection.ts';
import { computeRecord } from './record.ts';
import * as store from './store.ts';
import { attachTemplates } from './template-content.ts';

/** Recomputes the records of the given CVEs from their stored facts. Returns how many changed. */
export async function recompute(db: Db, cveIds: string[], progress?: (n: number) => void): Promise<number> {
  const names = await store.cweNames(db);
  let changed = 0;
  const sorted = [...new Set(cveIds)].sort();
  for (let i = 0; i < sorted.length; i += 500) {
    const batch = sorted.slice(i, i + 500);
    const facts = await store.loadFacts(db, batch);
    await attachTemplates(db, facts);
    const rows: Parameters<typeof store.upsertRecords>[1] = [];
    const gone: string[] = [];
    for (const id of batch) {
      const rec = facts.has(id) ? computeRecord(id, facts.get(id)!, names) : undefined;
      if (rec) rows.push({ ...rec.columns, doc: rec.doc });
      else gone.push(id);
    }
    await db.transaction(async (tx) => {
      changed += await store.upsertRecords(tx, rows);
      await store.deleteRecords(tx, gone);
    });
    progress?.(Math.min(i + 500, sorted.length));
  }
  return changed;
}

/** Recomputes every record (after a change in how records are computed). */
export async function rebuildAll(db: Db): Promise<number> {
  return recompute(db, await store.allFactCves(db));
}
