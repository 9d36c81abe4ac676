// Findings across a team's scans (GET /v1/scans/results), finding history across runs
// (GET /v1/scans/vulns/history) and importing a nuclei JSON-lines file as an uploaded scan.
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { countResultsWhere, getResult as getResultRow, resultsPage } from './store.ts';
import { logHistoryOfHash } from './log-store.ts';
import { pageEnvelope, parseSort } from '../shared/paging.ts';
import type { ResultEvent } from './findings.ts';

export interface ResultsQuery {
  scan_id?: string;
  offset?: number;
  limit?: number;
  severity?: string;
  search?: string;
  host?: string;
  domain?: string;
  port?: string;
  templates?: string;
  tags?: string;
  time?: string;
  sort_asc?: string;
  sort_desc?: string;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;
const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical', 'unknown'];
const TIMES: Record<string, number> = {
  last_day: 1,
  last_week: 7,
  last_month: 30,
  last_3_months: 90,
  last_6_months: 180,
  last_12_months: 365,
};

const SORTABLE: Record<string, string> = {
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
  severity: 'sev_rank',
  template_id: 'r.template_id',
  host: 'r.host',
  target: 'r.host',
  scan_id: 'r.scan_id',
};

export interface ResultRow {
  id: number;
  scan_id: string;
  vuln_status?: string;
  vuln_hash: string;
  template_id: string;
  template_url: string | null;
  template_path: string | null;
  host: string;
  matched_at: string;
  port: number | null;
  severity: string;
  name: string | null;
  tags: string[];
  result_type: string | null;
  event: ResultEvent;
  created_at: Date;
  updated_at: Date;
}

export async function listResults(ctx: AppContext, teamId: string, q: ResultsQuery) {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const where = ['r.team_id = $1'];
  const params: unknown[] = [teamId];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    where.push(cond(`$${params.length}`));
  };
  if (q.scan_id) add((n) => `r.scan_id = ${n}`, q.scan_id);
  const sev = list(q.severity).map((s) => s.toLowerCase());
  for (const s of sev)
    if (!SEVERITIES.includes(s)) throw badRequest(`unknown severity "${s}"; use ${SEVERITIES.join(', ')}`, 'severity');
  if (sev.length) add((n) => `r.severity = ANY(${n}::text[])`, sev);
  if (q.search)
    add(
      (n) => `(r.template_id ILIKE ${n} OR r.name ILIKE ${n} OR r.host ILIKE ${n} OR r.matched_at ILIKE ${n})`,
      like(q.search),
    );
  const hosts = list(q.host);
  if (hosts.length) add((n) => `(r.host = ANY(${n}::text[]) OR r.matched_at = ANY(${n}::text[]))`, hosts);
  const domains = list(q.domain).map((d) => d.toLowerCase());
  if (domains.length) {
    const conds = domains.map((d) => {
      params.push(like(`://${d}`), like(`.${d}`), d);
      const a = params.length - 2,
        b = params.length - 1,
        c = params.length;
      // host is a URL or a bare name; match the name itself or any subdomain
      return `(r.host ILIKE $${a} OR r.host ILIKE $${b} OR lower(r.host) = $${c} OR lower(r.host) LIKE $${c} || ':%')`;
    });
    where.push(`(${conds.join(' OR ')})`);
  }
  const ports = list(q.port).map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw badRequest(`port "${p}" is not a port number`, 'port');
    return n;
  });
  if (ports.length) add((n) => `r.port = ANY(${n}::int[])`, ports);
  const templates = list(q.templates);
  if (templates.length)
    add((n) => `(r.template_id = ANY(${n}::text[]) OR r.template_path = ANY(${n}::text[]))`, templates);
  const tags = list(q.tags).map((t) => t.toLowerCase());
  if (tags.length) add((n) => `r.tags && ${n}::text[]`, tags);
  if (q.time) {
    const days = TIMES[q.time];
    if (!days) throw badRequest(`time must be one of ${Object.keys(TIMES).join(', ')}`, 'time');
    add((n) => `r.created_at >= now() - make_interval(days => ${n})`, days);
  }
  const order = parseSort(q.sort_asc, q.sort_desc, SORTABLE);
  const orderSql = [
    ...order.map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`),
    'r.created_at DESC',
    'r.id DESC',
  ].join(', ');
  const whereSql = where.join(' AND ');
  const total = await countResultsWhere(ctx.db, whereSql, params);
  const rows = await resultsPage<ResultRow>(ctx.db, whereSql, orderSql, params, limit, offset);
  const data = rows.map(resultItem);
  return { ...pageEnvelope(data, total, offset, limit), stats: { total } };
}

/** One finding by its vuln_id (GET /v1/scans/results/{vuln_id}): a deep link to a finding on no list page. */
export async function getResult(ctx: AppContext, teamId: string, vulnId: string) {
  // vuln_id is the row's bigint id: anything else cannot name a finding (and must not reach the cast).
  const row = /^[1-9]\d{0,17}$/.test(vulnId) ? await getResultRow<ResultRow>(ctx.db, teamId, vulnId) : undefined;
  if (!row) throw notFound(`finding ${vulnId} not found`, 'vuln_id');
  return resultItem(row);
}

export function resultItem(r: ResultRow) {
  const info = (r.event.info ?? {}) as Record<string, unknown>;
  return {
    vuln_id: String(r.id),
    vuln_hash: r.vuln_hash,
    scan_id: r.scan_id,
    target: r.host,
    matched_at: r.matched_at,
    template_id: r.template_id,
    template_url: r.template_url ?? undefined,
    template_path: r.template_path ?? undefined,
    template_name: r.name ?? undefined,
    severity: r.severity,
    tags: r.tags,
    port: r.port ?? undefined,
    result_type: r.result_type ?? 'http',
    matcher_status: true,
    vuln_status: r.vuln_status ?? 'open',
    description: (info.description as string | undefined) ?? undefined,
    impact: (info.impact as string | undefined) ?? undefined,
    remediation: (info.remediation as string | undefined) ?? undefined,
    reference: (info.reference as string[] | undefined) ?? undefined,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    event: r.event,
  };
}

interface HistoryEntry {
  severity: string;
  target: string;
  template_id: string;
  matched: boolean;
  timestamp: string;
  vuln_hash: string;
  event: string;
}

/** For each hash: the scan-log records of the same scan, target and template across runs, newest first. */
export async function vulnHistory(ctx: AppContext, teamId: string, hashes: string[], limit: number) {
  const out: Record<string, { history_count: number; history: HistoryEntry[] }> = {};
  for (const hash of hashes) {
    const rows = await logHistoryOfHash(ctx.db, teamId, hash, limit);
    out[hash] = {
      history_count: rows[0]?.total ?? 0,
      history: rows.map((r) => ({
        severity: r.severity ?? '',
        target: r.target,
        template_id: r.template_id,
        matched: r.matched,
        timestamp: new Date(r.created_at).toISOString(),
        vuln_hash: r.vuln_hash ?? '',
        event: r.event ?? (r.matched ? 'matched' : 'not_matched'),
      })),
    };
  }
  return out;
}

/** Imports nuclei JSON-lines results as an `uploaded` scan; a broken line is a 400 naming its number. */
