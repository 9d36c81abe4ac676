// Table scan_slots: the leases of a scan run's chunk slots (the rules are in slots.ts).
import type { Db } from '../../db/connection.ts';

export interface SlotClaim {
  scanId: string;
  slot: number;
  run: number;
  idx: number;
  holder: string;
  worker: string;
  leaseSeconds: number;
  burstSeconds: number;
}

/**
 * Takes slot `c.slot` when it is free (never used, released, expired, held for an older run, or held by an
 * earlier attempt of this same chunk). Answers the ms to wait before sending (the slot's previous chunk let
 * go less than a burst ago), or undefined when the slot is held. The upsert's WHERE is evaluated on the
 * locked row, so two workers never win the same slot.
 */
export async function takeSlot(db: Db, c: SlotClaim): Promise<number | undefined> {
  const { rows } = await db.query<{ wait_ms: number }>(
    `INSERT INTO scan_slots AS s (scan_id, slot, run, chunk_idx, holder, worker, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::float8))
     ON CONFLICT (scan_id, slot) DO UPDATE SET run = EXCLUDED.run, chunk_idx = EXCLUDED.chunk_idx,
       holder = EXCLUDED.holder, worker = EXCLUDED.worker, expires_at = EXCLUDED.expires_at,
       released_at = CASE WHEN s.holder IS NULL THEN s.released_at ELSE now() END
     WHERE s.holder IS NULL OR s.expires_at < now() OR s.run <> EXCLUDED.run OR s.chunk_idx = EXCLUDED.chunk_idx
     RETURNING COALESCE(GREATEST(0, EXTRACT(EPOCH FROM (released_at + make_interval(secs => $8::float8) - now())) * 1000), 0)::float8 AS wait_ms`,
    [c.scanId, c.slot, c.run, c.idx, c.holder, c.worker, c.leaseSeconds, c.burstSeconds],
  );
  return rows[0] ? Number(rows[0].wait_ms) : undefined;
}

/** Extends a lease by `leaseSeconds`; false when the holder no longer holds it. */
export async function extendLease(
  db: Db,
  scanId: string,
  slot: number,
  holder: string,
  leaseSeconds: number,
): Promise<boolean> {
  const { rows } = await db.query(
    `UPDATE scan_slots SET expires_at = now() + make_interval(secs => $4::float8)
     WHERE scan_id = $1 AND slot = $2 AND holder = $3 RETURNING slot`,
    [scanId, slot, holder, leaseSeconds],
  );
  return rows.length > 0;
}

/** Lets go of a slot the holder still holds. */
export async function freeSlot(db: Db, scanId: string, slot: number, holder: string): Promise<void> {
  await db.query(
    `UPDATE scan_slots SET holder = NULL, chunk_idx = NULL, released_at = now(), expires_at = now()
     WHERE scan_id = $1 AND slot = $2 AND holder = $3`,
    [scanId, slot, holder],
  );
}
