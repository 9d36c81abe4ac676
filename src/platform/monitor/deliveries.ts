// Sending deliveries (alerts and tickets) with retries and back-off, and listing them per config.
// Attempt n that fails is tried again after VIGIL_DELIVERY_RETRY_BASE x 2^(n-1) seconds (default 30 s),
// up to VIGIL_DELIVERY_MAX_ATTEMPTS attempts (default 5); each attempt is recorded on the delivery row.
import yaml from 'js-yaml';
import type { AppContext } from '../shared/context.ts';
import { getConfigById } from '../configs/store.ts';
import { sendAlert, type AlertPayload } from './alert-senders.ts';
import { deliverTicket } from './trackers.ts';
import { SendError } from './http-send.ts';
import * as store from './delivery-store.ts';
import { mustGetConfig } from '../configs/service.ts';
import { badRequest } from '../shared/errors.ts';
import type { Caller } from '../auth/service.ts';

export function retryPolicy(env: NodeJS.ProcessEnv = process.env) {
  const base = Number(env.VIGIL_DELIVERY_RETRY_BASE);
  const max = Number(env.VIGIL_DELIVERY_MAX_ATTEMPTS);
  return {
    baseSeconds: Number.isFinite(base) && base > 0 ? base : 30,
    maxAttempts: Number.isInteger(max) && max > 0 ? max : 5,
  };
}

/** Seconds before attempt `attempts` + 1, or null when no attempt is left. */
export function backoff(attempts: number, policy = retryPolicy()): number | null {
  if (attempts >= policy.maxAttempts) return null;
  return policy.baseSeconds * 2 ** (attempts - 1);
}

const LEASE_SECONDS = 120;

/** One pass: sends the due deliveries this process could claim. */
export async function processDeliveries(ctx: AppContext, limit = 20): Promise<number> {
  const due = await store.claimDeliveries(ctx.db, limit, LEASE_SECONDS);
  // A few at a time: one slow receiver does not hold up the others. Tickets of one config go one after
  // the other, so a tracker sees its issues created in order.
  const byConfig = new Map<string, store.DeliveryRow[]>();
  for (const d of due) byConfig.set(d.config_id, [...(byConfig.get(d.config_id) ?? []), d]);
  const queues = [...byConfig.values()];
  const workers = Array.from({ length: Math.min(4, queues.length) }, async () => {
    for (let q = queues.shift(); q; q = queues.shift()) for (const d of q) await attempt(ctx, d);
  });
  await Promise.all(workers);
  return due.length;
}

async function attempt(ctx: AppContext, d: store.DeliveryRow): Promise<void> {
  const config = await getConfigById(ctx.db, d.config_id);
  if (!config) return; // deleted: its deliveries went with it
  let doc: Record<string, any>;
  try {
    doc = (yaml.load(config.config, { schema: yaml.CORE_SCHEMA }) as Record<string, any>) ?? {};
  } catch {
    await store.markAttemptFailed(ctx.db, d.id, 'the config text does not parse', null, null);
    return;
  }
  try {
    let status: number | null = null;
    if (d.kind === 'alert') status = await sendAlert(ctx, doc, d.payload as AlertPayload);
    else await deliverTicket(ctx, d.config_id, doc, d.payload as never);
    await store.markDelivered(ctx.db, d.id, status);
  } catch (err) {
    const e =
      err instanceof SendError ? err : new SendError('internal error while sending (details in the server log)');
    if (!(err instanceof SendError))
      ctx.log.error({ err, delivery_id: d.id, config_id: d.config_id }, 'delivery failed');
    const retryIn = e.retry ? backoff(d.attempts) : null;
    await store.markAttemptFailed(ctx.db, d.id, e.message, e.status, retryIn);
    // The config id and the reason only: URLs, headers and credentials stay out of the log.
    ctx.log.warn(
      { delivery_id: d.id, config_id: d.config_id, attempt: d.attempts, reason: e.message, retry_in_s: retryIn },
      'delivery attempt failed',
    );
  }
}

const iso = (x: Date | null | undefined) => (x ? new Date(x).toISOString() : '');

export async function listDeliveries(
  ctx: AppContext,
  caller: Caller,
  configId: string,
  q: { limit?: number; offset?: number },
) {
  const config = await mustGetConfig(ctx, caller.teamId, configId);
  if (config.config_type !== 'alerting' && config.config_type !== 'reporting') {
    throw badRequest(
      `config ${configId} is a ${config.config_type} config; only alerting and reporting configs deliver`,
      'config_id',
    );
  }
  const rows = await store.listDeliveries(ctx.db, configId, q.limit ?? 100, q.offset ?? 0);
  const tickets =
    config.config_type === 'reporting'
      ? new Map((await store.listTickets(ctx.db, configId)).map((t) => [t.vuln_hash, t]))
      : undefined;
  return rows.map((r) => {
    const t = r.vuln_hash ? tickets?.get(r.vuln_hash) : undefined;
    return {
      id: r.id,
      config_id: r.config_id,
      kind: r.kind,
      event: r.event,
      scan_id: r.scan_id ?? '',
      run: r.run ?? 0,
      vuln_hash: r.vuln_hash ?? '',
      status: r.status,
      attempts: r.attempts,
      last_error: r.last_error ?? '',
      response_status: r.response_status ?? 0,
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
      delivered_at: iso(r.delivered_at),
      next_attempt_at: r.status === 'pending' ? iso(r.next_attempt_at) : '',
      ...(t ? { ticket_id: t.external_id, ticket_url: t.url } : {}),
    };
  });
}
