// SQL of the team's scan settings: exclusions every scan applies (scan_excludes) and severity overrides
// applied to findings (scan_severity_overrides, and the findings' severity in scan_results).
import type { Db } from '../../db/connection.ts';

export interface ExcludeRow {
  id: string;
  team_id: string;
  exclude_type: string;
  value: string;
  scan_id: string | null;
  enumeration_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export async function listExcludes(db: Db, teamId: string): Promise<ExcludeRow[]> {
  const { rows } = await db.query<ExcludeRow>('SELECT * FROM scan_excludes WHERE team_id = $1 ORDER BY id', [teamId]);
  return rows;
}

/** The rules a scan applies: the team's global ones and those scoped to this scan. */
export async function excludesForScan(db: Db, teamId: string, scanId: string | undefined): Promise<ExcludeRow[]> {
  const { rows } = await db.query<ExcludeRow>(
    `SELECT * FROM scan_excludes WHERE team_id = $1 AND exclude_type IN ('scan_target', 'template')
       AND (scan_id IS NULL AND enumeration_id IS NULL OR scan_id = $2) ORDER BY id`,
    [teamId, scanId ?? null],
  );
  return rows;
}

/** Adds rules; one already there is kept as it is. Returns how many are new. */
export async function insertExcludes(
  db: Db,
  teamId: string,
  rows: { type: string; value: string; scanId: string | null; enumerationId: string | null }[],
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO scan_excludes (team_id, exclude_type, value, scan_id, enumeration_id)
     SELECT $1, x.t, x.v, x.s, x.e FROM jsonb_to_recordset($2::jsonb) AS x(t text, v text, s text, e text)
     ON CONFLICT DO NOTHING`,
    [teamId, JSON.stringify(rows.map((r) => ({ t: r.type, v: r.value, s: r.scanId, e: r.enumerationId })))],
  );
  return rowCount;
}

/** The ids of `ids` that are the team's rules. */
export async function teamExcludeIds(db: Db, teamId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM scan_excludes WHERE team_id = $1 AND id = ANY($2::bigint[])',
    [teamId, ids],
  );
  return rows.map((r) => r.id);
}

export async function deleteExcludes(db: Db, teamId: string, ids: string[]): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM scan_excludes WHERE team_id = $1 AND id = ANY($2::bigint[])', [
    teamId,
    ids,
  ]);
  return rowCount;
}

/** Of `scanIds`, those that are the team's scans. */
export async function teamScanIds(db: Db, teamId: string, scanIds: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM scans WHERE team_id = $1 AND id = ANY($2::text[])', [
    teamId,
    scanIds,
  ]);
  return rows.map((r) => r.id);
}

// ---- severity overrides ----

export interface OverrideRow {
  id: string;
  team_id: string;
  template_id: string;
  vuln_id: string | null;
  original_severity: string;
  custom_severity: string;
  created_at: Date;
  updated_at: Date;
}

export async function listOverrides(db: Db, teamId: string): Promise<OverrideRow[]> {
  const { rows } = await db.query<OverrideRow>(
    `SELECT id::text AS id, team_id, template_id, vuln_id::text AS vuln_id, original_severity, custom_severity, created_at, updated_at
     FROM scan_severity_overrides WHERE team_id = $1 ORDER BY scan_severity_overrides.id`,
    [teamId],
  );
  return rows;
}

export async function getOverride(db: Db, teamId: string, id: string): Promise<OverrideRow | undefined> {
  const { rows } = await db.query<OverrideRow>(
    `SELECT id::text AS id, team_id, template_id, vuln_id::text AS vuln_id, original_severity, custom_severity, created_at, updated_at
     FROM scan_severity_overrides WHERE team_id = $1 AND id = $2::bigint`,
    [teamId, id],
  );
  return rows[0];
}

/** A new override, or the one already there for the same template and finding; returns its id. */
export async function upsertOverride(
  db: Db,
  o: { teamId: string; templateId: string; vulnId: string | null; original: string; custom: string },
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO scan_severity_overrides (team_id, template_id, vuln_id, original_severity, custom_severity)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (team_id, template_id, COALESCE(vuln_id, 0))
       DO UPDATE SET custom_severity = EXCLUDED.custom_severity, updated_at = now()
     RETURNING id::text AS id`,
    [o.teamId, o.templateId, o.vulnId, o.original, o.custom],
  );
  return rows[0]!.id;
}

export async function updateOverride(
  db: Db,
  teamId: string,
  id: string,
  o: { templateId: string; vulnId: string | null; original: string; custom: string },
): Promise<void> {
  await db.query(
    `UPDATE scan_severity_overrides SET template_id = $3, vuln_id = $4, original_severity = $5, custom_severity = $6,
       updated_at = now() WHERE team_id = $1 AND id = $2`,
    [teamId, id, o.templateId, o.vulnId, o.original, o.custom],
  );
}

/** Deletes the team's overrides of `ids`; returns the deleted ones' template ids. */
export async function deleteOverrides(db: Db, teamId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ template_id: string }>(
    'DELETE FROM scan_severity_overrides WHERE team_id = $1 AND id = ANY($2::bigint[]) RETURNING template_id',
    [teamId, ids],
  );
  return rows.map((r) => r.template_id);
}

export async function teamOverrideIds(db: Db, teamId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM scan_severity_overrides WHERE team_id = $1 AND id = ANY($2::bigint[])',
    [teamId, ids],
  );
  return rows.map((r) => r.id);
}

/** The severity a template's findings have before any override: a finding's, else the catalogue's. */
export async function engineSeverity(db: Db, teamId: string, templateId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ s: string }>(
    `SELECT COALESCE(original_severity, severity) AS s FROM scan_results WHERE team_id = $1 AND template_id = $2 LIMIT 1`,
    [teamId, templateId],
  );
  if (rows[0]) return rows[0].s;
  const t = await db.query<{ s: string }>(
    `SELECT severity AS s FROM templates WHERE template_id = $2 AND (team_id IS NULL OR team_id = $1) LIMIT 1`,
    [teamId, templateId],
  );
  return t.rows[0]?.s;
}

/** A finding of the team by id: its template and engine severity. */
export async function findingForOverride(
  db: Db,
  teamId: string,
  vulnId: string,
): Promise<{ template_id: string; severity: string } | undefined> {
  const { rows } = await db.query<{ template_id: string; severity: string }>(
    `SELECT template_id, COALESCE(original_severity, severity) AS severity FROM scan_results
     WHERE team_id = $1 AND id = $2::bigint`,
    [teamId, vulnId],
  );
  return rows[0];
}

/**
 * Sets the severity of the team's findings of `templateIds` from the overrides now stored: the engine's
 * severity back first, then the template-wide override, then per-finding ones. Returns the scans touched
 * (their severity counts need a recount).
 */
export async function reapplyOverrides(db: Db, teamId: string, templateIds: string[]): Promise<string[]> {
  const touched = new Set<string>();
  const collect = (rows: { scan_id: string }[]) => rows.forEach((r) => touched.add(r.scan_id));
  collect(
    (
      await db.query<{ scan_id: string }>(
        `UPDATE scan_results SET severity = original_severity, original_severity = NULL, updated_at = now()
         WHERE team_id = $1 AND template_id = ANY($2::text[]) AND original_severity IS NOT NULL RETURNING scan_id`,
        [teamId, templateIds],
      )
    ).rows,
  );
  collect(
    (
      await db.query<{ scan_id: string }>(
        `UPDATE scan_results r SET original_severity = r.severity, severity = o.custom_severity, updated_at = now()
         FROM scan_severity_overrides o
         WHERE r.team_id = $1 AND r.template_id = ANY($2::text[]) AND o.team_id = $1 AND o.template_id = r.template_id
           AND o.vuln_id IS NULL RETURNING r.scan_id`,
        [teamId, templateIds],
      )
    ).rows,
  );
  collect(
    (
      await db.query<{ scan_id: string }>(
        `UPDATE scan_results r SET original_severity = COALESCE(r.original_severity, r.severity),
           severity = o.custom_severity, updated_at = now()
         FROM scan_severity_overrides o
         WHERE r.team_id = $1 AND r.template_id = ANY($2::text[]) AND o.team_id = $1 AND o.vuln_id = r.id
         RETURNING r.scan_id`,
        [teamId, templateIds],
      )
    ).rows,
  );
  return [...touched];
}
