// SQL of the workers table: worker processes say they run (and whether they can run headless templates)
// when they start, renew that while they run, and take it back when they stop.
import type { Db } from '../../db/connection.ts';

/** A worker row not renewed for this long belongs to a process that died. */
export const WORKER_STALE_SECONDS = 60;

export async function registerWorker(db: Db, id: string, headless: boolean): Promise<void> {
  await db.query(
    `INSERT INTO workers (id, headless) VALUES ($1, $2)
     ON CONFLICT (id) DO UPDATE SET headless = EXCLUDED.headless, seen_at = now()`,
    [id, headless],
  );
}

/** Renews the worker's row (adding it again if something removed it). */
export async function touchWorker(db: Db, id: string, headless: boolean): Promise<void> {
  const res = await db.query('UPDATE workers SET seen_at = now() WHERE id = $1', [id]);
  if (res.rowCount === 0) await registerWorker(db, id, headless);
  // Rows of workers that died long ago go; a minute of silence only makes them not count.
  await db.query(`DELETE FROM workers WHERE seen_at < now() - interval '1 day'`);
}

export async function removeWorker(db: Db, id: string): Promise<void> {
  await db.query('DELETE FROM workers WHERE id = $1', [id]);
}

/** True when a running worker found Chromium at its start. */
export async function headlessWorkerRunning(db: Db): Promise<boolean> {
  const { rows } = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM workers WHERE headless
        AND seen_at > now() - make_interval(secs => $1)) AS yes`,
    [WORKER_STALE_SECONDS],
  );
  return Boolean(rows[0]?.yes);
}
