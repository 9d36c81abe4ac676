// Rules of enumerations and the inventory: what a create / update request means (checked with the
// discovery's own checks, so nothing invalid is stored), rescans, the contents list and change history.
import { randomBytes } from 'node:crypto';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, conflict, notFound } from '../shared/errors.ts';
import { workOf } from '../../discovery/index.ts';
import { overLimit, type WorkLimits } from './limits.ts';
import { enqueue } from '../worker/registry.ts';
import { checkDenied, denyList } from '../shared/deny.ts';
import { parseSort, pageEnvelope } from '../shared/paging.ts';
import { normalizeFilters, TIME_RANGES, type AssetFiltersInput } from './filters.ts';
import { ENUMERATE_JOB } from './jobs-names.ts';
import * as store from './store.ts';
import { assetView, changelogView, enumerationView } from './views.ts';
import { setCloudAccounts } from './cloud.ts';

export interface EnumerationConfigInput {
  'follow-redirect'?: boolean;
  ports?: string;
  resolvers?: string[];
  wordlist?: string[];
  concurrency?: number;
  rate_limit?: number;
  timeout?: number;
  provider_config?: string;
  technology_templates?: string[];
  /** Set from the request's top-level subfinder_config_ids. */
  subfinder_config_ids?: string[];
  /** Set from the request's top-level cloudlist_config_ids. */
  cloudlist_config_ids?: string[];
  /** The providers of those configs (e.g. "do,cloudflare"), kept for the EnumerateData and EnumerationRef. */
  cloudlist_provider_name?: string;
}

export interface CreateEnumerationBody {
  name?: string;
  root_domains?: string[];
  steps?: string[];
  enumeration_ports?: string;
  enumeration_config?: EnumerationConfigInput;
  exclusions?: string[];
  exclude_targets?: string[];
  alerting_config_ids?: string[];
  automatic_vuln_scans?: boolean;
  subfinder_config_ids?: string[];
  cloudlist_config_ids?: string[];
}

export const DEFAULT_ENUM_STEPS = ['dns_resolve', 'port_scan', 'http_probe'];

export const newId = () => randomBytes(10).toString('hex');

/** What check() reads: a create or update request as it will be stored, or a stored enumeration. */
export interface EnumerationSettings {
  root_domains: string[];
  steps: string[];
  enumeration_ports?: string | null;
  enumeration_config: EnumerationConfigInput;
  exclusions: string[];
}

/**
 * Checks roots, steps, ports, resolvers and exclusions with discovery's checks, and the work they ask
 * for against the limits (by arithmetic): a 400 names the field.
 */
export function checkEnumeration(body: EnumerationSettings, limits: WorkLimits): void {
  const paramOf: Record<string, string> = {
    roots: 'root_domains',
    steps: 'steps',
    ports: 'enumeration_ports',
    resolvers: 'enumeration_config.resolvers',
    exclusions: 'exclusions',
  };
  const cloud = (body.enumeration_config.cloudlist_config_ids ?? []).length > 0;
  if (!body.root_domains.length && !cloud) {
    throw badRequest(
      'root_domains must name at least one domain, IP address or CIDR range (or give cloudlist_config_ids)',
      'root_domains',
    );
  }
  // Ports come from enumeration_ports, or enumeration_config.ports when that is absent.
  const portsParam = body.enumeration_ports == null ? 'enumeration_config.ports' : 'enumeration_ports';
  let work;
  try {
    work = workOf({
      cloud: cloud ? { providers: [] } : undefined,
      roots: body.root_domains,
      steps: body.steps as never,
      ports: body.enumeration_ports ?? body.enumeration_config.ports,
      resolvers: body.enumeration_config.resolvers,
      wordlist: body.enumeration_config.wordlist,
      exclusions: body.exclusions,
    });
  } catch (e) {
    const field = String((e as { field?: string }).field ?? '');
    const [head, ...rest] = field.split('[');
    const param = (paramOf[head!] ?? head) + (rest.length ? '[' + rest.join('[') : '');
    throw badRequest((e as Error).message, head === 'ports' ? portsParam : param);
  }
  const over = overLimit(work, limits, {
    ports: portsParam,
    wordlist: body.enumeration_config.wordlist?.length ? 'enumeration_config.wordlist' : undefined,
  });
  if (over) throw badRequest(over.message, over.param);
}

export async function createEnumeration(
  ctx: AppContext,
  caller: Caller,
  body: CreateEnumerationBody,
): Promise<{ id: string }> {
  const roots = (body.root_domains ?? []).map((r) => r.trim());
  const steps = body.steps?.length ? [...new Set(body.steps)] : DEFAULT_ENUM_STEPS;
  const exclusions = [...(body.exclusions ?? []), ...(body.exclude_targets ?? [])];
  const config: EnumerationConfigInput = { ...(body.enumeration_config ?? {}) };
  if (body.subfinder_config_ids?.length) config.subfinder_config_ids = body.subfinder_config_ids;
  await setCloudAccounts(ctx.db, caller.teamId, config, body.cloudlist_config_ids);
  checkEnumeration(
    { root_domains: roots, steps, enumeration_ports: body.enumeration_ports, enumeration_config: config, exclusions },
    ctx.config,
  );
  checkDenied(denyList(ctx.config), roots, 'root_domains');
  checkDenied(denyList(ctx.config), config.resolvers ?? [], 'enumeration_config.resolvers');
  const id = newId();
  await store.insertEnumeration(ctx.db, {
    id,
    teamId: caller.teamId,
    name:
      body.name?.trim() ||
      (roots.length
        ? roots.slice(0, 3).join(', ') + (roots.length > 3 ? ` and ${roots.length - 3} more` : '')
        : `cloud: ${config.cloudlist_provider_name}`),
    createdBy: caller.userId,
    rootDomains: roots,
    steps,
    ports: body.enumeration_ports?.trim() || null,
    config: { ...config },
    exclusions,
    alertingConfigIds: body.alerting_config_ids ?? [],
    automaticVulnScans: body.automatic_vuln_scans ?? false,
  });
  try {
    await enqueue(ctx, ENUMERATE_JOB, { enumerationId: id, run: 1 });
  } catch (err) {
    // Never leave an enumeration queued with no job behind it.
    await store.deleteEnumeration(ctx.db, caller.teamId, id).catch(() => {});
    throw err;
  }
  return { id };
}

async function mustGet(ctx: AppContext, teamId: string, id: string): Promise<store.EnumerationRow> {
  const row = await store.getEnumeration(ctx.db, teamId, id);
  if (!row) throw notFound(`enumeration ${id} not found`, 'enumerate_id');
  return row;
}

export async function getEnumeration(ctx: AppContext, teamId: string, id: string) {
  return { message: 'ok', data: enumerationView(await mustGet(ctx, teamId, id)) };
}

const SORTABLE: Record<string, string> = {
  created_at: 'created_at',
  updated_at: 'updated_at',
  name: 'name',
  status: 'status',
  total_assets: 'total_assets',
  completed_at: 'completed_at',
};
const ENUM_STATUSES = ['queued', 'running', 'finished', 'failed'];

export interface EnumerationListQuery {
  offset?: number;
  limit?: number;
  search?: string;
  status?: string;
  sort_asc?: string;
  sort_desc?: string;
  time?: string;
  start_date?: string;
  end_date?: string;
  enum_type?: string;
  is_internal?: boolean;
  custom_filter?: string;
}

export async function listEnumerations(ctx: AppContext, teamId: string, q: EnumerationListQuery) {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const status = q.status
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const s of status ?? [])
    if (!ENUM_STATUSES.includes(s))
      throw badRequest(`unknown status "${s}"; use ${ENUM_STATUSES.join(', ')}`, 'status');
  if (q.time !== undefined && !(TIME_RANGES as readonly string[]).includes(q.time))
    throw badRequest(`time "${q.time}" is not one of ${TIME_RANGES.join(', ')}`, 'time');
  const types = q.enum_type
    ?.split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const ty of types ?? [])
    if (ty !== 'cloudlist' && ty !== 'domain')
      throw badRequest(`unknown enum_type "${ty}"; use cloudlist, domain`, 'enum_type');
  if (q.custom_filter?.trim())
    throw badRequest('custom_filter is not supported; use the other filters', 'custom_filter');
  // Every enumeration here runs on this platform's workers: none is "internal" (agent-run).
  if (q.is_internal === true) return pageEnvelope([], 0, offset, limit);
  const { rows, total } = await store.listEnumerations(ctx.db, {
    teamId,
    offset,
    limit,
    search: q.search?.trim() || undefined,
    status,
    types: types as ('cloudlist' | 'domain')[] | undefined,
    since: store.intervalOf(q.time),
    startDate: q.start_date,
    endDate: q.end_date,
    order: parseSort(q.sort_asc, q.sort_desc, SORTABLE),
  });
  return pageEnvelope(rows.map(enumerationView), total, offset, limit);
}

/**
 * The API shows a stored provider_config as "****" (views.ts): a settings edit that sends it back as shown
 * (the console's does) keeps the stored keys instead of saving the mask.
 */
function keptSecrets(
  given: EnumerationConfigInput | undefined,
  stored: EnumerationConfigInput,
): EnumerationConfigInput | undefined {
  if (given?.provider_config !== '****') return given;
  const out = { ...given };
  if (stored.provider_config) out.provider_config = stored.provider_config;
  else delete out.provider_config;
  return out;
}

export async function updateEnumeration(
  ctx: AppContext,
  teamId: string,
  id: string,
  body: CreateEnumerationBody,
): Promise<void> {
  const row = await mustGet(ctx, teamId, id);
  const stored = row.enumeration_config as EnumerationConfigInput;
  const configChanged = !!(body.enumeration_config || body.subfinder_config_ids || body.cloudlist_config_ids);
  const config: EnumerationConfigInput = configChanged
    ? {
        ...(keptSecrets(body.enumeration_config, stored) ?? stored),
        // The subfinder configs and cloud accounts stay unless the request names others ([] removes them).
        subfinder_config_ids: body.subfinder_config_ids ?? stored.subfinder_config_ids,
      }
    : stored;
  if (configChanged) {
    if (!config.subfinder_config_ids?.length) delete config.subfinder_config_ids;
    await setCloudAccounts(ctx.db, teamId, config, body.cloudlist_config_ids ?? stored.cloudlist_config_ids);
  }
  const next = {
    root_domains: body.root_domains?.map((r) => r.trim()) ?? row.root_domains,
    steps: body.steps?.length ? [...new Set(body.steps)] : row.steps,
    enumeration_ports:
      body.enumeration_ports !== undefined ? body.enumeration_ports.trim() || null : row.enumeration_ports,
    enumeration_config: config,
    exclusions: body.exclusions ?? row.exclusions,
  };
  checkEnumeration(next, ctx.config);
  if (body.root_domains) checkDenied(denyList(ctx.config), next.root_domains, 'root_domains');
  if (body.enumeration_config)
    checkDenied(denyList(ctx.config), body.enumeration_config.resolvers ?? [], 'enumeration_config.resolvers');
  if (body.name !== undefined && !body.name.trim()) throw badRequest('name must not be empty', 'name');
  await store.updateEnumeration(ctx.db, teamId, id, {
    name: body.name?.trim(),
    root_domains: body.root_domains ? next.root_domains : undefined,
    steps: body.steps?.length ? next.steps : undefined,
    enumeration_ports: body.enumeration_ports !== undefined ? next.enumeration_ports : undefined,
    enumeration_config: configChanged ? next.enumeration_config : undefined,
    exclusions: body.exclusions,
    alerting_config_ids: body.alerting_config_ids,
    automatic_vuln_scans: body.automatic_vuln_scans,
  });
}

export async function deleteEnumeration(ctx: AppContext, teamId: string, id: string): Promise<void> {
  if (!(await store.deleteEnumeration(ctx.db, teamId, id)))
    throw notFound(`enumeration ${id} not found`, 'enumerate_id');
}

export async function rescanEnumeration(ctx: AppContext, teamId: string, id: string): Promise<{ id: string }> {
  // A stored enumeration is checked again: the limits may have been lowered since it was saved.
  checkEnumeration(await mustGet(ctx, teamId, id), ctx.config);
  const run = await store.queueNextRun(ctx.db, teamId, id);
  if (run === undefined) throw conflict(`enumeration ${id} is already queued or running`, 'enumerate_id');
  try {
    await enqueue(ctx, ENUMERATE_JOB, { enumerationId: id, run });
  } catch (err) {
    await store.failRun(ctx.db, id, run, 'the run could not be queued').catch(() => {});
    throw err;
  }
  return { id };
}

export interface ContentsQuery extends AssetFiltersInput {
  offset?: number;
  limit?: number;
}

/** Assets of one enumeration (or of every enumeration of the team when id is undefined), filtered. */
export async function listContents(ctx: AppContext, teamId: string, id: string | undefined, q: ContentsQuery) {
  if (id) await mustGet(ctx, teamId, id);
  const { offset = 0, limit = 100, ...filters } = q;
  const filter = normalizeFilters(filters);
  if (id) filter.enumeration_ids = [id];
  const { rows, total } = await store.listAssets(ctx.db, { teamId, filter, offset, limit });
  return pageEnvelope(rows.map(assetView), total, offset, limit);
}

export async function screenshot(ctx: AppContext, teamId: string, assetId: string): Promise<Buffer> {
  if (!/^\d{1,18}$/.test(assetId))
    throw badRequest(`asset_id "${assetId}" is not an asset id (a whole number)`, 'asset_id');
  const png = await store.getScreenshot(ctx.db, teamId, assetId);
  if (!png) throw notFound(`asset ${assetId} has no screenshot`, 'asset_id');
  return png;
}

const CHANGELOG_SORT: Record<string, string> = {
  created_at: 'created_at',
  id: 'asset_changelogs.id',
  event_type: 'event_type',
};

export async function listChangelogs(
  ctx: AppContext,
  teamId: string,
  assetId: string,
  q: { time?: string; event_type?: string; sort_asc?: string; sort_desc?: string; limit?: number; offset?: number },
) {
  if (!/^\d{1,18}$/.test(assetId))
    throw badRequest(`asset_id "${assetId}" is not an asset id (a whole number)`, 'asset_id');
  if (!(await store.getAsset(ctx.db, teamId, assetId))) throw notFound(`asset ${assetId} not found`, 'asset_id');
  if (q.time !== undefined && !(TIME_RANGES as readonly string[]).includes(q.time))
    throw badRequest(`time "${q.time}" is not one of ${TIME_RANGES.join(', ')}`, 'time');
  const order = parseSort(q.sort_asc, q.sort_desc, CHANGELOG_SORT);
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const { rows, total } = await store.listChangelogs(ctx.db, {
    teamId,
    assetId,
    since: store.intervalOf(q.time),
    eventTypes: q.event_type
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    order: [...order.map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`), 'asset_changelogs.id DESC'].join(', '),
    limit,
    offset,
  });
  return pageEnvelope(rows.map(changelogView), total, offset, limit);
}

const ENUM_CHANGELOG_SORT: Record<string, string> = { ...CHANGELOG_SORT, run: 'run' };

/** What each run of an enumeration changed, over all its assets (the disappeared ones included). */
export async function listEnumerationChangelogs(
  ctx: AppContext,
  teamId: string,
  id: string,
  q: { run?: number; event_type?: string; sort_asc?: string; sort_desc?: string; limit?: number; offset?: number },
) {
  await mustGet(ctx, teamId, id);
  const order = parseSort(q.sort_asc, q.sort_desc, ENUM_CHANGELOG_SORT);
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const { rows, total } = await store.listChangelogs(ctx.db, {
    teamId,
    enumerationId: id,
    run: q.run,
    eventTypes: q.event_type
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    order: [
      ...(order.length ? order : [{ column: 'run', desc: true }]).map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`),
      'asset_changelogs.id ASC',
    ].join(', '),
    limit,
    offset,
  });
  return pageEnvelope(rows.map(changelogView), total, offset, limit);
}
