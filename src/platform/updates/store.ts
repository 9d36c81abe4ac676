// SQL of the updates area: the record of every update run.
import type { Db } from '../../db/connection.ts';

export interface UpdateRun {
  id: number;
  kind: string;
  source: string;
  status: 'running' | 'done' | 'unchanged' | 'failed';
  version: string | null;
  detail: unknown;
  error: string | null;
  started_at: string;
  finished_at: string | null;
}

export async function startRun(db: Db, kind: string, source: string): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO update_runs (kind, source, status) VALUES ($1, $2, 'running') RETURNING id`,
    [kind, source],
  );
  return Number(rows[0]!.id);
}

export async function finishRun(
  db: Db,
  id: number,
  status: 'done' | 'unchanged' | 'failed',
  fields: { version?: string | null; detail?: unknown; error?: string } = {},
): Promise<void> {
  await db.query(
    `UPDATE update_runs SET status = $2, version = COALESCE($3, version), detail = $4::jsonb, error = $5, finished_at = now() WHERE id = $1`,
    [
      id,
      status,
      fields.version ?? null,
      fields.detail === undefined ? null : JSON.stringify(fields.detail),
      fields.error ?? null,
    ],
  );
}

/** The release tag of the last template release imported in full (to skip downloading it again). */
export async function lastTemplateRelease(db: Db): Promise<string | undefined> {
  const { rows } = await db.query<{ version: string }>(
    `SELECT version FROM update_runs WHERE kind = 'templates' AND status IN ('done', 'unchanged') AND version IS NOT NULL
     ORDER BY started_at DESC, id DESC LIMIT 1`,
  );
  return rows[0]?.version;
}

export async function listRuns(db: Db, limit = 20): Promise<UpdateRun[]> {
  const { rows } = await db.query<UpdateRun>('SELECT * FROM update_runs ORDER BY started_at DESC, id DESC LIMIT $1', [
    limit,
  ]);
  return rows;
}
