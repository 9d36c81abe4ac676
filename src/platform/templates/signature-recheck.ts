// At start: the stored templates whose signature was checked under another set of trusted certificates
// (VIGIL_TEMPLATE_CERTIFICATES changed, or rows written before signatures were recorded) are checked again.
import type { Db } from '../../db/connection.ts';
import { signatureKeys, signedBy } from './signing.ts';
import { signatureRecheckBatch, writeSignatures } from './store.ts';
import { fillRecordJson } from './record-json.ts';

/**
 * Checks again the stored templates carrying a digest that were checked under another set of trusted
 * certificates (or none yet: rows from before signatures were recorded). Returns how many rows changed.
 */
export async function recheckSignatures(db: Db, batch = 500): Promise<number> {
  const keys = signatureKeys();
  let changed = 0;
  let written = false;
  for (;;) {
    const rows = await signatureRecheckBatch(db, keys, batch);
    if (rows.length === 0) {
      // The rows written lost their stored Template record (is_signed, signed_by): written again.
      if (written) await fillRecordJson(db);
      return changed;
    }
    written = true;
    const updates = rows.map((r) => {
      const by = signedBy(r.raw);
      if (by !== r.signed_by) changed++;
      return { pk: r.pk, signed_by: by };
    });
    await writeSignatures(db, updates, keys);
    await new Promise((r) => setImmediate(r));
  }
}
