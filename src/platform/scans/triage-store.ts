// SQL of working findings: status and label changes (each with its changelog rows, in the same statement),
// deletes, changelogs, and retests. The filters come from results.ts's resultsFilter (alias r).
import type { Db } from '../../db/connection.ts';
import type { ResultRow } from './results.ts';

/** Statuses only a person sets; a scan run that no longer sees the finding leaves them alone. */
export const PERSON_STATUSES = ['false_positive', 'accepted_risk', 'duplicate'];

export interface Actor {
  email: string;
  /** api (an API key), platform (the console), scan, retest */
  source: string;
}

/**
 * Sets the status of every finding the filter selects that has another one, with one changelog row each.
 * A person's status ends a regression (is_regression false) unless it reopens the finding.
 */
export async function setStatus(
  db: Db,
  f: { whereSql: string; params: unknown[] },
  status: string,
  actor: Actor,
): Promise<number> {
  const n = f.params.length;
  const res = await db.query(
    `WITH old AS (
       SELECT r.id, r.team_id, r.vuln_status FROM scan_results r WHERE ${f.whereSql} AND r.vuln_status <> $${n + 1} FOR UPDATE
     ), upd AS (
       UPDATE scan_results s SET vuln_status = $${n + 1}, updated_at = now(),
         is_regression = CASE WHEN $${n + 1} = 'open' THEN s.is_regression ELSE false END
       FROM old WHERE s.id = old.id RETURNING s.id, s.team_id, old.vuln_status AS prev
     )
     INSERT INTO scan_result_changes (team_id, result_id, event_type, change_event, actor, source)
     SELECT team_id, id, 'vuln_status', jsonb_build_array(jsonb_build_object('name', 'vuln_status', 'from', prev, 'to', $${n + 1}::text)),
       $${n + 2}, $${n + 3} FROM upd`,
    [...f.params, status, actor.email, actor.source],
  );
  return res.rowCount;
}

/** Replaces the labels of the team's findings by id, with a changelog row for each that changed. */
export async function setLabels(
  db: Db,
  teamId: string,
  ids: string[],
  labels: string[],
  actor: Actor,
): Promise<number> {
  const res = await db.query(
    `WITH old AS (
       SELECT r.id, r.labels FROM scan_results r
       WHERE r.team_id = $1 AND r.id = ANY($2::bigint[]) AND r.labels IS DISTINCT FROM $3::text[] FOR UPDATE
     ), upd AS (
       UPDATE scan_results s SET labels = $3::text[], updated_at = now() FROM old WHERE s.id = old.id
       RETURNING s.id, old.labels AS prev
     )
     INSERT INTO scan_result_changes (team_id, result_id, event_type, change_event, actor, source)
     SELECT $1, id, 'labels', jsonb_build_array(jsonb_build_object('name', 'labels', 'from', to_jsonb(prev), 'to', to_jsonb($3::text[]))),
       $4, $5 FROM upd`,
    [teamId, ids, labels, actor.email, actor.source],
  );
  return res.rowCount;
}

/** How many of the ids are the team's findings. */
export async function countOwned(db: Db, teamId: string, ids: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM scan_results WHERE team_id = $1 AND id = ANY($2::bigint[])',
    [teamId, ids],
  );
  return rows[0]?.n ?? 0;
}

/** Deletes the findings a filter selects; returns the scans they belonged to (their counts change). */
export async function deleteFindings(db: Db, f: { whereSql: string; params: unknown[] }): Promise<string[]> {
  const { rows } = await db.query<{ scan_id: string }>(
    `WITH gone AS (DELETE FROM scan_results r WHERE ${f.whereSql} RETURNING r.scan_id) SELECT DISTINCT scan_id FROM gone`,
    f.params,
  );
  return rows.map((r) => r.scan_id);
}

export interface ChangeRow extends ResultRow {
  change_id: string;
  event_type: string;
  change_event: { name: string; from: unknown; to: unknown }[];
  actor: string;
  source: string;
  changed_at: Date;
}

/** Changelog rows of the team (or of one finding), each with its finding, newest first unless asked. */
export async function changelogPage(
  db: Db,
  q: {
    teamId: string;
    resultId?: string;
    eventTypes: string[];
    days?: number;
    asc: boolean;
    limit: number;
    offset: number;
  },
): Promise<{ rows: ChangeRow[]; total: number }> {
  const where = ['c.team_id = $1'];
  const params: unknown[] = [q.teamId];
  if (q.resultId) {
    params.push(q.resultId);
    where.push(`c.result_id = $${params.length}::bigint`);
  }
  if (q.eventTypes.length) {
    params.push(q.eventTypes);
    where.push(`c.event_type = ANY($${params.length}::text[])`);
  }
  if (q.days) {
    params.push(q.days);
    where.push(`c.created_at >= now() - make_interval(days => $${params.length})`);
  }
  const whereSql = where.join(' AND ');
  const { rows: count } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM scan_result_changes c WHERE ${whereSql}`,
    params,
  );
  const dir = q.asc ? 'ASC' : 'DESC';
  const { rows } = await db.query<ChangeRow>(
    `SELECT r.*, c.id::text AS change_id, c.event_type, c.change_event, c.actor, c.source, c.created_at AS changed_at
       FROM scan_result_changes c JOIN scan_results r ON r.id = c.result_id
      WHERE ${whereSql} ORDER BY c.created_at ${dir}, c.id ${dir}
      LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, q.limit, q.offset],
  );
  return { rows, total: count[0]?.n ?? 0 };
}

// ---- retests ----

export interface RetestRow {
  id: string;
  result_id: string;
  retest_scan_id: string;
  status: string;
  requested_by: string;
  created_at: Date;
  finished_at: Date | null;
  scan_status: string;
}

export async function insertRetest(
  db: Db,
  r: { teamId: string; resultId: string; scanId: string; requestedBy: string },
): Promise<void> {
  await db.query(
    'INSERT INTO scan_retests (team_id, result_id, retest_scan_id, requested_by) VALUES ($1, $2::bigint, $3, $4)',
    [r.teamId, r.resultId, r.scanId, r.requestedBy],
  );
}

/** The latest retest of a finding, with the state of its scan. */
export async function latestRetest(db: Db, teamId: string, resultId: string): Promise<RetestRow | undefined> {
  const { rows } = await db.query<RetestRow>(
    `SELECT t.id::text AS id, t.result_id::text AS result_id, t.retest_scan_id, t.status, t.requested_by, t.created_at,
            t.finished_at, s.status AS scan_status
       FROM scan_retests t JOIN scans s ON s.id = t.retest_scan_id
      WHERE t.team_id = $1 AND t.result_id = $2::bigint ORDER BY t.id DESC LIMIT 1`,
    [teamId, resultId],
  );
  return rows[0];
}

/**
 * Settles the retest run by a scan once that scan has finished (or failed): did its template match the
 * target again? Not matched: the finding is fixed. Matched: it stays as it is, or reopens as a regression
 * if it was fixed. One changelog row with the retest's outcome (and the status change), by the requester.
 * Claims the row first, so a retried chunk settles nothing twice. Returns the outcome, if it settled.
 */
export async function settleRetest(db: Db, scanId: string): Promise<string | undefined> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{
      id: string;
      result_id: string;
      team_id: string;
      requested_by: string;
      status: string;
    }>(
      `UPDATE scan_retests t SET finished_at = now(),
         status = CASE WHEN s.status = 'finished' THEN
           CASE WHEN EXISTS (SELECT 1 FROM scan_results x JOIN scan_results o ON o.id = t.result_id
                             WHERE x.scan_id = t.retest_scan_id AND x.template_id = o.template_id)
                THEN 'matched' ELSE 'not_matched' END
           ELSE 'failed' END
       FROM scans s
       WHERE t.retest_scan_id = $1 AND t.status = 'running' AND s.id = t.retest_scan_id AND s.status IN ('finished', 'failed')
       RETURNING t.id::text AS id, t.result_id::text AS result_id, t.team_id, t.requested_by, t.status`,
      [scanId],
    );
    const r = rows[0];
    if (!r) return undefined;
    const { rows: cur } = await tx.query<{ vuln_status: string }>(
      'SELECT vuln_status FROM scan_results WHERE id = $1::bigint FOR UPDATE',
      [r.result_id],
    );
    const prev = cur[0]?.vuln_status;
    if (prev === undefined) return r.status;
    const next = r.status === 'not_matched' ? 'fixed' : r.status === 'matched' && prev === 'fixed' ? 'open' : prev;
    const changes: { name: string; from: unknown; to: unknown }[] = [{ name: 'retest', from: null, to: r.status }];
    if (next !== prev) {
      changes.push({ name: 'vuln_status', from: prev, to: next });
      await tx.query(
        `UPDATE scan_results SET vuln_status = $2, is_regression = $3, updated_at = now() WHERE id = $1::bigint`,
        [r.result_id, next, next === 'open'],
      );
      if (next === 'open') changes.push({ name: 'is_regression', from: false, to: true });
    }
    await tx.query(
      `INSERT INTO scan_result_changes (team_id, result_id, event_type, change_event, actor, source)
       VALUES ($1, $2::bigint, 'retest', $3::jsonb, $4, 'retest')`,
      [r.team_id, r.result_id, JSON.stringify(changes), r.requested_by],
    );
    return r.status;
  });
}
