// SQL of scan events (the outbox the status trigger fills), deliveries (alerts and tickets) and the
// tickets opened in trackers. Rows are claimed with a lease (FOR UPDATE SKIP LOCKED), so several serve
// processes share the work and a process that dies mid-way leaves its rows to the others after the lease.
import type { Db } from '../../db/connection.ts';

export interface EventRow {
  id: string;
  scan_id: string;
  team_id: string;
  run: number;
  event: string;
  reason: string | null;
  created_at: Date;
}

/** Takes up to `limit` unhandled events for `leaseSeconds`. */
export async function claimEvents(db: Db, limit: number, leaseSeconds: number): Promise<EventRow[]> {
  const { rows } = await db.query<EventRow>(
    `UPDATE scan_events SET lease_until = now() + make_interval(secs => $2)
     WHERE id IN (SELECT id FROM scan_events WHERE done_at IS NULL AND (lease_until IS NULL OR lease_until < now())
                  ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id::text AS id, scan_id, team_id, run, event, reason, created_at`,
    [limit, leaseSeconds],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

/** Handled events older than a week are of no more use (deliveries keep the record). */
export async function pruneEvents(db: Db): Promise<void> {
  await db.query(`DELETE FROM scan_events WHERE done_at < now() - interval '7 days'`);
}

export async function finishEvent(db: Db, id: string): Promise<void> {
  await db.query('UPDATE scan_events SET done_at = now() WHERE id = $1', [id]);
}

export interface NewDelivery {
  configId: string;
  teamId: string;
  kind: 'alert' | 'ticket';
  event: string;
  /** null for alerts that are not about a scan (asset policies). */
  scanId: string | null;
  run: number | null;
  vulnHash?: string;
  payload: unknown;
}

/** Adds deliveries; one that exists already (the same event handled twice) is not added again. */
export async function insertDeliveries(db: Db, list: NewDelivery[]): Promise<void> {
  for (let i = 0; i < list.length; i += 500) {
    const json = JSON.stringify(
      list.slice(i, i + 500).map((d) => ({
        c: d.configId,
        t: d.teamId,
        k: d.kind,
        e: d.event,
        s: d.scanId,
        r: d.run,
        h: d.vulnHash ?? null,
        p: d.payload,
      })),
    );
    await db.query(
      `INSERT INTO deliveries (config_id, team_id, kind, event, scan_id, run, vuln_hash, payload)
       SELECT x.c, x.t, x.k, x.e, x.s, x.r, x.h, x.p FROM jsonb_to_recordset($1::jsonb) AS x(c text, t text, k text, e text, s text, r int, h text, p jsonb)
       ON CONFLICT DO NOTHING`,
      [json],
    );
  }
}

export interface DeliveryRow {
  id: string;
  config_id: string;
  team_id: string;
  kind: 'alert' | 'ticket';
  event: string;
  scan_id: string | null;
  run: number | null;
  vuln_hash: string | null;
  payload: Record<string, unknown>;
  status: string;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
  response_status: number | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
}

const DELIVERY_COLUMNS = `id::text AS id, config_id, team_id, kind, event, scan_id, run, vuln_hash, payload, status, attempts,
  next_attempt_at, last_error, response_status, created_at, updated_at, delivered_at`;

/** Takes due pending deliveries: their next attempt moves `leaseSeconds` ahead while this process sends. */
export async function claimDeliveries(db: Db, limit: number, leaseSeconds: number): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `UPDATE deliveries SET next_attempt_at = now() + make_interval(secs => $2), attempts = attempts + 1, updated_at = now()
     WHERE id IN (SELECT id FROM deliveries WHERE status = 'pending' AND next_attempt_at <= now()
                  ORDER BY next_attempt_at, id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING ${DELIVERY_COLUMNS}`,
    [limit, leaseSeconds],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

export async function markDelivered(db: Db, id: string, responseStatus: number | null): Promise<void> {
  await db.query(
    `UPDATE deliveries SET status = 'delivered', delivered_at = now(), response_status = $2, last_error = NULL, updated_at = now() WHERE id = $1`,
    [id, responseStatus],
  );
}

/** A failed attempt: tried again after `retryInSeconds`, or failed for good when that is null. */
export async function markAttemptFailed(
  db: Db,
  id: string,
  error: string,
  responseStatus: number | null,
  retryInSeconds: number | null,
): Promise<void> {
  await db.query(
    `UPDATE deliveries SET last_error = $2, response_status = $3, updated_at = now(),
       status = CASE WHEN $4::float8 IS NULL THEN 'failed' ELSE 'pending' END,
       next_attempt_at = CASE WHEN $4::float8 IS NULL THEN next_attempt_at ELSE now() + make_interval(secs => $4::float8) END
     WHERE id = $1`,
    [id, error.slice(0, 500), responseStatus, retryInSeconds],
  );
}

export async function listDeliveries(db: Db, configId: string, limit: number, offset: number): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY_COLUMNS} FROM deliveries WHERE config_id = $1 ORDER BY deliveries.id DESC LIMIT $2 OFFSET $3`,
    [configId, limit, offset],
  );
  return rows;
}

export interface TicketRow {
  config_id: string;
  vuln_hash: string;
  tracker: string;
  external_id: string;
  url: string;
}

/**
 * Reserves the ticket of a finding before the tracker is asked: true when this caller must create it;
 * otherwise the existing row (external_id '' while another attempt is still creating it).
 */
export async function reserveTicket(
  db: Db,
  configId: string,
  vulnHash: string,
  tracker: string,
): Promise<true | TicketRow> {
  const ins = await db.query(
    `INSERT INTO report_tickets (config_id, vuln_hash, tracker, external_id) VALUES ($1, $2, $3, '') ON CONFLICT DO NOTHING`,
    [configId, vulnHash, tracker],
  );
  if (ins.rowCount > 0) return true;
  const { rows } = await db.query<TicketRow>('SELECT * FROM report_tickets WHERE config_id = $1 AND vuln_hash = $2', [
    configId,
    vulnHash,
  ]);
  return rows[0] ?? true;
}

export async function completeTicket(
  db: Db,
  configId: string,
  vulnHash: string,
  externalId: string,
  url: string,
): Promise<void> {
  await db.query(
    'UPDATE report_tickets SET external_id = $3, url = $4, updated_at = now() WHERE config_id = $1 AND vuln_hash = $2',
    [configId, vulnHash, externalId, url],
  );
}

/** Drops a reservation whose creation failed, so a retry can try again. */
export async function releaseTicket(db: Db, configId: string, vulnHash: string): Promise<void> {
  await db.query(`DELETE FROM report_tickets WHERE config_id = $1 AND vuln_hash = $2 AND external_id = ''`, [
    configId,
    vulnHash,
  ]);
}

export async function touchTicket(db: Db, configId: string, vulnHash: string): Promise<void> {
  await db.query('UPDATE report_tickets SET updated_at = now() WHERE config_id = $1 AND vuln_hash = $2', [
    configId,
    vulnHash,
  ]);
}

export async function listTickets(
  db: Db,
  configId: string,
): Promise<(TicketRow & { created_at: Date; updated_at: Date })[]> {
  const { rows } = await db.query<TicketRow & { created_at: Date; updated_at: Date }>(
    'SELECT * FROM report_tickets WHERE config_id = $1 ORDER BY created_at, vuln_hash',
    [configId],
  );
  return rows;
}

export interface FindingSummary {
  vuln_hash: string;
  template_id: string;
  name: string | null;
  severity: string;
  host: string;
  matched_at: string;
  tags: string[];
  first_run: number;
  last_run: number;
  description: string | null;
}

/** Findings of a scan seen in a run; `onlyNew`: those first seen in it. */
export async function runFindings(
  db: Db,
  scanId: string,
  run: number,
  onlyNew: boolean,
  limit = 10_000,
): Promise<FindingSummary[]> {
  const { rows } = await db.query<FindingSummary>(
    `SELECT vuln_hash, template_id, name, severity, host, matched_at, tags, first_run, last_run,
       event->'info'->>'description' AS description
     FROM scan_results WHERE scan_id = $1 AND ${onlyNew ? 'first_run = $2' : 'last_run = $2'}
     ORDER BY id LIMIT $3`,
    [scanId, run, limit],
  );
  return rows;
}
