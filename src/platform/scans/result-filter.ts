// The findings filter of the export endpoints (POST /v1/scans/{scan_id}/export, POST /v1/scans/results/export):
// the hosted platform's body fields turned into a WHERE over scan_results aliased r. Values travel only as
// parameters; an unknown severity, status, time range or a bad date is a 400 naming the field.
import { badRequest } from '../shared/errors.ts';

export interface ResultFilterBody {
  ids?: string[];
  vuln_status?: string;
  severity?: string[];
  host?: string[];
  domain?: string[];
  port?: number[];
  template?: string[];
  search?: string;
  category?: string[];
  is_internal?: boolean;
  scan_ids?: string[];
  time?: string;
  start_date?: string;
  end_date?: string;
}

export interface ResultWhere {
  sql: string;
  params: unknown[];
}

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'unknown'];
/** Statuses a finding can have (the triage ones and the states scans set). */
export const VULN_STATUSES = [
  'open',
  'false_positive',
  'fixed',
  'duplicate',
  'fix_in_progress',
  'accepted_risk',
  'triaged',
  'regression',
];
const TIMES: Record<string, number> = {
  last_day: 1,
  last_week: 7,
  last_month: 30,
  last_3_months: 90,
  last_6_months: 180,
  last_12_months: 365,
};
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The WHERE for a team's findings, narrowed to one scan when `scanId` is given, then by the body. */
export function resultWhere(teamId: string, f: ResultFilterBody, scanId?: string): ResultWhere {
  const where = ['r.team_id = $1'];
  const params: unknown[] = [teamId];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    where.push(cond(`$${params.length}`));
  };
  if (scanId) add((n) => `r.scan_id = ${n}`, scanId);
  if (f.scan_ids?.length) add((n) => `r.scan_id = ANY(${n}::text[])`, f.scan_ids);
  if (f.ids?.length) {
    for (const id of f.ids)
      if (!/^[1-9]\d{0,17}$/.test(id)) throw badRequest(`ids: "${id}" is not a finding id`, 'ids');
    add((n) => `r.id = ANY(${n}::bigint[])`, f.ids);
  }
  if (f.vuln_status) {
    const list = f.vuln_status
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean);
    for (const s of list)
      if (!VULN_STATUSES.includes(s))
        throw badRequest(`unknown vuln_status "${s}"; use ${VULN_STATUSES.join(', ')}`, 'vuln_status');
    if (list.length) add((n) => `r.vuln_status = ANY(${n}::text[])`, list);
  }
  const sev = (f.severity ?? []).map((s) => s.toLowerCase());
  for (const s of sev)
    if (!SEVERITIES.includes(s)) throw badRequest(`unknown severity "${s}"; use ${SEVERITIES.join(', ')}`, 'severity');
  if (sev.length) add((n) => `r.severity = ANY(${n}::text[])`, sev);
  if (f.host?.length) add((n) => `(r.host = ANY(${n}::text[]) OR r.matched_at = ANY(${n}::text[]))`, f.host);
  if (f.domain?.length) {
    const conds = f.domain.map((d) => {
      const name = d.toLowerCase();
      params.push(like(`://${name}`), like(`.${name}`), name);
      const [a, b, c] = [params.length - 2, params.length - 1, params.length];
      return `(r.host ILIKE $${a} OR r.host ILIKE $${b} OR lower(r.host) = $${c} OR lower(r.host) LIKE $${c} || ':%')`;
    });
    where.push(`(${conds.join(' OR ')})`);
  }
  if (f.port?.length) add((n) => `r.port = ANY(${n}::int[])`, f.port);
  if (f.template?.length)
    add((n) => `(r.template_id = ANY(${n}::text[]) OR r.template_path = ANY(${n}::text[]))`, f.template);
  if (f.category?.length)
    add(
      (n) => `r.tags && ${n}::text[]`,
      f.category.map((c) => c.toLowerCase()),
    );
  if (f.search)
    add(
      (n) => `(r.template_id ILIKE ${n} OR r.name ILIKE ${n} OR r.host ILIKE ${n} OR r.matched_at ILIKE ${n})`,
      like(f.search),
    );
  if (f.is_internal !== undefined)
    add((n) => `r.scan_id IN (SELECT s.id FROM scans s WHERE s.team_id = $1 AND s.is_internal = ${n})`, f.is_internal);
  if (f.time && f.time !== 'all_time') {
    const days = TIMES[f.time];
    if (!days) throw badRequest(`time must be one of ${Object.keys(TIMES).join(', ')}, all_time`, 'time');
    add((n) => `r.created_at >= now() - make_interval(days => ${n})`, days);
  }
  for (const [field, op, shift] of [
    ['start_date', '>=', ''],
    ['end_date', '<', " + interval '1 day'"],
  ] as const) {
    const v = f[field];
    if (!v) continue;
    if (!DATE.test(v) || Number.isNaN(Date.parse(v)))
      throw badRequest(`${field} "${v}" is not a date (YYYY-MM-DD)`, field);
    add((n) => `r.created_at ${op} ${n}::date${shift}`, v);
  }
  return { sql: where.join(' AND '), params };
}
