// Scan rules: what a create request means (targets, exclusions, templates, truncation), the lifecycle
// (stop, rescan, delete) and the list / detail / config views.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, conflict, notFound } from '../shared/errors.ts';
import { checkTarget, expandTargets, isInternalTarget, scopeFilter } from './targets.ts';
import { checkDenied, denyList } from '../shared/deny.ts';
import {
  inlineTemplates,
  resolveAssetTargets,
  resolveStoreTemplates,
  hasStoreSelection,
  enumerationRefs,
} from './sources.ts';
import { startRun } from './dispatch.ts';
import { engineOptionsFor, applyTemplateConfigs } from './apply-configs.ts';
import { checkConfigRefs, configRefs, resolveScanConfigs, type ScanConfigs } from '../configs/resolve.ts';
import * as store from './store.ts';
import { pageEnvelope, parseSort } from '../shared/paging.ts';
import type { ScanTemplate } from './store.ts';
import { schedulesOf, type ScheduleJson } from './schedule-source.ts';
import { scanExclusions, templateExcluded } from './scan-settings.ts';

export interface CreateScanBody {
  targets?: string[];
  templates?: string[];
  assets?: string[];
  early_templates?: string[];
  exclude_targets?: string[];
  exclusions?: string[];
  private_templates?: { name: string; contents: string }[];
  name?: string;
  recommended?: boolean;
  all?: boolean;
  schedule_only?: boolean;
  automatic_scan?: boolean;
  scan_all_assets?: boolean;
  disable_global_alert_config?: boolean;
  disable_global_report_config?: boolean;
  disable_global_scan_config?: boolean;
  alerting_config_ids?: string[];
  scan_config_ids?: string[];
  reporting_config_ids?: string[];
  enumeration_ids?: { id: string }[];
  socks5_proxy?: string;
  agent_id?: string;
  agent_tags?: string[];
  agent_networks?: string[];
  agent_behavior?: 'distribute' | 'mirror';
  asset_filters?: Record<string, unknown>;
}

export const newScanId = () => randomBytes(10).toString('hex');

export function checkProxy(value: string | undefined): void {
  if (!value) return;
  try {
    const u = new URL(value.includes('://') ? value : `socks5://${value}`);
    if (!/^socks5h?:$/.test(u.protocol) || !u.hostname || !u.port) throw new Error('bad');
  } catch {
    throw badRequest(`socks5_proxy "${value}" is not a socks5://host:port address`, 'socks5_proxy');
  }
}

interface Plan {
  targets: string[];
  truncated: number;
  /** The request's own targets that contributed kept targets. */
  directUsed: string[];
  templates: ScanTemplate[];
}

/**
 * Targets and templates of a request, checked; shared by create, rescan and a config change. The team's
 * exclusions (/v1/scans/config/exclude: every scan's, and this scan's when it has an id) cut both.
 */
export async function plan(
  ctx: AppContext,
  teamId: string,
  body: CreateScanBody,
  configs: ScanConfigs,
  scanId?: string,
): Promise<Plan> {
  const direct = body.targets ?? [];
  direct.forEach((t, i) => checkTarget(t, `targets[${i}]`));
  const deny = denyList(ctx.config);
  checkDenied(deny, direct, 'targets');
  const fromAssets = await resolveAssetTargets(ctx.db, teamId, {
    assets: body.assets ?? [],
    enumerationIds: (body.enumeration_ids ?? []).map((e) => e.id),
    scanAllAssets: body.scan_all_assets ?? false,
    assetFilters: body.asset_filters,
  });
  const teamRules = await scanExclusions(ctx, teamId, scanId);
  const keep = scopeFilter([
    ...(body.exclude_targets ?? []).map((value, i) => ({ value, param: `exclude_targets[${i}]` })),
    ...(body.exclusions ?? []).map((value, i) => ({ value, param: `exclusions[${i}]` })),
    ...teamRules.targets.map((value) => ({ value, param: 'exclusions (the team rule for ' + value + ')' })),
  ]);
  // Denied addresses inside ranges are cut like exclusions (arithmetically, before expansion).
  keep.deny = [...(keep.deny ?? []), ...deny.patterns.flatMap((p) => (p.cidr ? [p.cidr] : []))];
  const scoped = Object.assign((t: string) => keep(t) && !deny.reason(t), keep);
  const { targets, truncated, inputsUsed } = expandTargets(
    [...direct, ...fromAssets],
    scoped,
    ctx.config.maxScanTargets,
    ctx.config.maxRangeAddresses,
  );

  const selection = {
    templates: body.templates ?? [],
    earlyTemplates: body.early_templates ?? [],
    recommended: body.recommended ?? false,
    all: body.all ?? false,
  };
  const inline = inlineTemplates(body.private_templates ?? []);
  const stored = hasStoreSelection(selection) ? await resolveStoreTemplates(ctx.db, teamId, selection) : [];
  const seen = new Set<string>();
  const chosen = [...inline, ...stored].filter((t) =>
    seen.has(t.templateId) ? false : (seen.add(t.templateId), true),
  );
  // Template configs add their selection; scan configs' tag and severity filters narrow the whole list.
  const templates = (await applyTemplateConfigs(ctx.db, teamId, configs, chosen)).filter(
    (t) => !templateExcluded(t, teamRules.templates),
  );

  if (targets.length === 0) {
    const hadInput = direct.length + fromAssets.length > 0;
    throw badRequest(
      hadInput
        ? "every target is excluded by exclude_targets / exclusions or the team's exclusions"
        : 'the scan has no targets',
      'targets',
    );
  }
  if (templates.length === 0)
    throw badRequest(
      chosen.length ? "every template is excluded by the team's exclusions" : 'the scan has no templates',
      'templates',
    );
  // Inputs past the maximum are not kept in the stored request: a rescan plans the same targets.
  return { targets, truncated, templates, directUsed: direct.slice(0, Math.min(direct.length, inputsUsed)) };
}

export async function createScan(
  ctx: AppContext,
  caller: Caller,
  body: CreateScanBody,
): Promise<{ id: string; truncated: number; status: string }> {
  checkProxy(body.socks5_proxy);
  // The scan's configs are read and parsed once here, then passed as data.
  const configs = await resolveScanConfigs(ctx.db, caller.teamId, body);
  checkConfigRefs(configs, body);
  const p = await plan(ctx, caller.teamId, body, configs);
  const engineOptions = engineOptionsFor(configs);
  const id = newScanId();
  const status = body.schedule_only ? 'scheduled' : 'queued';
  await ctx.db.transaction(async (tx) => {
    await store.insertScan(tx, {
      id,
      teamId: caller.teamId,
      status,
      createdBy: caller.userId,
      targets: p.targets,
      totalTemplate: p.templates.length,
      name: body.name?.trim() || defaultName(p.targets),
      request: storedRequest(body, p),
      engineOptions: { ...engineOptions },
      isAutomatic: body.automatic_scan ?? false,
      isInternal: p.targets.every(isInternalTarget),
    });
    await store.replaceTemplates(tx, id, p.templates);
  });
  if (!body.schedule_only) await startRun(ctx, id, 0, p.targets);
  return { id, truncated: p.truncated, status };
}

/** The request as stored: targets cut to those that contributed, so 1.5M inputs are never stored whole. */
function storedRequest(body: CreateScanBody, p: Plan): Record<string, unknown> {
  return body.targets ? { ...body, targets: p.directUsed } : { ...body };
}

function defaultName(targets: string[]): string {
  return targets.length === 1 ? targets[0]! : `${targets[0]} and ${targets.length - 1} more`;
}

async function mustGet(ctx: AppContext, teamId: string, id: string): Promise<store.ScanRow> {
  const scan = await store.getScan(ctx.db, teamId, id);
  if (!scan) throw notFound(`scan ${id} not found`, 'scan_id');
  return scan;
}

const ACTIVE = new Set(['queued', 'starting', 'running']);

/** Stops a queued or running scan: it ends as failed with reason "stopped". */
export async function stopScan(ctx: AppContext, teamId: string, id: string): Promise<void> {
  const scan = await mustGet(ctx, teamId, id);
  if (!ACTIVE.has(scan.status))
    throw badRequest(`scan ${id} is ${scan.status}; only a queued or running scan can be stopped`, 'scan_id');
  if (!(await store.failScan(ctx.db, id, 'stopped')))
    throw conflict(`scan ${id} ended before it could be stopped`, 'scan_id');
}

/**
 * Runs a scan again (rescan_count + 1). Templates are resolved again from the stored request so catalogue
 * updates apply; targets are planned again too. A scheduled scan's first run also starts here.
 */
export async function rescan(ctx: AppContext, teamId: string, id: string): Promise<{ id: string; truncated: number }> {
  const scan = await mustGet(ctx, teamId, id);
  if (ACTIVE.has(scan.status))
    throw conflict(`scan ${id} is ${scan.status}; stop it before running it again`, 'scan_id');
  if (scan.status === 'uploaded')
    throw badRequest(`scan ${id} was imported; it has no targets or templates to run`, 'scan_id');
  const body = scan.request as CreateScanBody;
  const p = await plan(ctx, teamId, body, await resolveScanConfigs(ctx.db, teamId, body), id);
  const run = scan.status === 'scheduled' && scan.chunks_total === 0 ? scan.rescan_count : scan.rescan_count + 1;
  await ctx.db.transaction(async (tx) => {
    // Takes the new run only if nobody else started one since the read above (two rescans at once).
    const took = await store.queueRerun(tx, id, {
      targets: p.targets,
      totalTemplate: p.templates.length,
      seenRescanCount: scan.rescan_count,
      run,
    });
    if (!took) throw conflict(`scan ${id} was started by another request`, 'scan_id');
    await store.replaceTemplates(tx, id, p.templates);
  });
  await startRun(ctx, id, run, p.targets);
  return { id, truncated: p.truncated };
}

export async function deleteScan(ctx: AppContext, teamId: string, id: string): Promise<void> {
  await mustGet(ctx, teamId, id);
  // Chunks still queued find no scan and are skipped by the worker.
  await store.deleteScan(ctx.db, teamId, id);
}

// ---- views ----

/** "1h2m3s" style duration, as the reference shows elapsed times. */
export function elapsed(from: Date | null, to: Date | null): string {
  if (!from) return '0s';
  const ms = Math.max(0, (to ?? new Date()).getTime() - from.getTime());
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${rest}s`;
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

export function listItem(r: store.ListRow, schedule?: ScheduleJson) {
  const sev = { critical: 0, high: 0, medium: 0, low: 0, info: 0, unknown: 0, ...(r.severity ?? {}) };
  const templates = r.req_templates ?? [];
  return {
    scan_id: r.id,
    name: r.name,
    status: r.status,
    failure_reason: r.failure_reason ?? '',
    progress: r.progress,
    scan_time_elapsed: elapsed(r.started_at, r.completed_at),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
    completed_at: iso(r.completed_at),
    total_target: r.total_target,
    total_template: r.total_template,
    total_scan: r.total_scan,
    total_result: r.total_result,
    rescan_count: r.rescan_count,
    is_rescan: r.rescan_count > 0,
    is_oss: r.is_oss,
    is_cloud: !r.is_oss,
    is_automatic: r.is_automatic,
    is_internal: r.is_internal,
    severity: sev,
    asset_ids: r.req_assets ?? [],
    public_templates: templates.filter((t) => /[/.]/.test(t)),
    template_ids: templates.filter((t) => !/[/.]/.test(t)),
    template_urls: [] as string[],
    scan_config_ids: r.req_scan_config_ids ?? [],
    report_config_ids: r.req_report_config_ids ?? [],
    agent_id: r.req_agent_id ?? undefined,
    agent_tags: r.req_agent_tags ?? undefined,
    agent_networks: r.req_agent_networks ?? undefined,
    agent_behavior: (r.req_agent_behavior as 'distribute' | 'mirror' | null) ?? 'distribute',
    ...(schedule ? { schedule: scheduleItem(schedule) } : {}),
  };
}

/** The spec's Schedule record from the schedule the monitor area gives. */
function scheduleItem(s: ScheduleJson) {
  return {
    scan_frequency: s.scan_frequency,
    scan_id: s.scan_id,
    schedule_last_run: iso(s.schedule_last_run ? new Date(s.schedule_last_run) : null),
    schedule_next_run: iso(new Date(s.schedule_next_run)),
    start_time: s.start_time,
    ...(s.hourly_frequency ? { hourly_frequency: s.hourly_frequency } : {}),
    ...(s.custom_weekdays?.length ? { custom_weekdays: s.custom_weekdays } : {}),
  };
}

const SORTABLE: Record<string, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  completed_at: 'completed_at',
  name: 'name',
  status: 'status',
  progress: 'progress',
  total_result: 'total_result',
  total_target: 'total_target',
  total_template: 'total_template',
  total_scan: 'total_scan',
  rescan_count: 'rescan_count',
};

export const STATUSES = ['failed', 'finished', 'queued', 'running', 'starting', 'uploaded', 'scheduled'];

export interface ListQuery {
  offset?: number;
  limit?: number;
  search?: string;
  status?: string;
  sort_asc?: string;
  sort_desc?: string;
  is_internal?: boolean;
}

export async function listScans(ctx: AppContext, teamId: string, q: ListQuery) {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const status = q.status
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const s of status ?? []) {
    if (!STATUSES.includes(s)) throw badRequest(`unknown status "${s}"; use ${STATUSES.join(', ')}`, 'status');
  }
  const order = parseSort(q.sort_asc, q.sort_desc, SORTABLE);
  const { rows, total } = await store.listScans(ctx.db, {
    teamId,
    offset,
    limit,
    search: q.search?.trim() || undefined,
    status,
    isInternal: q.is_internal,
    order,
  });
  const schedules = await schedulesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return pageEnvelope(
    rows.map((r) => listItem(r, schedules.get(r.id))),
    total,
    offset,
    limit,
  );
}

export async function getScan(ctx: AppContext, teamId: string, id: string) {
  const scan = await mustGet(ctx, teamId, id);
  const req = scan.request as CreateScanBody;
  return listItem(
    {
      ...scan,
      req_templates: req.templates ?? null,
      req_scan_config_ids: req.scan_config_ids ?? null,
      req_report_config_ids: req.reporting_config_ids ?? null,
      req_assets: req.assets ?? null,
      req_agent_id: req.agent_id ?? null,
      req_agent_tags: req.agent_tags ?? null,
      req_agent_networks: req.agent_networks ?? null,
      req_agent_behavior: req.agent_behavior ?? null,
    },
    (await schedulesOf(ctx.db, [id])).get(id),
  );
}

/** The spec's scan configuration record, config references with their names. */
/** A proxy address as shown to someone who may not see its credentials: the password masked. */
export function maskProxy(value: string): string {
  try {
    const u = new URL(value.includes('://') ? value : `socks5://${value}`);
    if (!u.username && !u.password) return value;
    return `${u.protocol}//${u.username ? decodeURIComponent(u.username) + ':' : ''}****@${u.host}`;
  } catch {
    return '****';
  }
}

/** The scan's settings; `showSecrets` (scan managers) sees the proxy's credentials, others see them masked. */
export async function scanConfig(ctx: AppContext, teamId: string, id: string, showSecrets = false) {
  const scan = await mustGet(ctx, teamId, id);
  const req = scan.request as CreateScanBody;
  const templates = await store.templateSummary(ctx.db, id);
  return {
    targets: scan.targets,
    assets_lists: req.assets ?? [],
    public_templates: templates.filter((t) => t.source === 'public').map((t) => t.uri),
    early_templates: req.early_templates ?? [],
    template_urls: templates.filter((t) => t.source === 'inline').map((t) => t.uri),
    template_ids: templates.map((t) => t.template_id),
    scan_config_ids: await configRefs(
      ctx.db,
      teamId,
      req.scan_config_ids ?? [],
      'scan',
      !req.disable_global_scan_config,
    ),
    report_config_ids: await configRefs(
      ctx.db,
      teamId,
      req.reporting_config_ids ?? [],
      'reporting',
      !req.disable_global_report_config,
    ),
    alerting_config_ids: await configRefs(
      ctx.db,
      teamId,
      req.alerting_config_ids ?? [],
      'alerting',
      !req.disable_global_alert_config,
    ),
    enumeration_ids: await enumerationRefs(
      ctx.db,
      teamId,
      (req.enumeration_ids ?? []).map((e) => e.id),
    ),
    socks5_proxy: req.socks5_proxy ? (showSecrets ? req.socks5_proxy : maskProxy(req.socks5_proxy)) : '',
    agent_id: req.agent_id ?? '',
    agent_tags: req.agent_tags ?? [],
    agent_networks: req.agent_networks ?? [],
    agent_behavior: req.agent_behavior ?? 'distribute',
    scan_all_assets: req.scan_all_assets ?? false,
    asset_filters: req.asset_filters ?? {},
  };
}
