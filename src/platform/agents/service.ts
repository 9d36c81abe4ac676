// Agents: registering and removing them (a team's Owner and Admins), what the list shows, the agent's own
// credential (it opens only the agent endpoints), and the directory the scans area routes runs with.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, notFound, unauthorized } from '../shared/errors.ts';
import { hashToken, newToken } from '../shared/tokens.ts';
import { AGENT_LEASE_SECONDS, scansPinnedTo, type AgentIdentity } from '../scans/agent-work.ts';
import { setAgentDirectory, type AgentRouting, type MatchedAgent } from '../scans/agent-routing.ts';
import { failScan } from '../scans/store.ts';
import { agentCoversScan, networkProblem } from './networks.ts';
import * as store from './store.ts';

/** Prefix of agent credentials: `vigil agent --key` tells them from users' API keys by it. */
export const AGENT_KEY_PREFIX = 'vga_';

const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,62}$/;

export interface AgentDeclaration {
  tags?: string[];
  networks?: string[];
  version?: string;
  /** Chromium was found when the agent started: chunks of scans with headless templates may go to it. */
  headless?: boolean;
}

/** Checked tags, networks and version; a 400 naming the first problem. */
export function checkDeclaration(d: AgentDeclaration): AgentDeclaration {
  const out: AgentDeclaration = {};
  if (d.tags) {
    const tags = [...new Set(d.tags.map((t) => t.trim()).filter(Boolean))];
    const bad = tags.find((t) => !TAG.test(t));
    if (bad !== undefined) throw badRequest(`tag "${bad}": use letters, digits and _ . : - (at most 63)`, 'tags');
    if (tags.length > 50) throw badRequest('at most 50 tags', 'tags');
    out.tags = tags;
  }
  if (d.networks) {
    const nets = [...new Set(d.networks.map((n) => n.trim()).filter(Boolean))];
    if (nets.length > 500) throw badRequest('at most 500 networks', 'networks');
    for (const n of nets) {
      const problem = networkProblem(n);
      if (problem) throw badRequest(problem, 'networks');
    }
    out.networks = nets;
  }
  if (d.version !== undefined) out.version = d.version.trim().slice(0, 64);
  if (typeof d.headless === 'boolean') out.headless = d.headless;
  return out;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

/**
 * Registers an agent of the caller's team (or re-registers the one of that name, rotating its
 * credential). The credential is returned once; only its hash is stored.
 */
export async function registerAgent(
  ctx: Pick<AppContext, 'db'>,
  caller: Caller,
  body: { name: string } & AgentDeclaration,
): Promise<{ agent: ReturnType<typeof agentJson>; key: string }> {
  const name = body.name.trim();
  if (!NAME.test(name)) throw badRequest('name: use letters, digits and _ . - (at most 63)', 'name');
  const d = checkDeclaration(body);
  const key = newToken(AGENT_KEY_PREFIX);
  const row = await store.upsertAgent(ctx.db, {
    id: `agt_${randomBytes(8).toString('hex')}`,
    teamId: caller.teamId,
    name,
    tags: d.tags ?? [],
    networks: d.networks ?? [],
    version: d.version ?? '',
    keyHash: hashToken(key),
    keyPrefix: key.slice(0, 10),
    createdBy: caller.userId,
  });
  return { agent: agentJson(row, 0), key };
}

function isOnline(lastSeen: Date | null): boolean {
  return Boolean(lastSeen && Date.now() - new Date(lastSeen).getTime() < AGENT_LEASE_SECONDS * 1000);
}

export function agentJson(r: store.AgentRow, running: number) {
  return {
    id: r.id,
    name: r.name,
    tags: r.tags,
    networks: r.networks,
    version: r.version,
    online: isOnline(r.last_seen),
    headless: r.headless,
    last_seen: r.last_seen ? new Date(r.last_seen).toISOString() : '',
    running_chunks: running,
    key_prefix: r.key_prefix,
    created_at: new Date(r.created_at).toISOString(),
  };
}

export async function listAgents(ctx: Pick<AppContext, 'db'>, teamId: string) {
  const [rows, running] = await Promise.all([store.listAgents(ctx.db, teamId), store.runningChunks(ctx.db, teamId)]);
  return rows.map((r) => agentJson(r, running.get(r.id) ?? 0));
}

export async function getAgent(ctx: Pick<AppContext, 'db'>, teamId: string, id: string) {
  const row = await store.getAgent(ctx.db, teamId, id);
  if (!row) throw notFound(`agent ${id} not found`, 'agent_id');
  const running = await store.runningChunks(ctx.db, teamId);
  return agentJson(row, running.get(row.id) ?? 0);
}

/**
 * Removes an agent: its credential stops working at once. Scans whose remaining chunks only it could run
 * (pinned to it, or its mirror) fail saying so instead of waiting forever.
 */
export async function removeAgent(ctx: Pick<AppContext, 'db'>, teamId: string, id: string): Promise<void> {
  const row = await store.getAgent(ctx.db, teamId, id);
  if (!row) throw notFound(`agent ${id} not found`, 'agent_id');
  const pinned = await scansPinnedTo(ctx.db, teamId, id);
  await store.deleteAgent(ctx.db, teamId, id);
  for (const scanId of pinned) await failScan(ctx.db, scanId, `agent ${row.name} (${id}) was removed`);
}

/** The agent an X-Agent-Key credential belongs to; 401 otherwise. */
export async function authenticateAgent(
  db: Db,
  key: string | undefined,
): Promise<AgentIdentity & { row: store.AgentRow }> {
  const k = key?.trim();
  if (!k || !k.startsWith(AGENT_KEY_PREFIX)) throw unauthorized('missing or invalid agent key (X-Agent-Key)');
  const row = await store.agentByKeyHash(db, hashToken(k));
  if (!row) throw unauthorized('missing or invalid agent key (X-Agent-Key)');
  return { id: row.id, teamId: row.team_id, name: row.name, row };
}

export async function declareAgent(ctx: Pick<AppContext, 'db'>, agent: AgentIdentity, d: AgentDeclaration) {
  const checked = checkDeclaration(d);
  if (checked.tags || checked.networks || checked.version !== undefined || checked.headless !== undefined)
    await store.declare(ctx.db, agent.id, checked);
}

/** Which of a team's agents a scan's routing selects (agents/ provides this to scans/ when it loads). */
export async function matchingAgents(
  db: Db,
  teamId: string,
  r: AgentRouting,
  targets: string[],
): Promise<MatchedAgent[]> {
  const rows = await store.listAgents(db, teamId);
  const id = r.agent_id?.trim();
  return rows
    .filter((a) => !id || a.id === id || a.name === id)
    .filter((a) => (r.agent_tags ?? []).every((t) => a.tags.includes(t)))
    .filter((a) => !r.agent_networks?.length || agentCoversScan(a.networks, r.agent_networks, targets))
    .map((a) => ({ id: a.id, name: a.name, online: isOnline(a.last_seen), headless: a.headless }));
}

setAgentDirectory({ matching: matchingAgents });
