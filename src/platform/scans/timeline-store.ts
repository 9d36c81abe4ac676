// SQL of a vulnerability's timeline (GET /v2/vulnerability/{id}/timeline): the intelligence record, the
// catalogue templates that detect it, and the team's findings of those templates.
import type { Db } from '../../db/connection.ts';

/** The CVE id of an intelligence record named by its CVE id (any case) or doc_id. */
export async function intelCveId(db: Db, id: string): Promise<string | undefined> {
  const { rows } = await db.query<{ cve_id: string }>(
    'SELECT cve_id FROM intel_vulns WHERE cve_id = upper($1) OR doc_id = $1 LIMIT 1',
    [id],
  );
  return rows[0]?.cve_id;
}

export interface TemplateDates {
  template_id: string;
  created_at: Date;
  updated_at: Date;
}

/** Public templates that detect the vulnerability: by their id or the CVE ids they name. */
export async function templatesFor(db: Db, id: string, cveId: string | undefined): Promise<TemplateDates[]> {
  const { rows } = await db.query<TemplateDates>(
    `SELECT template_id, created_at, updated_at FROM templates
     WHERE team_id IS NULL AND (lower(template_id) = lower($1) OR ($2::text IS NOT NULL AND $2 = ANY(cve_ids)))
     ORDER BY created_at LIMIT 20`,
    [id, cveId ?? null],
  );
  return rows;
}

export interface FindingState {
  id: string;
  matched_at: string;
  vuln_status: string;
  severity: string;
  original_severity: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The team's findings of those templates (at most 1000, oldest first). */
export async function findingsOf(db: Db, teamId: string, templateIds: string[]): Promise<FindingState[]> {
  const { rows } = await db.query<FindingState>(
    `SELECT id::text AS id, matched_at, vuln_status, severity, original_severity, created_at, updated_at
     FROM scan_results WHERE team_id = $1 AND lower(template_id) = ANY($2::text[])
     ORDER BY created_at, id LIMIT 1000`,
    [teamId, templateIds.map((t) => t.toLowerCase())],
  );
  return rows;
}
