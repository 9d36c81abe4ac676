// Table scan_logs, read: the log export's filters as a WHERE clause and keyset batches; a finding's history.
import type { Db } from '../../db/connection.ts';

export interface LogFilter {
  run?: number;
  host?: string;
  template?: string;
  matched?: boolean;
  /** Only records at or after this time. */
  since?: Date;
  search?: string;
  error?: string;
  level: 'error' | 'info' | 'all_logs';
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

function whereOf(scanId: string, f: LogFilter): { sql: string; params: unknown[] } {
  const where = ['scan_id = $1'];
  const params: unknown[] = [scanId];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    where.push(cond(`$${params.length}`));
  };
  if (f.run !== undefined) add((n) => `run = ${n}`, f.run);
  if (f.host) add((n) => `target ILIKE ${n}`, like(f.host));
  if (f.template) add((n) => `template_id ILIKE ${n}`, like(f.template));
  if (f.matched !== undefined) add((n) => `matched = ${n}`, f.matched);
  if (f.since) add((n) => `created_at >= ${n}`, f.since);
  if (f.error) add((n) => `error ILIKE ${n}`, like(f.error));
  if (f.search) add((n) => `(target ILIKE ${n} OR template_id ILIKE ${n} OR error ILIKE ${n})`, like(f.search));
  if (f.level === 'error') where.push(`error IS NOT NULL AND error <> ''`);
  if (f.level === 'info') where.push(`(error IS NULL OR error = '')`);
  return { sql: where.join(' AND '), params };
}

export interface LogRow {
  id: number;
  target: string;
  template_id: string;
  matched: boolean;
  created_at: Date;
  error: string | null;
  severity: string | null;
  event: string | null;
  vuln_hash: string | null;
  agent_id?: string | null;
}

/** Up to `batch` records matching the filter with id above `afterId`, in id order. */
export async function logsAfter(
  db: Db,
  scanId: string,
  f: LogFilter,
  afterId: number,
  batch: number,
): Promise<LogRow[]> {
  const w = whereOf(scanId, f);
  const { rows } = await db.query<LogRow>(
    `SELECT id, target, template_id, matched, created_at, error, severity, event, vuln_hash, agent_id FROM scan_logs
     WHERE ${w.sql} AND id > $${w.params.length + 1} ORDER BY id LIMIT $${w.params.length + 2}`,
    [...w.params, afterId, batch],
  );
  return rows;
}

export interface HistoryRow {
  severity: string | null;
  target: string;
  template_id: string;
  matched: boolean;
  created_at: Date;
  vuln_hash: string | null;
  event: string | null;
  total: number;
}

/** The team's log records of the same scan, target and template as the hash's, across runs, newest first (total: all of them). */
export async function logHistoryOfHash(db: Db, teamId: string, hash: string, limit: number): Promise<HistoryRow[]> {
  const { rows } = await db.query<HistoryRow>(
    `WITH pairs AS (
       SELECT DISTINCT scan_id, target, template_id FROM scan_logs WHERE team_id = $1 AND vuln_hash = $2
     )
     SELECT l.severity, l.target, l.template_id, l.matched, l.created_at, l.vuln_hash, l.event,
            count(*) OVER ()::int AS total
     FROM scan_logs l JOIN pairs p USING (scan_id, target, template_id)
     WHERE l.team_id = $1
     ORDER BY l.created_at DESC, l.id DESC
     LIMIT $3`,
    [teamId, hash, limit],
  );
  return rows;
}

/** The (target, template) pairs a scan has log records for, each once. */
export async function loggedPairs(db: Db, scanId: string): Promise<{ target: string; template_id: string }[]> {
  const { rows } = await db.query<{ target: string; template_id: string }>(
    'SELECT DISTINCT target, template_id FROM scan_logs WHERE scan_id = $1',
    [scanId],
  );
  return rows;
}
