// SQL of scan operations beyond the lifecycle: rename, bulk delete, changing a scan's stored request, and
// the run history (one row per scan run, from its chunks, log records and findings).
import type { Db } from '../../db/connection.ts';
import { RUN_RECORDS } from './log-store.ts';

export async function renameScan(db: Db, teamId: string, id: string, name: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE scans SET name = $3, updated_at = now() WHERE team_id = $1 AND id = $2', [
    teamId,
    id,
    name,
  ]);
  return rowCount > 0;
}

export async function deleteScans(db: Db, teamId: string, ids: string[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM scans WHERE team_id = $1 AND id = ANY($2::text[])', [teamId, ids]);
  return rowCount;
}

export async function setRequest(db: Db, teamId: string, id: string, request: object): Promise<void> {
  await db.query('UPDATE scans SET request = $3::jsonb, updated_at = now() WHERE team_id = $1 AND id = $2', [
    teamId,
    id,
    JSON.stringify(request),
  ]);
}

export interface HistoryFilter {
  teamId: string;
  scanId?: string;
  /** Runs that started at or after / before these instants. */
  from?: Date;
  to?: Date;
  offset: number;
  limit: number;
}

export interface RunRow {
  scan_id: string;
  run: number;
  name: string;
  scan_status: string;
  rescan_count: number;
  failure_reason: string | null;
  total_template: number;
  started_at: Date | null;
  finished_at: Date | null;
  chunks: number;
  chunks_done: number;
  targets: number;
  completed: number;
  results: number;
  severity: Record<string, number> | null;
}

// A scan's runs: one per (scan, run) of its chunks; a scan without chunks (imported, or scheduled and not
// yet run) is its one current run.
const RUNS = `
  SELECT s.id AS scan_id, c.run, min(c.started_at) AS started_at,
    CASE WHEN bool_and(c.finished_at IS NOT NULL) THEN max(c.finished_at) END AS finished_at,
    count(*)::int AS chunks, (count(*) FILTER (WHERE c.status = 'done'))::int AS chunks_done,
    sum(jsonb_array_length(c.targets))::int AS targets
  FROM scans s JOIN scan_chunks c ON c.scan_id = s.id
  WHERE s.team_id = $1 AND ($2::text IS NULL OR s.id = $2)
  GROUP BY s.id, c.run
  UNION ALL
  SELECT s.id, s.rescan_count, s.started_at, s.completed_at, 0, 0, s.total_target
  FROM scans s
  WHERE s.team_id = $1 AND ($2::text IS NULL OR s.id = $2)
    AND NOT EXISTS (SELECT 1 FROM scan_chunks c WHERE c.scan_id = s.id)`;

const WINDOW = `($3::timestamptz IS NULL OR COALESCE(runs.started_at, s.created_at) >= $3)
  AND ($4::timestamptz IS NULL OR COALESCE(runs.started_at, s.created_at) < $4)`;

export async function runHistory(
  db: Db,
  f: HistoryFilter,
): Promise<{ rows: RunRow[]; total: number; scans: number; completed: number }> {
  const params = [f.teamId, f.scanId ?? null, f.from ?? null, f.to ?? null];
  const totals = await db.query<{ total: number; scans: number; completed: number }>(
    `WITH runs AS (${RUNS})
     SELECT count(*)::int AS total, count(DISTINCT runs.scan_id)::int AS scans,
       COALESCE(sum(${RUN_RECORDS('runs.scan_id', 'runs.run')}), 0)::int
         AS completed
     FROM runs JOIN scans s ON s.id = runs.scan_id WHERE ${WINDOW}`,
    params,
  );
  const { rows } = await db.query<RunRow>(
    `WITH runs AS (${RUNS})
     SELECT runs.*, s.name, s.status AS scan_status, s.rescan_count, s.failure_reason, s.total_template,
       ${RUN_RECORDS('runs.scan_id', 'runs.run')}::int AS completed,
       found.results, found.severity
     FROM runs JOIN scans s ON s.id = runs.scan_id
     CROSS JOIN LATERAL (
       SELECT COALESCE(sum(n), 0)::int AS results, jsonb_object_agg(severity, n) AS severity FROM (
         SELECT r.severity, count(*)::int AS n FROM scan_results r
         WHERE r.scan_id = runs.scan_id AND r.first_run <= runs.run AND r.last_run >= runs.run
         GROUP BY r.severity) x
     ) found
     WHERE ${WINDOW}
     ORDER BY COALESCE(runs.started_at, s.created_at) DESC, runs.scan_id, runs.run DESC
     LIMIT $5 OFFSET $6`,
    [...params, f.limit, f.offset],
  );
  const t = totals.rows[0]!;
  return { rows, total: t.total, scans: t.scans, completed: t.completed };
}
