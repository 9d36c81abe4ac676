// The one findings filter: the hosted platform's fields turned into a WHERE over scan_results aliased r. The
// export bodies (POST /v1/scans/{scan_id}/export, POST /v1/scans/results/export) give it directly; the
// results list and the bulk status, label and delete operations give it their query (results.ts). Values
// travel only as parameters; an unknown severity, status, time range, a bad port or date is a 400 naming the
// field.
import { badRequest } from '../shared/errors.ts';

export interface ResultFilterBody {
  ids?: string[];
  /** One status, a comma list, or a list. */
  vuln_status?: string | string[];
  labels?: string[];
  is_regression?: boolean;
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
  /** Set when the filter is the team's findings of these statuses and nothing else: counted from the status table. */
  onlyStatuses?: string[];
}

const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'unknown'];
/** The statuses a finding can have (the hosted platform's VulnStatusEnum). */
export const VULN_STATUSES = [
  'open',
  'false_positive',
  'fixed',
  'duplicate',
  'fix_in_progress',
  'accepted_risk',
  'triaged',
] as const;
export type VulnStatus = (typeof VULN_STATUSES)[number];
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

/**
 * The WHERE for a team's findings, narrowed to one scan when `scanId` is given, then by the filter.
 * `idsField` names the ids in errors (the bulk operations call them vuln_ids).
 */
export function resultWhere(teamId: string, f: ResultFilterBody, scanId?: string, idsField = 'ids'): ResultWhere {
  const where = ['r.team_id = $1'];
  const params: unknown[] = [teamId];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    where.push(cond(`$${params.length}`));
  };
  if (scanId) add((n) => `r.scan_id = ${n}`, scanId);
  if (f.scan_ids?.length) add((n) => `r.scan_id = ANY(${n}::text[])`, f.scan_ids);
  if (f.ids?.length) {
    f.ids.forEach((id, i) => {
      if (!/^[1-9]\d{0,17}$/.test(id)) throw badRequest(`${idsField}[${i}] "${id}" is not a finding id`, idsField);
    });
    add((n) => `r.id = ANY(${n}::bigint[])`, f.ids);
  }
  const statuses = (Array.isArray(f.vuln_status) ? f.vuln_status : (f.vuln_status ?? '').split(','))
    .map((x) => x.trim().toLowerCase())
    .filter(Boolean);
  for (const x of statuses)
    if (!(VULN_STATUSES as readonly string[]).includes(x))
      throw badRequest(`unknown vuln_status "${x}"; use ${VULN_STATUSES.join(', ')}`, 'vuln_status');
  // No index of scan_results has vuln_status (a status change must not rewrite them all, 032): the ids of
  // the team's findings with those statuses come from scan_result_statuses, which triggers keep equal to
  // scan_results.vuln_status in every transaction.
  if (statuses.length)
    add(
      (n) =>
        `r.id IN (SELECT st.result_id FROM scan_result_statuses st WHERE st.team_id = $1 AND st.vuln_status = ANY(${n}::text[]))`,
      statuses,
    );
  if (f.labels?.length) add((n) => `r.labels && ${n}::text[]`, f.labels);
  if (f.is_regression !== undefined) add((n) => `r.is_regression = ${n}`, f.is_regression);
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
  for (const p of f.port ?? [])
    if (!Number.isInteger(p) || p < 0 || p > 65535) throw badRequest(`port "${p}" is not a port number`, 'port');
  if (f.port?.length) add((n) => `r.port = ANY(${n}::int[])`, f.port);
  if (f.template?.length)
    add((n) => `(r.template_id = ANY(${n}::text[]) OR r.template_path = ANY(${n}::text[]))`, f.template);
  if (f.category?.length)
    add(
      (n) => `r.tags && ${n}::text[]`,
      f.category.map((c) => c.toLowerCase()),
    );
  // Each field has its own trigram index (031): the planner ORs the four index scans, and a row is a
  // candidate only when one field holds the whole term's trigrams.
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
  const onlyStatuses = statuses.length && where.length === 2 ? statuses : undefined;
  return { sql: where.join(' AND '), params, onlyStatuses };
}
