// SQL of exports (scan_exports, their stored parts scan_export_parts): scan logs and findings; the findings
// read in id order for them. (The key download links are derived from is in shared/platform-values-store.ts.)
import type { Db } from '../../db/connection.ts';
import type { LogFilter, LogFormat } from './logs.ts';

export interface ExportRow {
  id: string;
  team_id: string;
  /** null for a findings export across the team's scans. */
  scan_id: string | null;
  /** 'log' (scan log records) or 'results' (findings). */
  kind: string;
  /** A log export's filter, or a findings export's (ResultFilterBody). */
  params: { filter: LogFilter & { since?: string } & Record<string, unknown> };
  format: LogFormat | string;
  status: string;
  built: boolean;
  error: string | null;
  row_count: number | null;
  created_at: Date;
  expires_at: Date;
  token_hash: string;
}

/** A new export; the team's exports a day past their link's expiry are dropped first, with their stored parts. */
export async function insertExport(
  db: Db,
  e: {
    id: string;
    teamId: string;
    scanId: string | null;
    kind?: 'log' | 'results';
    tokenHash: string;
    filter: LogFilter | object;
    format: string;
    status: string;
    ttlSeconds: number;
  },
): Promise<void> {
  await db.query(`DELETE FROM scan_exports WHERE team_id = $1 AND expires_at < now() - interval '1 day'`, [e.teamId]);
  await db.query(
    `INSERT INTO scan_exports (id, team_id, scan_id, token_hash, params, format, status, expires_at, kind)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, now() + make_interval(secs => $8), $9)`,
    [
      e.id,
      e.teamId,
      e.scanId,
      e.tokenHash,
      JSON.stringify({ filter: e.filter }),
      e.format,
      e.status,
      e.ttlSeconds,
      e.kind ?? 'log',
    ],
  );
}

export async function getExport(db: Db, id: string): Promise<ExportRow | undefined> {
  const { rows } = await db.query<ExportRow>('SELECT * FROM scan_exports WHERE id = $1', [id]);
  return rows[0];
}

export async function getTeamExport(db: Db, id: string, teamId: string): Promise<ExportRow | undefined> {
  const { rows } = await db.query<ExportRow>('SELECT * FROM scan_exports WHERE id = $1 AND team_id = $2', [id, teamId]);
  return rows[0];
}

export async function readyExportByToken(db: Db, tokenHash: string): Promise<ExportRow | undefined> {
  const { rows } = await db.query<ExportRow>(`SELECT * FROM scan_exports WHERE token_hash = $1 AND status = 'ready'`, [
    tokenHash,
  ]);
  return rows[0];
}

/** Marks the export as being built and drops any parts of an earlier attempt. */
export async function startBuild(db: Db, id: string): Promise<void> {
  await db.query(`UPDATE scan_exports SET status = 'building' WHERE id = $1`, [id]);
  await db.query('DELETE FROM scan_export_parts WHERE export_id = $1', [id]);
}

export async function insertPart(db: Db, id: string, seq: number, data: Buffer): Promise<void> {
  await db.query('INSERT INTO scan_export_parts (export_id, seq, data) VALUES ($1, $2, $3)', [id, seq, data]);
}

export async function readPart(db: Db, id: string, seq: number): Promise<Uint8Array | undefined> {
  const { rows } = await db.query<{ data: Uint8Array }>(
    'SELECT data FROM scan_export_parts WHERE export_id = $1 AND seq = $2',
    [id, seq],
  );
  return rows[0]?.data;
}

export async function finishBuild(db: Db, id: string, rowCount: number): Promise<void> {
  await db.query(`UPDATE scan_exports SET status = 'ready', built = true, row_count = $2 WHERE id = $1`, [
    id,
    rowCount,
  ]);
}

export async function failBuild(db: Db, id: string, error: string): Promise<void> {
  await db.query(`UPDATE scan_exports SET status = 'failed', error = $2 WHERE id = $1`, [id, error]);
}

/** Stores a new link's token hash; the link's lifetime starts now. Returns its expiry. */
export async function renewLink(db: Db, id: string, tokenHash: string, ttlSeconds: number): Promise<Date> {
  const { rows } = await db.query<{ expires_at: Date }>(
    `UPDATE scan_exports SET token_hash = $2, expires_at = now() + make_interval(secs => $3) WHERE id = $1 RETURNING expires_at`,
    [id, tokenHash, ttlSeconds],
  );
  return rows[0]!.expires_at;
}

/**
 * The findings matching a WHERE over scan_results aliased r, in id order, `size` rows at a time (keyset on
 * id): memory stays flat however many findings an export holds.
 */
export async function* resultBatches<T extends { id: number | string }>(
  db: Db,
  whereSql: string,
  params: unknown[],
  size = 1000,
): AsyncGenerator<T[]> {
  let after = '0';
  for (;;) {
    const { rows } = await db.query<T>(
      `SELECT r.* FROM scan_results r WHERE ${whereSql} AND r.id > $${params.length + 1}::bigint
       ORDER BY r.id LIMIT $${params.length + 2}`,
      [...params, after, size],
    );
    if (!rows.length) return;
    yield rows;
    if (rows.length < size) return;
    after = String(rows[rows.length - 1]!.id);
  }
}
