// The scans side of agents: leasing a chunk (with its templates and engine settings), storing a chunk's
// result batches exactly once (lease token + sequence number), renewing leases and finishing a chunk.
// The agents area authenticates the agent and calls these with its identity; every statement is bounded
// to that agent's team and to leases it holds, so an agent reaches nothing but its own work.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../shared/context.ts';
import { badRequest, conflict } from '../shared/errors.ts';
import type { EngineOptions } from './apply-configs.ts';
import { workflowDependencies } from './workflow-deps.ts';
import { toFindingRow, logEventText, type ResultEvent } from './findings.ts';
import { hostOf } from '../shared/target-patterns.ts';
import { chunkRate, slotCount } from './slots.ts';
import { MAX_CHUNK_ATTEMPTS } from './chunk.ts';
import { waitForAgentWork } from './agent-routing.ts';
import * as store from './store.ts';
import * as agentStore from './agent-store.ts';

/** Seconds a lease lasts without a heartbeat (VIGIL_AGENT_LEASE_SECONDS); agents renew at a third of it. */
export const AGENT_LEASE_SECONDS = Math.max(3, Number(process.env.VIGIL_AGENT_LEASE_SECONDS ?? 60) || 60);

export interface AgentIdentity {
  id: string;
  teamId: string;
  name: string;
}

export interface LeasedWork {
  scan_id: string;
  run: number;
  idx: number;
  lease: string;
  targets: string[];
  /** scan_id:run: the agent keeps the templates of a run it has under this key. */
  templates_key: string;
  /** Absent when the agent said it has this run's templates. */
  templates?: { raw: string; uri: string; payload_files?: Record<string, string[]>; dependency?: boolean }[];
  options: {
    concurrency?: number;
    bulk_size?: number;
    rate_limit?: number;
    timeout?: number;
    retries?: number;
    max_host_errors?: number;
    vars?: Record<string, unknown>;
    headers?: [string, string][];
    socks5_proxy?: string;
  };
  lease_seconds: number;
}

/**
 * Leases one chunk for the agent, waiting up to `waitSeconds` for one (long polling); undefined when none
 * came. `have` lists the templates_key values whose templates the agent already holds.
 */
export async function leaseWork(
  ctx: Pick<AppContext, 'db' | 'log'>,
  agent: AgentIdentity,
  waitSeconds: number,
  have: string[],
  signal?: AbortSignal,
): Promise<LeasedWork | undefined> {
  const until = Date.now() + waitSeconds * 1000;
  for (;;) {
    const leased = await agentStore.leaseChunk(ctx.db, agent, randomUUID(), AGENT_LEASE_SECONDS);
    if (leased) {
      if (leased.chunk.attempts > MAX_CHUNK_ATTEMPTS) {
        await store.failScan(ctx.db, leased.scan.id, `chunk ${leased.chunk.idx} failed ${MAX_CHUNK_ATTEMPTS} times`);
        continue;
      }
      return describeLease(ctx, leased, have);
    }
    const left = until - Date.now();
    if (left <= 0 || signal?.aborted) return undefined;
    // New runs wake this at once (same process); expired leases are found by the next look.
    await waitForAgentWork(Math.min(left, 1000), signal);
  }
}

async function describeLease(
  ctx: Pick<AppContext, 'db'>,
  { chunk, scan }: agentStore.LeasedChunk,
  have: string[],
): Promise<LeasedWork> {
  const key = `${scan.id}:${chunk.run}`;
  const eo = scan.engine_options as EngineOptions;
  const work: LeasedWork = {
    scan_id: scan.id,
    run: chunk.run,
    idx: chunk.idx,
    lease: chunk.lease_token,
    targets: chunk.targets,
    templates_key: key,
    options: {
      concurrency: eo.concurrency,
      bulk_size: eo.bulkSize,
      rate_limit: chunkRate(eo.rateLimit, slotCount(eo, scan.chunks_total)),
      timeout: eo.timeout,
      retries: eo.retries,
      max_host_errors: eo.maxHostErrors,
      vars: eo.vars as Record<string, unknown> | undefined,
      headers: eo.headers,
      socks5_proxy: (scan.request.socks5_proxy as string | undefined) || eo.socks5Proxy || undefined,
    },
    lease_seconds: AGENT_LEASE_SECONDS,
  };
  if (!have.includes(key)) {
    const rows = await store.loadTemplates(ctx.db, scan.id);
    const deps = await workflowDependencies(ctx.db, rows);
    work.templates = [
      ...rows.map((t) => ({ raw: t.raw, uri: t.uri, ...(t.payloadFiles ? { payload_files: t.payloadFiles } : {}) })),
      ...deps.map((d) => ({
        raw: d.raw,
        uri: d.uri,
        dependency: true,
        ...(d.payloadFiles ? { payload_files: d.payloadFiles } : {}),
      })),
    ];
  }
  return work;
}

/** One attempt's scan-log line as an agent sends it. */
export interface AgentLogLine {
  target: string;
  template_id: string;
  matched: boolean;
  severity?: string | null;
  error?: string | null;
  at?: string;
}

export interface ResultBatch {
  lease: string;
  seq: number;
  results: ResultEvent[];
  logs: AgentLogLine[];
}

/**
 * Stores one batch of a leased chunk's findings and log lines, exactly once: batches are numbered from 1
 * per lease; a batch already stored is acknowledged without storing it again, a gap is refused (the agent
 * sends them in order), and a lease that is no longer the agent's (expired and taken over, scan stopped)
 * is refused with 409 so the agent stops the chunk.
 */
export async function storeBatch(
  ctx: Pick<AppContext, 'db'>,
  agent: AgentIdentity,
  b: ResultBatch,
): Promise<{ stored: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const held = await agentStore.lockLease(tx, agent.id, b.lease);
    if (!held || held.team_id !== agent.teamId) throw conflict('this lease is no longer held by this agent', 'lease');
    if (b.seq <= held.batch_seq) return { stored: false };
    if (b.seq !== held.batch_seq + 1) {
      throw conflict(`batch ${b.seq} arrived before batch ${held.batch_seq + 1}; send batches in order`, 'seq');
    }
    const origin = { agentId: agent.id, mirrorOf: held.mirror_of };
    const findings = b.results.filter((ev) => ev['matcher-status'] !== false).map(toFindingRow);
    // A matched log line carries the hash and event text of its first finding (as result-sink.ts does).
    const first = new Map<string, { hash: string; event: string }>();
    for (const f of findings) {
      const key = `${f.templateId}\u0000${hostOf(f.host)}`;
      if (!first.has(key)) first.set(key, { hash: f.vulnHash, event: logEventText(f.event as ResultEvent) });
    }
    const logs: store.LogRow[] = b.logs.map((l) => {
      const hit = l.matched ? first.get(`${l.template_id}\u0000${hostOf(l.target)}`) : undefined;
      const at = l.at ? new Date(l.at) : new Date();
      return {
        target: l.target,
        templateId: l.template_id,
        matched: l.matched,
        severity: l.severity ?? null,
        error: l.error ?? null,
        event: hit?.event ?? null,
        vulnHash: hit?.hash ?? null,
        at: Number.isNaN(at.getTime()) ? new Date() : at,
        notice: store.isNoticeRecord(l.error),
      };
    });
    if (findings.length) await store.insertFindings(tx, held.scan_id, held.team_id, held.run, findings, origin);
    if (logs.length) await store.insertLogs(tx, held.scan_id, held.team_id, held.run, logs, origin);
    await agentStore.setBatchSeq(tx, b.lease, b.seq);
    return { stored: true };
  });
}

/** Ends a leased chunk once all its batches (1..lastSeq) are stored; the scan finishes after its last chunk. */
export async function completeChunk(
  ctx: Pick<AppContext, 'db'>,
  agent: AgentIdentity,
  lease: string,
  lastSeq: number,
): Promise<void> {
  const held = await agentStore.lockLease(ctx.db, agent.id, lease);
  if (!held || held.team_id !== agent.teamId) throw conflict('this lease is no longer held by this agent', 'lease');
  if (held.batch_seq !== lastSeq) {
    throw badRequest(
      `the chunk's last batch is ${lastSeq} but ${held.batch_seq} were stored; send the rest first`,
      'seq',
    );
  }
  await store.finishChunk(ctx.db, held.scan_id, held.run, held.idx);
}

/** Renews the agent's leases; returns those it must stop (see agent-store.ts renewLeases). */
export function renewAgentLeases(
  ctx: Pick<AppContext, 'db'>,
  agent: AgentIdentity,
  leases: string[],
): Promise<string[]> {
  return agentStore.renewLeases(ctx.db, agent.id, leases, AGENT_LEASE_SECONDS);
}

export function releaseAgentLease(ctx: Pick<AppContext, 'db'>, agent: AgentIdentity, lease: string): Promise<boolean> {
  return agentStore.releaseLease(ctx.db, agent.id, lease);
}

export { scansPinnedTo } from './agent-store.ts';
export type { ResultEvent } from './findings.ts';
