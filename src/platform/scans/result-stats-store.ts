// The overview's figures over a team's findings, each one grouped query. Findings are counted once per
// vuln_hash (the same bug seen by several scans or runs is one finding), and by default only those still
// to act on (open, triaged, fix in progress; a regression is an open finding).
import type { Db } from '../../db/connection.ts';

export interface StatsScope {
  teamId: string;
  /** Statuses counted; undefined = every status. */
  statuses?: string[];
  scanId?: string;
}

const scopeSql = (s: StatsScope, params: unknown[]): string => {
  params.push(s.teamId);
  const where = [`team_id = $${params.length}`];
  if (s.statuses) {
    params.push(s.statuses);
    where.push(`vuln_status = ANY($${params.length}::text[])`);
  }
  if (s.scanId) {
    params.push(s.scanId);
    where.push(`scan_id = $${params.length}`);
  }
  return where.join(' AND ');
};

const SEVERITY_RANK = `CASE severity WHEN 'critical' THEN 5 WHEN 'high' THEN 4 WHEN 'medium' THEN 3 WHEN 'low' THEN 2 WHEN 'info' THEN 1 ELSE 0 END`;

/** Findings by severity (distinct vuln_hash; a hash's most severe current severity). */
export async function severityCounts(db: Db, s: StatsScope): Promise<Record<string, number>> {
  const params: unknown[] = [];
  const { rows } = await db.query<{ severity: string; n: number }>(
    `SELECT severity, count(*)::int AS n FROM (
       SELECT DISTINCT ON (vuln_hash) severity FROM scan_results WHERE ${scopeSql(s, params)}
       ORDER BY vuln_hash, ${SEVERITY_RANK} DESC
     ) f GROUP BY severity`,
    params,
  );
  return Object.fromEntries(rows.map((r) => [r.severity, r.n]));
}

/** New findings per UTC day (first seen), and findings marked fixed per day, over the last `days` days. */
export async function perDay(
  db: Db,
  s: StatsScope,
  days: number,
): Promise<{ day: string; new: number; fixed: number }[]> {
  const params: unknown[] = [];
  const scope = scopeSql({ ...s, statuses: undefined }, params);
  params.push(days);
  const d = `$${params.length}`;
  const { rows } = await db.query<{ day: string; new: number; fixed: number }>(
    `WITH days AS (
       SELECT to_char(g, 'YYYY-MM-DD') AS day FROM generate_series(
         date_trunc('day', now() AT TIME ZONE 'UTC') - make_interval(days => ${d}::int - 1),
         date_trunc('day', now() AT TIME ZONE 'UTC'), interval '1 day') g
     ),
     firsts AS (
       SELECT vuln_hash, min(created_at) AS at FROM scan_results WHERE ${scope} GROUP BY vuln_hash
     ),
     news AS (
       SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM firsts
       WHERE at >= now() - make_interval(days => ${d}::int) GROUP BY 1
     ),
     fixes AS (
       SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(DISTINCT vuln_hash)::int AS n
       FROM scan_results WHERE ${scope} AND vuln_status = 'fixed' AND updated_at >= now() - make_interval(days => ${d}::int)
       GROUP BY 1
     )
     SELECT days.day, COALESCE(news.n, 0) AS new, COALESCE(fixes.n, 0) AS fixed
     FROM days LEFT JOIN news USING (day) LEFT JOIN fixes USING (day) ORDER BY days.day`,
    params,
  );
  return rows;
}

/** The hosts with the most findings. */
export async function topHosts(db: Db, s: StatsScope, limit: number): Promise<{ host: string; count: number }[]> {
  const params: unknown[] = [];
  const scope = scopeSql(s, params);
  params.push(limit);
  const { rows } = await db.query<{ host: string; count: number }>(
    `SELECT host, count(DISTINCT vuln_hash)::int AS count FROM scan_results WHERE ${scope}
     GROUP BY host ORDER BY count DESC, host LIMIT $${params.length}`,
    params,
  );
  return rows;
}

/** The templates with the most findings, with their name and severity. */
export async function topTemplates(
  db: Db,
  s: StatsScope,
  limit: number,
): Promise<{ template_id: string; name: string; severity: string; count: number }[]> {
  const params: unknown[] = [];
  const scope = scopeSql(s, params);
  params.push(limit);
  const { rows } = await db.query<{ template_id: string; name: string; severity: string; count: number }>(
    `SELECT template_id, COALESCE(max(name), template_id) AS name,
            (array_agg(severity ORDER BY ${SEVERITY_RANK} DESC))[1] AS severity,
            count(DISTINCT vuln_hash)::int AS count
     FROM scan_results WHERE ${scope}
     GROUP BY template_id ORDER BY count DESC, template_id LIMIT $${params.length}`,
    params,
  );
  return rows;
}
