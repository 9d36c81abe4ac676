// SQL of vuln_score rescoring (the findings to score) and remediation retests. Findings (scan_results) are
// the scans area's: this store reads them; their writes (severities, states) are in scans/store.ts.
import type { Db } from '../../db/connection.ts';

export interface ScoringRow {
  id: string;
  template_id: string;
  template_path: string | null;
  tags: string[];
  host: string;
  severity: string;
  original_severity: string | null;
}

/** Findings of a scan to score: all of them, or (without rules) only those a rule changed before. */
export async function findingsToScore(db: Db, scanId: string, onlyRescored: boolean): Promise<ScoringRow[]> {
  const { rows } = await db.query<ScoringRow>(
    `SELECT id::text AS id, template_id, template_path, tags, host, severity, original_severity FROM scan_results
     WHERE scan_id = $1 ${onlyRescored ? 'AND original_severity IS NOT NULL' : ''}`,
    [scanId],
  );
  return rows;
}

export interface RetestCandidate {
  scan_id: string;
  team_id: string;
  config_id: string;
  config: string;
  completed_at: Date;
  /** Severities of the scan's findings that are not fixed. */
  severities: string[];
}

/** Finished scans under a remediation config (named, or global unless disabled) with findings not fixed. */
export async function retestCandidates(db: Db, limit = 200): Promise<RetestCandidate[]> {
  const { rows } = await db.query<RetestCandidate>(
    `SELECT s.id AS scan_id, s.team_id, c.id AS config_id, c.config, s.completed_at,
       ARRAY(SELECT DISTINCT r.severity FROM scan_results r WHERE r.scan_id = s.id AND r.vuln_status <> 'fixed') AS severities
     FROM scans s JOIN configs c ON c.team_id = s.team_id AND c.config_type = 'remediation'
       AND (COALESCE(s.request->'scan_config_ids', '[]'::jsonb) @> to_jsonb(c.id)
            OR (c.is_global AND NOT COALESCE((s.request->>'disable_global_scan_config')::boolean, false)))
     WHERE s.status = 'finished' AND s.completed_at IS NOT NULL
       AND EXISTS (SELECT 1 FROM scan_results r WHERE r.scan_id = s.id AND r.vuln_status <> 'fixed')
     ORDER BY s.completed_at LIMIT $1`,
    [limit],
  );
  return rows;
}

/** Claims a retest of a scan: true for exactly one caller per interval (the last one began before `cutoff`). */
export async function claimRetest(db: Db, scanId: string, configId: string, now: Date, cutoff: Date): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO remediation_runs (scan_id, config_id, last_retest_at) VALUES ($1, $2, $3)
     ON CONFLICT (scan_id) DO UPDATE SET last_retest_at = EXCLUDED.last_retest_at, config_id = EXCLUDED.config_id
     WHERE remediation_runs.last_retest_at <= $4`,
    [scanId, configId, now, cutoff],
  );
  return res.rowCount > 0;
}
