// The enumeration operations beside create / update / rescan (service.ts): bulk delete
// (DELETE /v1/asset/enumerate), the launch configuration read and changed on its own
// (GET / PATCH /v1/asset/enumerate/{id}/config) and the history of runs (GET .../{id}/history).
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { pageEnvelope } from '../shared/paging.ts';
import { getEnumeration as getRow, existingEnumerationIds } from './store.ts';
import * as store from './store.ts';
import { updateEnumeration, type CreateEnumerationBody, type EnumerationConfigInput } from './service.ts';
import { enumerationType } from './views.ts';

const isAssetId = (id: string) => /^\d{1,18}$/.test(id);

/**
 * DELETE /v1/asset/enumerate: `asset_ids` names enumerations (their ids) and, as whole numbers, single
 * assets. Every id must be the team's, or nothing is deleted (404 naming the first unknown one).
 */
export async function deleteInBulk(ctx: AppContext, teamId: string, ids: string[]): Promise<string> {
  if (!ids.length) throw badRequest('asset_ids must name at least one enumeration or asset', 'asset_ids');
  const assetIds = ids.filter(isAssetId);
  const enumIds = ids.filter((id) => !isAssetId(id));
  const knownEnums = enumIds.length ? await existingEnumerationIds(ctx.db, teamId, enumIds) : new Set<string>();
  const knownAssets = assetIds.length
    ? new Set((await store.listAssets(ctx.db, { teamId, filter: {}, ids: assetIds })).rows.map((r) => r.id))
    : new Set<string>();
  const missing = ids.findIndex((id) => (isAssetId(id) ? !knownAssets.has(String(BigInt(id))) : !knownEnums.has(id)));
  if (missing >= 0) throw notFound(`no enumeration or asset "${ids[missing]}"`, `asset_ids[${missing}]`);
  const deleted = enumIds.length ? await store.deleteEnumerations(ctx.db, teamId, enumIds) : [];
  await store.deleteAssets(ctx.db, assetIds);
  const parts = [
    deleted.length ? `${deleted.length} enumeration${deleted.length === 1 ? '' : 's'}` : '',
    assetIds.length ? `${assetIds.length} asset${assetIds.length === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} deleted`;
}

async function mustGet(ctx: AppContext, teamId: string, id: string) {
  const row = await getRow(ctx.db, teamId, id);
  if (!row) throw notFound(`enumeration ${id} not found`, 'enumerate_id');
  return row;
}

/** The platform's EnumerationConfig: what the next run will use (keys of a provider config masked). */
export async function getConfig(ctx: AppContext, teamId: string, id: string) {
  const row = await mustGet(ctx, teamId, id);
  const c = { ...(row.enumeration_config as EnumerationConfigInput) };
  const subfinder = c.subfinder_config_ids ?? [];
  delete c.subfinder_config_ids;
  delete c.cloudlist_provider_name;
  if (c.provider_config) c.provider_config = '****';
  return {
    name: row.name,
    root_domains: row.root_domains,
    enrichment_inputs: [],
    steps: row.steps,
    enum_ports: row.enumeration_ports ?? '',
    enumeration_config: c,
    alerting_config_ids: row.alerting_config_ids,
    subfinder_config_ids: subfinder,
    exclusions: row.exclusions,
    automatic_vuln_scans: row.automatic_vuln_scans,
  };
}

export interface ConfigPatch {
  name?: string;
  root_domains?: string[];
  enrichment_inputs?: string[];
  steps?: string[];
  enum_ports?: string;
  enumeration_config?: EnumerationConfigInput;
  alerting_config_ids?: string[];
  subfinder_config_ids?: string[];
  exclusions?: string[];
  automatic_vuln_scans?: boolean;
}

/**
 * PATCH .../config: update_type append (the default) adds the given roots, steps, exclusions and config
 * ids to the stored ones and merges enumeration_config; replace sets what is given. Either way the result
 * is checked as a create request is, and applies from the next run.
 */
export async function patchConfig(
  ctx: AppContext,
  teamId: string,
  id: string,
  body: ConfigPatch,
  updateType = 'append',
): Promise<void> {
  if (updateType !== 'append' && updateType !== 'replace')
    throw badRequest('update_type must be append or replace', 'update_type');
  if (body.enrichment_inputs?.length) throw badRequest('enrichment_inputs is not supported', 'enrichment_inputs');
  const row = await mustGet(ctx, teamId, id);
  const stored = row.enumeration_config as EnumerationConfigInput;
  const join = (old: string[] | undefined, add: string[] | undefined) =>
    add === undefined ? undefined : updateType === 'append' ? [...new Set([...(old ?? []), ...add])] : add;
  const update: CreateEnumerationBody = {
    name: body.name,
    root_domains: join(row.root_domains, body.root_domains),
    steps: join(row.steps, body.steps),
    enumeration_ports: body.enum_ports,
    exclusions: join(row.exclusions, body.exclusions),
    alerting_config_ids: join(row.alerting_config_ids, body.alerting_config_ids),
    subfinder_config_ids: join(stored.subfinder_config_ids, body.subfinder_config_ids),
    automatic_vuln_scans: body.automatic_vuln_scans,
  };
  if (body.enumeration_config) {
    const { subfinder_config_ids: _s, cloudlist_config_ids: _c, cloudlist_provider_name: _p, ...own } = stored;
    void _s;
    void _c;
    void _p;
    update.enumeration_config =
      updateType === 'append' ? { ...own, ...body.enumeration_config } : body.enumeration_config;
  }
  for (const k of Object.keys(update) as (keyof CreateEnumerationBody)[]) if (update[k] === undefined) delete update[k];
  await updateEnumeration(ctx, teamId, id, update);
}

const TIME_RANGES: Record<string, (now: Date) => Date | undefined> = {
  all_time: () => undefined,
  current_month: (n) => new Date(Date.UTC(n.getUTCFullYear(), n.getUTCMonth(), 1)),
  last_month: (n) => new Date(n.getTime() - 30 * 86_400_000),
  last_3_months: (n) => new Date(n.getTime() - 91 * 86_400_000),
  last_6_months: (n) => new Date(n.getTime() - 182 * 86_400_000),
  last_12_months: (n) => new Date(n.getTime() - 365 * 86_400_000),
};

/** An ISO 8601 duration ("PT1M5S"), the format the platform's history gives enumeration_time in. */
export function isoDuration(ms: number): string {
  let s = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  s %= 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

export async function history(
  ctx: AppContext,
  teamId: string,
  id: string,
  q: { offset?: number; limit?: number; start_date?: string; end_date?: string; time_range?: string },
) {
  await mustGet(ctx, teamId, id);
  const range = TIME_RANGES[q.time_range ?? 'all_time'];
  if (!range) throw badRequest(`time_range must be one of ${Object.keys(TIME_RANGES).join(', ')}`, 'time_range');
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const { rows, total } = await store.listRunHistory(ctx.db, {
    teamId,
    enumerationId: id,
    since: range(new Date()),
    startDate: q.start_date,
    endDate: q.end_date,
    offset,
    limit,
  });
  const data = rows.map((r) => ({
    enum_id: r.enumeration_id,
    name: r.name,
    enum_type: enumerationType(r).enumeration_type,
    run: r.run,
    enum_started_at: new Date(r.started_at).toISOString(),
    enum_finished_at: new Date(r.finished_at).toISOString(),
    enumeration_time: isoDuration(new Date(r.finished_at).getTime() - new Date(r.started_at).getTime()),
    status: r.status,
    new_assets_discovered: r.new_assets,
    total_targets_processed: r.total_targets,
    ...(r.error_details ? { error_details: r.error_details } : {}),
  }));
  return {
    ...pageEnvelope(data, total, offset, limit),
    total_enumeration: total,
    total_unique_enumeration: total ? 1 : 0,
  };
}
