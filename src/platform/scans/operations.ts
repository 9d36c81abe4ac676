// Scan operations of the hosted platform's API beyond create / stop / rescan: rename (PATCH
// /v1/scans/{id}), bulk delete (DELETE /v1/scans), changing a scan's settings for its next runs (PATCH
// /v1/scans/{id}/config), the addresses scans come from (GET /v1/scans/scan_ips) and the run history
// (GET /v1/scans/history, /v1/scans/{id}/history).
import os from 'node:os';
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { pageEnvelope } from '../shared/paging.ts';
import { checkConfigRefs, resolveScanConfigs } from '../configs/resolve.ts';
import { checkProxy, elapsed, plan, type CreateScanBody } from './service.ts';
import { getScan } from './store.ts';
import * as store from './history-store.ts';

export async function renameScan(ctx: AppContext, teamId: string, id: string, name: string): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('name is empty', 'name');
  if (!(await store.renameScan(ctx.db, teamId, id, trimmed))) throw notFound(`scan ${id} not found`, 'scan_id');
}

/** Deletes the team's scans of `ids` with their results and logs; an id not the team's is a 404, nothing deleted. */
export async function deleteScans(ctx: AppContext, teamId: string, ids: string[]): Promise<number> {
  const wanted = [...new Set(ids)];
  if (!wanted.length) throw badRequest('scan_ids is empty', 'scan_ids');
  for (const id of wanted) if (!(await getScan(ctx.db, teamId, id))) throw notFound(`scan ${id} not found`, 'scan_ids');
  return store.deleteScans(ctx.db, teamId, wanted);
}

/** The fields of PATCH /v1/scans/{id}/config (ScanConfigUpdateItem). */
export interface ScanConfigUpdate {
  targets?: string[];
  assets_lists?: string[];
  templates?: string[];
  early_templates?: string[];
  scan_config_ids?: string[];
  report_config_ids?: string[];
  alerting_config_ids?: string[];
  enumeration_ids?: { id: string }[];
  socks5_proxy?: string;
  agent_id?: string;
  agent_tags?: string[];
  agent_networks?: string[];
  agent_behavior?: 'distribute' | 'mirror';
  scan_all_assets?: boolean;
  asset_filters?: Record<string, unknown>;
}

// Update field -> the stored request's field (the create request's names).
const LISTS: [keyof ScanConfigUpdate, keyof CreateScanBody][] = [
  ['targets', 'targets'],
  ['assets_lists', 'assets'],
  ['templates', 'templates'],
  ['early_templates', 'early_templates'],
  ['scan_config_ids', 'scan_config_ids'],
  ['report_config_ids', 'reporting_config_ids'],
  ['alerting_config_ids', 'alerting_config_ids'],
  ['agent_tags', 'agent_tags'],
  ['agent_networks', 'agent_networks'],
];

/**
 * Changes the settings a scan's next runs use: lists are appended to (update_type append, the default) or
 * replaced. The changed request is planned like a new scan first, so a change that leaves no targets or
 * templates, a denied target or an unknown config is a 400 and nothing is stored.
 */
export async function updateScanConfig(
  ctx: AppContext,
  teamId: string,
  id: string,
  body: ScanConfigUpdate,
  mode: 'append' | 'replace' = 'append',
): Promise<void> {
  const scan = await getScan(ctx.db, teamId, id);
  if (!scan) throw notFound(`scan ${id} not found`, 'scan_id');
  if (scan.status === 'uploaded') throw badRequest(`scan ${id} was imported; it has no settings to change`, 'scan_id');
  const req = { ...(scan.request as CreateScanBody) } as Record<string, unknown>;
  for (const [from, to] of LISTS) {
    const v = body[from] as string[] | undefined;
    if (v === undefined) continue;
    const before = (req[to] as string[] | undefined) ?? [];
    req[to] = mode === 'replace' ? [...v] : [...new Set([...before, ...v])];
  }
  if (body.enumeration_ids !== undefined) {
    const before = (req.enumeration_ids as { id: string }[] | undefined) ?? [];
    const ids = mode === 'replace' ? body.enumeration_ids : [...before, ...body.enumeration_ids];
    req.enumeration_ids = [...new Map(ids.map((e) => [e.id, { id: e.id }])).values()];
  }
  for (const k of ['socks5_proxy', 'agent_id', 'agent_behavior', 'scan_all_assets', 'asset_filters'] as const)
    if (body[k] !== undefined) req[k] = body[k];
  checkProxy(req.socks5_proxy as string | undefined);
  const next = req as CreateScanBody;
  const configs = await resolveScanConfigs(ctx.db, teamId, next);
  checkConfigRefs(configs, next);
  await plan(ctx, teamId, next, configs, id);
  await store.setRequest(ctx.db, teamId, id, next);
}

/**
 * The addresses scans leave from: VIGIL_SCAN_IPS (comma-separated, for a deployment behind NAT), else
 * this host's non-loopback interface addresses.
 */
export function scanIps(env: NodeJS.ProcessEnv = process.env): { ips: { ip: string }[] } {
  const configured = (env.VIGIL_SCAN_IPS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ips = configured.length
    ? configured
    : Object.values(os.networkInterfaces())
        .flatMap((list) => list ?? [])
        .filter((a) => !a.internal)
        .map((a) => a.address);
  return { ips: [...new Set(ips)].map((ip) => ({ ip })) };
}

export interface HistoryQuery {
  offset?: number;
  limit?: number;
  start_date?: string;
  end_date?: string;
  time_range?: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The window of a history query, from its time_range or dates (time passed in). */
export function historyWindow(q: HistoryQuery, now = new Date()): { from?: Date; to?: Date } {
  const month = (back: number) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  const out: { from?: Date; to?: Date } = {};
  switch (q.time_range) {
    case undefined:
    case 'all_time':
      break;
    case 'current_month':
      out.from = month(0);
      break;
    case 'last_month':
      out.from = month(1);
      out.to = month(0);
      break;
    case 'last_3_months':
    case 'last_6_months':
    case 'last_12_months': {
      const n = Number(q.time_range.split('_')[1]);
      out.from = new Date(now);
      out.from.setUTCMonth(out.from.getUTCMonth() - n);
      break;
    }
    default:
      throw badRequest(`unknown time_range "${q.time_range}"`, 'time_range');
  }
  for (const [field, key, shift] of [
    ['start_date', 'from', 0],
    ['end_date', 'to', 86_400_000],
  ] as const) {
    const v = q[field];
    if (!v) continue;
    if (!DATE.test(v) || Number.isNaN(Date.parse(v)))
      throw badRequest(`${field} "${v}" is not a date (YYYY-MM-DD)`, field);
    out[key] = new Date(Date.parse(v) + shift);
  }
  return out;
}

export async function history(ctx: AppContext, teamId: string, q: HistoryQuery, scanId?: string) {
  if (scanId && !(await getScan(ctx.db, teamId, scanId))) throw notFound(`scan ${scanId} not found`, 'scanId');
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 10;
  const window = historyWindow(q);
  const { rows, total, scans, completed } = await store.runHistory(ctx.db, {
    teamId,
    scanId,
    ...window,
    offset,
    limit,
  });
  const data = rows.map((r) => {
    const current = r.run === r.rescan_count;
    const status = current ? r.scan_status : r.chunks && r.chunks_done === r.chunks ? 'finished' : 'failed';
    const severity = { critical: 0, high: 0, medium: 0, low: 0, info: 0, unknown: 0, ...(r.severity ?? {}) };
    return {
      scan_id: r.scan_id,
      name: r.name,
      status,
      time: r.started_at ? new Date(r.started_at).toISOString() : '',
      scan_time: elapsed(r.started_at, r.finished_at),
      severity,
      total_target: r.targets,
      total_templates: r.total_template,
      total_request: r.targets * r.total_template,
      completed_request: r.completed,
      total_result: r.results,
      ...(current && r.failure_reason ? { error_details: r.failure_reason } : {}),
      rescan_count: r.run,
    };
  });
  return {
    ...pageEnvelope(data, total, offset, limit),
    total_scan_run: total,
    total_unique_scan_run: scans,
    total_completed_request: completed,
  };
}
