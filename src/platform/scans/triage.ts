// Working a team's findings (the hosted platform's /v1/scans/vuln* operations): one finding, status changes
// for ids or for a filter, labels, deletes, and the changelogs of every status, label and retest change.
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { getResult as getResultRow, recountResults } from './store.ts';
import { resultItem, resultsFilter, type ResultRow, type ResultsQuery } from './results.ts';
import { VULN_STATUSES } from './result-filter.ts';
import * as store from './triage-store.ts';

/** How the caller came: an API key ('api') or the console's session ('platform'). */
export type Source = 'api' | 'platform';

const VULN_ID = /^[1-9]\d{0,17}$/;

/** A finding's id from the path: anything but a row id cannot name a finding (and must not reach the cast). */
export function checkVulnId(id: string): string {
  if (!VULN_ID.test(id)) throw notFound(`finding ${id} not found`, 'vuln_id');
  return id;
}

export async function getFinding(ctx: AppContext, teamId: string, vulnId: string) {
  const row = await getResultRow<ResultRow>(ctx.db, teamId, checkVulnId(vulnId));
  if (!row) throw notFound(`finding ${vulnId} not found`, 'vuln_id');
  return resultItem(row);
}

/** The selection of a bulk body: ids, or a filter (scan, severity, host, template, search); never nothing. */
export interface SelectionBody {
  vuln_ids?: string[];
  ids?: string[];
  type?: string;
  scan_id?: string;
  severity?: string[];
  host?: string[];
  template?: string[];
  search?: string;
  vuln_status?: string[] | string;
}

function selection(teamId: string, b: SelectionBody, idsField: 'vuln_ids' | 'ids', withStatus: boolean) {
  const ids = b[idsField];
  const hasFilter =
    b.scan_id !== undefined ||
    (b.severity?.length ?? 0) > 0 ||
    (b.host?.length ?? 0) > 0 ||
    (b.template?.length ?? 0) > 0 ||
    (b.search ?? '') !== '' ||
    (withStatus && Array.isArray(b.vuln_status) && b.vuln_status.length > 0);
  if (ids === undefined && !hasFilter)
    throw badRequest(`give ${idsField} or a filter (scan_id, severity, host, template, search)`, idsField);
  if (ids !== undefined && ids.length === 0) throw badRequest(`${idsField} is empty`, idsField);
  const q: ResultsQuery = {
    scan_id: b.scan_id,
    severity: b.severity?.join(','),
    host: b.host?.join(','),
    templates: b.template?.join(','),
    search: b.search,
    vuln_ids: ids,
    vuln_status: withStatus && Array.isArray(b.vuln_status) ? b.vuln_status.join(',') : undefined,
  };
  return resultsFilter(teamId, q);
}

export async function setStatus(
  ctx: AppContext,
  caller: Caller,
  source: Source,
  b: SelectionBody & { vuln_status: string },
): Promise<number> {
  if (!(VULN_STATUSES as readonly string[]).includes(b.vuln_status))
    throw badRequest(`vuln_status must be one of ${VULN_STATUSES.join(', ')}`, 'vuln_status');
  const f = selection(caller.teamId, b, 'vuln_ids', false);
  return store.setStatus(ctx.db, f, b.vuln_status, { email: caller.email, source });
}

export async function setLabels(
  ctx: AppContext,
  caller: Caller,
  source: Source,
  b: { ids: string[]; labels?: string[] },
): Promise<number> {
  if (b.ids.length === 0) throw badRequest('ids is empty', 'ids');
  b.ids.forEach((id, i) => {
    if (!VULN_ID.test(id)) throw badRequest(`ids[${i}] "${id}" is not a finding id`, 'ids');
  });
  const labels = [...new Set((b.labels ?? []).map((l) => l.trim()).filter(Boolean))].sort();
  // Ids of other teams are the same as ids that do not exist: not found, and nothing changes.
  const ids = [...new Set(b.ids)];
  if ((await store.countOwned(ctx.db, caller.teamId, ids)) !== ids.length)
    throw notFound('some of the findings in ids were not found', 'ids');
  return store.setLabels(ctx.db, caller.teamId, ids, labels, { email: caller.email, source });
}

export async function deleteFindings(ctx: AppContext, caller: Caller, b: SelectionBody): Promise<number> {
  const f = selection(caller.teamId, b, 'ids', true);
  const scans = await store.deleteFindings(ctx.db, f);
  for (const s of scans) await recountResults(ctx.db, s);
  return scans.length;
}

const TIMES: Record<string, number | undefined> = {
  last_day: 1,
  last_week: 7,
  last_month: 30,
  last_3_months: 90,
  last_6_months: 180,
  last_12_months: 365,
  all_time: undefined,
};
const EVENT_TYPES = ['vuln_status', 'labels', 'retest'];

export interface ChangelogQuery {
  time?: string;
  event_type?: string;
  sort_asc?: string;
  sort_desc?: string;
  limit?: number;
  offset?: number;
}

/** Changelogs of one finding or of all the team's findings: the finding as it is now, and what changed. */
export async function changelogs(ctx: AppContext, teamId: string, vulnId: string | undefined, q: ChangelogQuery) {
  if (q.time !== undefined && !(q.time in TIMES))
    throw badRequest(`time must be one of ${Object.keys(TIMES).join(', ')}`, 'time');
  const eventTypes = (q.event_type ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    // The hosted platform's example spells status changes vul_status / vul_status_change.
    .map((s) => (s === 'vul_status' || s === 'vul_status_change' || s === 'vuln_status_change' ? 'vuln_status' : s));
  for (const e of eventTypes)
    if (!EVENT_TYPES.includes(e))
      throw badRequest(`event_type "${e}" is not one of ${EVENT_TYPES.join(', ')}`, 'event_type');
  for (const [param, v] of [
    ['sort_asc', q.sort_asc],
    ['sort_desc', q.sort_desc],
  ] as const)
    if (v && v.split(',').some((s) => s.trim() !== 'created_at'))
      throw badRequest(`${param} can only sort by created_at`, param);
  if (vulnId !== undefined) await getFinding(ctx, teamId, vulnId);
  const { rows, total } = await store.changelogPage(ctx.db, {
    teamId,
    resultId: vulnId,
    eventTypes,
    days: q.time ? TIMES[q.time] : undefined,
    asc: Boolean(q.sort_asc),
    limit: q.limit ?? 100,
    offset: q.offset ?? 0,
  });
  const data = rows.map((r) => {
    const item = resultItem(r);
    return {
      ...item,
      change_id: r.change_id,
      event_type: r.event_type,
      change_event: r.change_event,
      changed_by: r.actor,
      source: r.source,
      created_at: new Date(r.changed_at).toISOString(),
    };
  });
  return { data, total };
}
