// Asset policies: conditions (AssetFilters, all must hold) and an action (alert, delete, set_label,
// remove_label) applied to the assets a run found new or changed, and to existing ones when asked.
// Every action is recorded as an event; alerts are queued as `asset-alert` jobs for delivery.
import { createHash } from 'node:crypto';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import type { Db } from '../../db/connection.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { loadConfigs } from '../configs/resolve.ts';
import { asksFor, parseConfig } from '../configs/parsed.ts';
import { enqueue } from '../worker/registry.ts';
import { isEmptyFilter, normalizeFilters, type AssetFiltersInput } from './filters.ts';
import { ALERT_JOB } from './jobs-names.ts';
import { newId } from './service.ts';
import * as store from './store.ts';
import { policyEventView, policyView } from './views.ts';

export const POLICY_TYPES = ['alert', 'delete', 'set_label', 'remove_label'] as const;

export interface PolicyBody {
  name?: string;
  policy_type?: string;
  policies?: AssetFiltersInput;
  alerting_config_ids?: string[];
  labels?: string[];
  enumeration_ids?: string[];
  apply_to_existing?: boolean;
}

const cleanList = (xs: string[] | undefined) => [...new Set((xs ?? []).map((x) => x.trim()).filter(Boolean))];

async function checked(ctx: AppContext, teamId: string, p: store.PolicyFields): Promise<store.PolicyFields> {
  if (!(POLICY_TYPES as readonly string[]).includes(p.policy_type))
    throw badRequest(`policy_type "${p.policy_type}" is not one of ${POLICY_TYPES.join(', ')}`, 'policy_type');
  const filter = normalizeFilters(p.policies as AssetFiltersInput, 'policies.');
  if (isEmptyFilter(filter)) throw badRequest('policies must set at least one condition', 'policies');
  if (filter.time)
    throw badRequest('time is not a policy condition (policies apply to assets as runs find them)', 'policies.time');
  if (p.policy_type === 'alert' && !p.alerting_config_ids.length)
    throw badRequest('an alert policy needs alerting_config_ids', 'alerting_config_ids');
  await checkAlertingConfigs(ctx, teamId, p.alerting_config_ids);
  if ((p.policy_type === 'set_label' || p.policy_type === 'remove_label') && !p.labels.length)
    throw badRequest(`a ${p.policy_type} policy needs labels`, 'labels');
  if (p.enumeration_ids.length) {
    const known = await store.existingEnumerationIds(ctx.db, teamId, p.enumeration_ids);
    const missing = p.enumeration_ids.findIndex((id) => !known.has(id));
    if (missing >= 0)
      throw badRequest(`unknown enumeration id "${p.enumeration_ids[missing]}"`, `enumeration_ids[${missing}]`);
  }
  return p;
}

/**
 * Every alerting config a policy names must exist and listen to asset_policy_match: otherwise the policy's
 * matches would be queued for a config that never sends them, and nobody would be told.
 */
async function checkAlertingConfigs(ctx: AppContext, teamId: string, ids: string[]): Promise<void> {
  const found = new Map((await loadConfigs(ctx.db, teamId, ids)).map((c) => [c.id, c]));
  ids.forEach((id, i) => {
    const c = found.get(id);
    const field = `alerting_config_ids[${i}]`;
    if (!c || c.config_type !== 'alerting') throw badRequest(`unknown alerting config id "${id}"`, field);
    if (!asksFor(parseConfig(c), 'asset_policy_match'))
      throw badRequest(
        `alerting config "${c.name}" does not receive asset_policy_match events: add asset_policy_match to its events, or pick another config`,
        field,
      );
  });
}

export async function createPolicy(ctx: AppContext, caller: Caller, body: PolicyBody): Promise<{ id: string }> {
  const type = body.policy_type ?? 'alert';
  const fields = await checked(ctx, caller.teamId, {
    name: body.name?.trim() || `${type} policy`,
    policy_type: type,
    policies: (body.policies ?? {}) as Record<string, unknown>,
    alerting_config_ids: cleanList(body.alerting_config_ids),
    labels: cleanList(body.labels),
    enumeration_ids: cleanList(body.enumeration_ids),
    apply_to_existing: body.apply_to_existing ?? false,
  });
  const id = newId();
  const alerts = await ctx.db.transaction(async (tx) => {
    await store.insertPolicy(tx, id, caller.teamId, caller.userId, fields);
    return fields.apply_to_existing ? applyToExisting(tx, caller.teamId, id) : [];
  });
  await sendAlerts(ctx, alerts);
  return { id };
}

async function mustGet(ctx: AppContext, teamId: string, id: string): Promise<store.PolicyRow> {
  const p = await store.getPolicy(ctx.db, teamId, id);
  if (!p) throw notFound(`asset policy ${id} not found`, 'policy_id');
  return p;
}

export async function getPolicy(ctx: AppContext, teamId: string, id: string) {
  return { message: 'ok', data: policyView(await mustGet(ctx, teamId, id)) };
}

export async function listPolicies(ctx: AppContext, teamId: string, q: { limit?: number; offset?: number }) {
  const { rows, total } = await store.listPolicies(ctx.db, teamId, q.limit, q.offset ?? 0);
  return { policies: rows.map(policyView), total, message: 'ok' };
}

export async function updatePolicy(
  ctx: AppContext,
  teamId: string,
  id: string,
  body: PolicyBody,
  mode: 'append' | 'replace' = 'append',
): Promise<void> {
  const cur = await mustGet(ctx, teamId, id);
  const merge = (now: string[], given: string[] | undefined) =>
    given === undefined ? now : mode === 'append' ? cleanList([...now, ...given]) : cleanList(given);
  const next: store.PolicyFields =
    mode === 'replace'
      ? {
          name: body.name?.trim() || cur.name,
          policy_type: body.policy_type ?? cur.policy_type,
          policies: (body.policies ?? {}) as Record<string, unknown>,
          alerting_config_ids: cleanList(body.alerting_config_ids),
          labels: cleanList(body.labels),
          enumeration_ids: cleanList(body.enumeration_ids),
          apply_to_existing: body.apply_to_existing ?? false,
        }
      : {
          name: body.name?.trim() || cur.name,
          policy_type: body.policy_type ?? cur.policy_type,
          policies: (body.policies ?? cur.policies) as Record<string, unknown>,
          alerting_config_ids: merge(cur.alerting_config_ids, body.alerting_config_ids),
          labels: merge(cur.labels, body.labels),
          enumeration_ids: merge(cur.enumeration_ids, body.enumeration_ids),
          apply_to_existing: body.apply_to_existing ?? cur.apply_to_existing,
        };
  await checked(ctx, teamId, next);
  const turnedOn = next.apply_to_existing && !cur.apply_to_existing;
  const alerts = await ctx.db.transaction(async (tx) => {
    await store.updatePolicy(tx, teamId, id, next, turnedOn);
    return turnedOn ? applyToExisting(tx, teamId, id) : [];
  });
  await sendAlerts(ctx, alerts);
}

export async function deletePolicy(ctx: AppContext, teamId: string, id: string): Promise<void> {
  if (!(await store.deletePolicy(ctx.db, teamId, id))) throw notFound(`asset policy ${id} not found`, 'policy_id');
}

export async function listPolicyEvents(
  ctx: AppContext,
  teamId: string,
  id: string,
  q: { limit?: number; offset?: number },
) {
  const p = await mustGet(ctx, teamId, id);
  const limit = Math.min(q.limit ?? 50, 100);
  const offset = q.offset ?? 0;
  const { rows, total } = await store.listPolicyEvents(ctx.db, teamId, id, limit, offset);
  return { data: { events: rows.map((e) => policyEventView(e, p.name)) }, total, limit, offset, message: 'ok' };
}

/** An alert to queue once the transaction that recorded it has committed. */
export interface QueuedAlert {
  teamId: string;
  policy: store.PolicyRow;
  event: store.PolicyEventRow;
}

async function applyToExisting(db: Db, teamId: string, policyId: string): Promise<QueuedAlert[]> {
  const policy = (await store.getPolicy(db, teamId, policyId))!;
  const alerts = await applyPolicy(db, policy, { candidates: undefined, key: `existing:${Date.now()}` });
  await store.markPolicyExecuted(db, policyId, true);
  return alerts;
}

/**
 * Runs one policy over candidate assets (undefined: every present asset in its scope). `key` makes the
 * recorded events of one run unique, so a retried run records and alerts nothing twice.
 */
async function applyPolicy(
  db: Db,
  policy: store.PolicyRow,
  at: { candidates: string[] | undefined; key: string; enumerationId?: string; run?: number },
): Promise<QueuedAlert[]> {
  const filter = normalizeFilters(policy.policies as AssetFiltersInput);
  if (policy.enumeration_ids.length) {
    filter.enumeration_ids = filter.enumeration_ids
      ? filter.enumeration_ids.filter((e) => policy.enumeration_ids.includes(e))
      : policy.enumeration_ids;
  }
  const { rows } = await store.listAssets(db, { teamId: policy.team_id, filter, ids: at.candidates });
  if (!rows.length) return [];
  const assets = rows.map((a) => ({
    id: a.id,
    host: a.host,
    port: a.port,
    url: a.url,
    title: a.title,
    status_code: a.status_code,
    enumeration_id: a.enumeration_id,
  }));
  const base = {
    teamId: policy.team_id,
    policyId: policy.id,
    enumerationId: at.enumerationId ?? null,
    run: at.run ?? null,
  };
  if (policy.policy_type === 'alert') {
    const fresh = await store.insertPolicyEvent(db, {
      ...base,
      eventType: 'asset_policy_alert',
      status: 'pending',
      dedupKey: `alert:${at.key}`,
      payload: { policy_type: 'alert', alerting_config_ids: policy.alerting_config_ids, assets },
    });
    if (!fresh) return [];
    const { rows: ev } = await store.listPolicyEvents(db, policy.team_id, policy.id, 1, 0);
    return [{ teamId: policy.team_id, policy, event: ev[0]! }];
  }
  const ids: string[] = [];
  for (const a of assets) {
    const fresh = await store.insertPolicyEvent(db, {
      ...base,
      assetId: a.id,
      eventType: 'asset_policy_applied',
      status: 'succeeded',
      dedupKey: `${at.key}:${a.id}`,
      payload: { policy_type: policy.policy_type, labels: policy.labels, asset: a },
    });
    if (fresh) ids.push(a.id);
  }
  if (policy.policy_type === 'delete') await store.deleteAssets(db, ids);
  else await store.setLabels(db, ids, policy.labels, policy.policy_type === 'set_label');
  return [];
}

/** Runs every policy of the team over the assets a run found new or changed (inside its transaction). */
export async function applyPoliciesToRun(
  db: Db,
  teamId: string,
  enumerationId: string,
  run: number,
  candidates: string[],
): Promise<QueuedAlert[]> {
  if (!candidates.length) return [];
  const { rows: policies } = await store.listPolicies(db, teamId);
  const alerts: QueuedAlert[] = [];
  for (const p of policies) {
    if (p.enumeration_ids.length && !p.enumeration_ids.includes(enumerationId)) continue;
    alerts.push(...(await applyPolicy(db, p, { candidates, key: `${enumerationId}:${run}`, enumerationId, run })));
    await store.markPolicyExecuted(db, p.id, false);
  }
  return alerts;
}

/** The pending alerts a run recorded (a retried job sends them again; their job ids make that a no-op). */
export async function pendingAlertsOfRun(
  db: Db,
  teamId: string,
  enumerationId: string,
  run: number,
): Promise<QueuedAlert[]> {
  const rows = await store.pendingAlertEventsOfRun(db, teamId, enumerationId, run);
  return rows.map(({ policy, ...event }) => ({ teamId, policy, event }));
}

/** A UUID derived from the event, so sending the same alert twice queues one job. */
const jobIdOf = (eventId: string) => {
  const h = createHash('sha256').update(`asset-alert:${eventId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
};

export async function sendAlerts(ctx: Pick<AppContext, 'queue'>, alerts: QueuedAlert[]): Promise<void> {
  for (const a of alerts) {
    await enqueue(
      ctx,
      ALERT_JOB,
      {
        team_id: a.teamId,
        policy_id: a.policy.id,
        alerting_config_ids: a.policy.alerting_config_ids,
        event: policyEventView(a.event, a.policy.name),
      },
      { id: jobIdOf(a.event.id) },
    );
  }
}
