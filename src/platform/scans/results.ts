// Findings across a team's scans (GET /v1/scans/results), finding history across runs
// (GET /v1/scans/vulns/history) and importing a nuclei JSON-lines file as an uploaded scan.
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { countByStatus, countResultsWhere, getResult as getResultRow, resultsPage } from './store.ts';
import { logHistoryOfHash } from './log-store.ts';
import { pageEnvelope, parseSort } from '../shared/paging.ts';
import type { ResultEvent } from './findings.ts';
import { resultWhere } from './result-filter.ts';

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
  vuln_status?: string;
  labels?: string;
  is_regression?: boolean;
  /** Only these findings (bulk operations on a selection). */
  vuln_ids?: string[];
  sort_asc?: string;
  sort_desc?: string;
}

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const SORTABLE: Record<string, string> = {
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
  severity: 'sev_rank',
  template_id: 'r.template_id',
  host: 'r.host',
  target: 'r.host',
  scan_id: 'r.scan_id',
  vuln_status: 'r.vuln_status',
};

export interface ResultRow {
  id: number;
  scan_id: string;
  agent_id?: string | null;
  vuln_status?: string;
  labels?: string[];
  is_regression?: boolean;
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

/** A filter of the team's findings as SQL over scan_results r: the list, bulk status changes and deletes share it. */
export interface ResultsFilter {
  whereSql: string;
  params: unknown[];
  /** The filter is only these statuses (see ResultWhere). */
  onlyStatuses?: string[];
}

/** The list's query as the one findings filter (result-filter.ts): comma lists become lists. */
export function resultsFilter(teamId: string, q: ResultsQuery): ResultsFilter {
  const ports = list(q.port).map((p) => {
    const n = Number(p);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw badRequest(`port "${p}" is not a port number`, 'port');
    return n;
  });
  const { sql, params, onlyStatuses } = resultWhere(
    teamId,
    {
      ids: q.vuln_ids,
      severity: list(q.severity),
      vuln_status: q.vuln_status,
      labels: list(q.labels),
      is_regression: q.is_regression,
      search: q.search,
      host: list(q.host),
      domain: list(q.domain),
      port: ports,
      template: list(q.templates),
      category: list(q.tags),
      time: q.time,
    },
    q.scan_id,
    'vuln_ids',
  );
  return { whereSql: sql, params, onlyStatuses };
}

/**
 * The results list as its JSON text, each finding's event spliced in as PostgreSQL's text of it: a page of
 * 1,000 findings is about 1 MB of events, which `pg` would otherwise parse and the answer serialize again
 * (most of the request's Node CPU). `serializeFields` writes a finding without its event (the route's
 * schema serializer for ResultListFields), so every other field is written as the schema says.
 */
export async function listResultsJson(
  ctx: AppContext,
  teamId: string,
  q: ResultsQuery,
  serializeFields: (item: ReturnType<typeof itemFields>) => string,
): Promise<string> {
  const { rows, total, offset, limit } = await resultsListPage<RawResultRow>(ctx, teamId, q, RAW_COLUMNS);
  const items = rows.map((r) => {
    const fields = serializeFields(
      itemFields(r, {
        description: r.info_description,
        impact: r.info_impact,
        remediation: r.info_remediation,
        reference: r.info_reference,
      }),
    );
    // fields is an object with vuln_id and the other required fields, so never "{}": its closing brace
    // gives way to the event.
    return `${fields.slice(0, -1)},"event":[${r.event_text}]}`;
  });
  const { data: _data, ...envelope } = pageEnvelope(items, total, offset, limit);
  const head = JSON.stringify({ ...envelope, stats: { total } });
  return `${head.slice(0, -1)},"data":[${items.join(',')}]}`;
}

async function resultsListPage<T>(ctx: AppContext, teamId: string, q: ResultsQuery, columns: string) {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const { whereSql, params, onlyStatuses } = resultsFilter(teamId, q);
  const order = parseSort(q.sort_asc, q.sort_desc, SORTABLE);
  const orderSql = [
    ...order.map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`),
    'r.created_at DESC',
    'r.id DESC',
  ].join(', ');
  const total = onlyStatuses
    ? await countByStatus(ctx.db, teamId, onlyStatuses)
    : await countResultsWhere(ctx.db, whereSql, params);
  const rows = await resultsPage<T>(ctx.db, whereSql, orderSql, params, limit, offset, columns);
  return { rows, total, offset, limit };
}

/** A finding's columns without its event, which comes as text, and the event's info fields the list shows. */
type RawResultRow = Omit<ResultRow, 'event'> & {
  event_text: string;
  info_description: unknown;
  info_impact: unknown;
  info_remediation: unknown;
  info_reference: unknown;
};
const RAW_COLUMNS = `r.id, r.vuln_hash, r.scan_id, r.agent_id, r.host, r.matched_at, r.template_id, r.template_url,
  r.template_path, r.name, r.severity, r.tags, r.port, r.result_type, r.vuln_status, r.labels, r.is_regression,
  r.created_at, r.updated_at, r.event::text AS event_text, r.event->'info'->'description' AS info_description,
  r.event->'info'->'impact' AS info_impact, r.event->'info'->'remediation' AS info_remediation,
  r.event->'info'->'reference' AS info_reference`;

/** One finding by its vuln_id (GET /v1/scans/results/{vuln_id}): a deep link to a finding on no list page. */
export async function getResult(ctx: AppContext, teamId: string, vulnId: string) {
  // vuln_id is the row's bigint id: anything else cannot name a finding (and must not reach the cast).
  const row = /^[1-9]\d{0,17}$/.test(vulnId) ? await getResultRow<ResultRow>(ctx.db, teamId, vulnId) : undefined;
  if (!row) throw notFound(`finding ${vulnId} not found`, 'vuln_id');
  return listItem(row);
}

/**
 * A finding as the results list gives it: the hosted platform's VulnerabilityResults has `event` as an
 * array of events (the single-finding and changelog answers keep it an object, as theirs do); a stored
 * finding is one event.
 */
export function listItem(r: ResultRow) {
  return { ...resultItem(r), event: [r.event] };
}

export function resultItem(r: ResultRow) {
  return { ...itemFields(r, (r.event.info ?? {}) as Record<string, unknown>), event: r.event };
}

/** A finding's fields but its event: from its row and its event's info (description, impact, ...). */
function itemFields(r: Omit<ResultRow, 'event'>, info: Record<string, unknown>) {
  return {
    vuln_id: String(r.id),
    vuln_hash: r.vuln_hash,
    scan_id: r.scan_id,
    // The agent that found it (absent for workers): a mirrored scan has one copy per agent.
    ...(r.agent_id ? { agent_id: r.agent_id } : {}),
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
    labels: r.labels ?? [],
    is_regression: r.is_regression ?? false,
    description: (info.description as string | undefined) ?? undefined,
    impact: (info.impact as string | undefined) ?? undefined,
    remediation: (info.remediation as string | undefined) ?? undefined,
    reference: (info.reference as string[] | undefined) ?? undefined,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
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
