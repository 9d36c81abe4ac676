// SQL of agent chunks (scan_chunks rows with agent_ids): leasing one to an agent, renewing and releasing
// leases, and checking a lease before a result batch or the chunk's end is stored.
import type { Db } from '../../db/connection.ts';
import type { ChunkRow, ScanRow } from './store.ts';

export interface LeasedChunk {
  chunk: ChunkRow & { lease_token: string; mirror_of: string };
  scan: ScanRow;
}

/**
 * Leases the oldest chunk this agent may run: a pending one, or one whose lease expired (its agent went
 * silent). Counts the attempt and moves a queued scan to starting (clearing its "waiting for an agent"
 * note). SKIP LOCKED: agents leasing at once never wait on each other or take the same chunk.
 */
export async function leaseChunk(
  db: Db,
  agent: { id: string; teamId: string; name: string },
  token: string,
  leaseSeconds: number,
): Promise<LeasedChunk | undefined> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<LeasedChunk['chunk']>(
      `UPDATE scan_chunks c SET status = 'running', attempts = c.attempts + 1, started_at = now(), worker = $3,
         agent_id = $1, lease_token = $4, lease_expires_at = now() + make_interval(secs => $5), batch_seq = 0
       WHERE (c.scan_id, c.run, c.idx) = (
         SELECT c2.scan_id, c2.run, c2.idx FROM scan_chunks c2 JOIN scans s ON s.id = c2.scan_id
          WHERE c2.agent_ids @> ARRAY[$1]::text[] AND s.team_id = $2 AND s.rescan_count = c2.run
            AND s.status IN ('queued', 'starting', 'running')
            AND (c2.status = 'pending' OR (c2.status = 'running' AND c2.lease_expires_at < now()))
          ORDER BY s.created_at, c2.scan_id, c2.run, c2.idx
          LIMIT 1 FOR UPDATE OF c2 SKIP LOCKED)
       RETURNING c.scan_id, c.run, c.idx, c.targets, c.status, c.attempts, c.lease_token, c.mirror_of`,
      [agent.id, agent.teamId, `agent:${agent.name}`, token, leaseSeconds],
    );
    if (!rows[0]) return undefined;
    const scan = await tx.query<ScanRow>(
      `UPDATE scans SET status = CASE WHEN status = 'queued' THEN 'starting' ELSE status END,
         failure_reason = CASE WHEN status = 'queued' THEN NULL ELSE failure_reason END,
         started_at = COALESCE(started_at, now()), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [rows[0].scan_id],
    );
    return { chunk: rows[0], scan: scan.rows[0]! };
  });
}

/**
 * Renews this agent's leases; returns the tokens that are no longer valid (the scan was stopped, deleted
 * or run again, or the lease expired and went to another agent): the agent stops those chunks.
 */
export async function renewLeases(db: Db, agentId: string, tokens: string[], leaseSeconds: number): Promise<string[]> {
  if (tokens.length === 0) return [];
  const { rows } = await db.query<{ lease_token: string }>(
    `UPDATE scan_chunks c SET lease_expires_at = now() + make_interval(secs => $3)
       FROM scans s
      WHERE c.lease_token = ANY($2::text[]) AND c.agent_id = $1 AND c.status = 'running'
        AND s.id = c.scan_id AND s.rescan_count = c.run AND s.status IN ('queued', 'starting', 'running')
      RETURNING c.lease_token`,
    [agentId, tokens, leaseSeconds],
  );
  const alive = new Set(rows.map((r) => r.lease_token));
  return tokens.filter((t) => !alive.has(t));
}

export interface HeldLease {
  scan_id: string;
  team_id: string;
  run: number;
  idx: number;
  batch_seq: number;
  mirror_of: string;
}

/**
 * The chunk a lease token holds, locked for this transaction, while the lease is this agent's, the chunk
 * runs and its scan still runs that run; undefined otherwise. Locks the chunk row before the scan row, the
 * order finishChunk and failScan use.
 */
export async function lockLease(db: Db, agentId: string, token: string): Promise<HeldLease | undefined> {
  const { rows } = await db.query<HeldLease>(
    `SELECT c.scan_id, s.team_id, c.run, c.idx, c.batch_seq, c.mirror_of
       FROM scan_chunks c JOIN scans s ON s.id = c.scan_id
      WHERE c.lease_token = $2 AND c.agent_id = $1 AND c.status = 'running'
        AND s.rescan_count = c.run AND s.status IN ('queued', 'starting', 'running')
      FOR UPDATE OF c`,
    [agentId, token],
  );
  return rows[0];
}

export async function setBatchSeq(db: Db, token: string, seq: number): Promise<void> {
  await db.query('UPDATE scan_chunks SET batch_seq = $2 WHERE lease_token = $1', [token, seq]);
}

/** Gives a leased chunk back at once (an agent shutting down): the next matching agent leases it. */
export async function releaseLease(db: Db, agentId: string, token: string): Promise<boolean> {
  const res = await db.query(
    `UPDATE scan_chunks SET status = 'pending', lease_token = NULL, lease_expires_at = NULL
      WHERE lease_token = $2 AND agent_id = $1 AND status = 'running'`,
    [agentId, token],
  );
  return res.rowCount > 0;
}

/** Scans of a team still waiting on chunks that only the given agent may run (it is being removed). */
export async function scansPinnedTo(db: Db, teamId: string, agentId: string): Promise<string[]> {
  const { rows } = await db.query<{ scan_id: string }>(
    `SELECT DISTINCT c.scan_id FROM scan_chunks c JOIN scans s ON s.id = c.scan_id
      WHERE s.team_id = $1 AND c.agent_ids = ARRAY[$2]::text[] AND c.status IN ('pending', 'running')
        AND s.rescan_count = c.run AND s.status IN ('queued', 'starting', 'running')`,
    [teamId, agentId],
  );
  return rows.map((r) => r.scan_id);
}

/** A mirrored run makes every attempt once per agent: its total (and so its progress) counts each copy. */
export async function scaleTotals(db: Db, scanId: string, copies: number): Promise<void> {
  await db.query('UPDATE scans SET total_scan = total_target::bigint * total_template * $2 WHERE id = $1', [
    scanId,
    copies,
  ]);
}
