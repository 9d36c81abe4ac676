// SQL of asset events (asset_events): what the inventory tells the monitor (a policy matched, a run found
// new assets). Written by the assets area; claimed and finished by the monitor loop, each row once across
// processes.
import type { Db } from '../../db/connection.ts';

/** A policy's alert: the alerting configs it names, and the policy event. */
export interface PolicyMatchData {
  configIds: string[];
  eventId: string;
  policyName: string;
  payload: Record<string, unknown>;
}
/** New assets of an enumeration run (run > 1). */
export interface NewAssetsData {
  configIds: string[];
  enumerationId: string;
  enumerationName: string;
  run: number;
  assets: { host: string; port?: number | null }[];
}

export type AssetEvent =
  | { id: string; team_id: string; event: 'asset_policy_match'; data: PolicyMatchData }
  | { id: string; team_id: string; event: 'new_asset'; data: NewAssetsData };

export async function insertAssetEvent(db: Db, teamId: string, e: Pick<AssetEvent, 'event' | 'data'>): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    'INSERT INTO asset_events (team_id, event, data) VALUES ($1, $2, $3::jsonb) RETURNING id::text AS id',
    [teamId, e.event, JSON.stringify(e.data)],
  );
  return rows[0]!.id;
}

/** Takes up to `limit` pending events for `leaseSeconds` (another process takes them after that). */
export async function claimAssetEvents(db: Db, limit: number, leaseSeconds: number): Promise<AssetEvent[]> {
  const { rows } = await db.query<AssetEvent>(
    `UPDATE asset_events SET lease_until = now() + make_interval(secs => $2)
     WHERE id IN (SELECT id FROM asset_events WHERE done_at IS NULL AND (lease_until IS NULL OR lease_until < now())
                  ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
     RETURNING id::text AS id, team_id, event, data`,
    [limit, leaseSeconds],
  );
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

export async function finishAssetEvent(db: Db, id: string): Promise<void> {
  await db.query('UPDATE asset_events SET done_at = now() WHERE id = $1', [id]);
}

/** Handled events older than a week are of no more use (deliveries keep the record). */
export async function pruneAssetEvents(db: Db): Promise<void> {
  await db.query(`DELETE FROM asset_events WHERE done_at < now() - interval '7 days'`);
}
