// Generic statements any area may need, kept here so that SQL stays in stores and src/db/ (the
// vigil/sql-in-stores rule): a transaction-scoped advisory lock and the health check's round trip.
import type { Db } from './connection.ts';

/** Takes a transaction-scoped advisory lock on `key` (released at commit or rollback); waits while another holds it. */
export async function advisoryXactLock(tx: Db, key: number): Promise<void> {
  await tx.query('SELECT pg_advisory_xact_lock($1)', [key]);
}

/** One round trip to the database; throws when it does not answer. */
export async function ping(db: Db): Promise<void> {
  await db.query('SELECT 1');
}
