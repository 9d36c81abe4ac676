// SQL of the team's audit log (team_audit_log): rows are only ever added. The table's trigger refuses
// UPDATE, DELETE and TRUNCATE, so nothing here (or anywhere) can rewrite history.
import type { Db } from '../../db/connection.ts';

export interface AuditEntry {
  teamId: string;
  userId: number | null;
  email: string;
  action: string;
  method: string;
  path: string;
  status: number;
  ip: string;
  source: string;
}

export interface AuditRow {
  created_at: Date;
  email: string;
  action: string;
  status: number;
  method: string;
  ip: string;
  path: string;
  source: string;
}

export async function appendAudit(db: Db, e: AuditEntry): Promise<void> {
  await db.query(
    `INSERT INTO team_audit_log (team_id, user_id, email, action, method, path, status, ip, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [e.teamId, e.userId, e.email, e.action, e.method, e.path, e.status, e.ip, e.source],
  );
}

/** A page of the team's entries matching the conditions (SQL over team_audit_log a, $1 = team), newest first. */
export async function auditPage(
  db: Db,
  conds: string[],
  params: unknown[],
  limit: number,
  offset: number,
): Promise<AuditRow[]> {
  const where = ['a.team_id = $1', ...conds].join(' AND ');
  const { rows } = await db.query<AuditRow>(
    `SELECT a.created_at, a.email, a.action, a.status, a.method, a.ip, a.path, a.source FROM team_audit_log a
      WHERE ${where} ORDER BY a.created_at DESC, a.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, limit, offset],
  );
  return rows;
}
