// Scans addressed to agents (the spec's agent_id, agent_tags, agent_networks, agent_behavior). The scans
// area decides how a run's chunks are routed; which agents match is the agents area's knowledge (its
// table sits above this area), so it registers the directory here when it loads, like sources.ts.
import { EventEmitter } from 'node:events';
import type { Db } from '../../db/connection.ts';

export interface AgentRouting {
  agent_id?: string;
  agent_tags?: string[];
  agent_networks?: string[];
  agent_behavior?: 'distribute' | 'mirror';
}

export interface MatchedAgent {
  id: string;
  name: string;
  online: boolean;
  /** The agent said in its heartbeat that it found Chromium: it can run headless templates. */
  headless: boolean;
}

export interface AgentDirectory {
  /** The team's agents the routing selects for these targets. */
  matching(db: Db, teamId: string, routing: AgentRouting, targets: string[]): Promise<MatchedAgent[]>;
}

let directory: AgentDirectory | undefined;

export function setAgentDirectory(d: AgentDirectory | undefined): void {
  directory = d;
}

export function agentDirectory(): AgentDirectory | undefined {
  return directory;
}

/** True when the scan's request addresses agents; with no agent field set, workers run it as before. */
export function routedToAgents(r: AgentRouting): boolean {
  return Boolean(r.agent_id?.trim() || r.agent_tags?.length || r.agent_networks?.length);
}

/** Why no agent matches, in the words a user reads in the scan's status. */
export function noAgentReason(r: AgentRouting): string {
  const parts: string[] = [];
  if (r.agent_id?.trim()) parts.push(`agent_id ${r.agent_id.trim()}`);
  if (r.agent_tags?.length) parts.push(`all the tags ${r.agent_tags.join(', ')}`);
  if (r.agent_networks?.length) parts.push(`networks covering the targets (${r.agent_networks.join(', ')})`);
  return `no agent of this team matches the scan (${parts.join('; ')}): register one with vigil agent`;
}

// Long-polling agents in this process wait on this: a new agent run wakes them at once.
const work = new EventEmitter();
work.setMaxListeners(0);

export function notifyAgentWork(): void {
  work.emit('work');
}

/** Resolves on new agent work or after ms, whichever comes first; the signal ends the wait early. */
export function waitForAgentWork(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      work.off('work', done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    work.once('work', done);
    signal?.addEventListener('abort', done, { once: true });
  });
}
