// SQL of the agents area: the agents table, and what the list shows of their running chunks.
import type { Db } from '../../db/connection.ts';

export interface AgentRow {
  id: string;
  team_id: string;
  name: string;
  tags: string[];
  networks: string[];
  version: string;
  key_prefix: string;
  created_by: number | null;
  created_at: Date;
  last_seen: Date | null;
  headless: boolean;
}

const COLUMNS = 'id, team_id, name, tags, networks, version, key_prefix, created_by, created_at, last_seen, headless';

/**
 * Registers an agent, or re-registers the team's agent of that name (an agent started again): its tags,
 * networks and version are replaced and its credential rotated, so the previous credential stops working.
 */
export async function upsertAgent(
  db: Db,
  a: {
    id: string;
    teamId: string;
    name: string;
    tags: string[];
    networks: string[];
    version: string;
    keyHash: string;
    keyPrefix: string;
    createdBy: number;
  },
): Promise<AgentRow> {
  const { rows } = await db.query<AgentRow>(
    `INSERT INTO agents (id, team_id, name, tags, networks, version, key_hash, key_prefix, created_by)
     VALUES ($1, $2, $3, $4::text[], $5::text[], $6, $7, $8, $9)
     ON CONFLICT (team_id, name) DO UPDATE SET tags = EXCLUDED.tags, networks = EXCLUDED.networks,
       version = EXCLUDED.version, key_hash = EXCLUDED.key_hash, key_prefix = EXCLUDED.key_prefix
     RETURNING ${COLUMNS}`,
    [a.id, a.teamId, a.name, a.tags, a.networks, a.version, a.keyHash, a.keyPrefix, a.createdBy],
  );
  return rows[0]!;
}

/** The agent a credential belongs to; marks it seen. */
export async function agentByKeyHash(db: Db, keyHash: string): Promise<AgentRow | undefined> {
  const { rows } = await db.query<AgentRow>(
    `UPDATE agents SET last_seen = now() WHERE key_hash = $1 RETURNING ${COLUMNS}`,
    [keyHash],
  );
  return rows[0];
}

/** What an agent declares about itself when it starts and on each heartbeat. */
export async function declare(
  db: Db,
  id: string,
  d: { tags?: string[]; networks?: string[]; version?: string; headless?: boolean },
): Promise<void> {
  await db.query(
    `UPDATE agents SET tags = COALESCE($2::text[], tags), networks = COALESCE($3::text[], networks),
       version = COALESCE($4, version), headless = COALESCE($5, headless), last_seen = now() WHERE id = $1`,
    [id, d.tags ?? null, d.networks ?? null, d.version ?? null, d.headless ?? null],
  );
}

export async function listAgents(db: Db, teamId: string): Promise<AgentRow[]> {
  const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE team_id = $1 ORDER BY name, id`, [
    teamId,
  ]);
  return rows;
}

export async function getAgent(db: Db, teamId: string, id: string): Promise<AgentRow | undefined> {
  const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE team_id = $1 AND id = $2`, [
    teamId,
    id,
  ]);
  return rows[0];
}

export async function deleteAgent(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM agents WHERE team_id = $1 AND id = $2', [teamId, id]);
  return res.rowCount > 0;
}

/** Chunks each of the team's agents holds a live lease on (reads the scans area's table). */
export async function runningChunks(db: Db, teamId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ agent_id: string; n: number }>(
    `SELECT c.agent_id, count(*)::int AS n FROM scan_chunks c JOIN scans s ON s.id = c.scan_id
      WHERE s.team_id = $1 AND c.agent_id IS NOT NULL AND c.status = 'running' AND c.lease_expires_at > now()
        AND s.status IN ('queued', 'starting', 'running') AND s.rescan_count = c.run
      GROUP BY c.agent_id`,
    [teamId],
  );
  return new Map(rows.map((r) => [r.agent_id, r.n]));
}
