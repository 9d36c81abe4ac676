// Splitting a scan run into chunks (a batch of targets with all of the scan's templates) and queueing one
// pg-boss job per chunk; any worker takes any chunk. A scan addressed to agents gets no jobs: its chunks
// list the agents that may lease them (agent-routing.ts, agents/).
import type { AppContext } from '../shared/context.ts';
import type { Db } from '../../db/connection.ts';
import { headlessWorkerRunning } from '../worker/store.ts';
import { enqueueMany } from '../worker/registry.ts';
import * as store from './store.ts';
import { scaleTotals } from './agent-store.ts';
import { agentDirectory, noAgentReason, notifyAgentWork, routedToAgents, type AgentRouting } from './agent-routing.ts';

export const SCAN_CHUNK_JOB = 'scans.chunk';
/** Chunks of scans with headless templates: read only by workers that found Chromium (worker/runtime.ts). */
export const SCAN_CHUNK_HEADLESS_JOB = 'scans.chunk.headless';

/** The scan-log line of a scan with headless templates that no worker or agent with Chromium can take. */
export const NO_BROWSER_NOTICE =
  'headless templates not run: no worker with Chromium was running when the scan started, so they are skipped ' +
  "(install Debian's chromium where a worker runs: apt-get install chromium, or set VIGIL_CHROMIUM)";

/** The scan-log line of a headless chunk taken over by a worker without Chromium (worker/runtime.ts). */
export const STRANDED_NO_BROWSER_NOTICE =
  'headless templates not run: the worker with Chromium this scan was sent to stopped before running it, and no ' +
  'other is running, so a worker without Chromium ran the rest and skipped them ' +
  "(install Debian's chromium where a worker runs: apt-get install chromium, or set VIGIL_CHROMIUM)";

export interface ChunkJob {
  scanId: string;
  run: number;
  idx: number;
}

/**
 * Targets per chunk: about eight chunks per run so several workers share a scan, at most 250 targets so a
 * retried chunk repeats little work. VIGIL_SCAN_CHUNK_TARGETS fixes the size (tests, tuning).
 */
export function chunkSize(targets: number, env: NodeJS.ProcessEnv = process.env): number {
  const fixed = Number(env.VIGIL_SCAN_CHUNK_TARGETS);
  if (Number.isInteger(fixed) && fixed > 0) return fixed;
  return Math.max(1, Math.min(250, Math.ceil(targets / 8)));
}

export function splitTargets(targets: string[], size: number): string[][] {
  const out: string[][] = [];
  for (let i = 0; i < targets.length; i += size) out.push(targets.slice(i, i + size));
  return out;
}

/** Writes the run's chunks (status queued) and sends their jobs. Without a queue the scan stays queued. */
export async function startRun(ctx: AppContext, scanId: string, run: number, targets: string[]): Promise<void> {
  const chunks = splitTargets(targets, chunkSize(targets.length));
  const scan = await store.getScanById(ctx.db, scanId);
  const routing = (scan?.request ?? {}) as AgentRouting;
  if (scan && routedToAgents(routing)) return startAgentRun(ctx, scan, run, targets, chunks, routing);
  // Headless templates go to workers that found Chromium; with none running, any worker takes the chunks
  // and the scan log says the headless templates are skipped (and why) instead of leaving them waiting.
  const browser = await store.needsBrowser(ctx.db, scanId);
  const capable = browser && (await headlessWorkerRunning(ctx.db));
  await ctx.db.transaction(async (tx) => {
    await store.startRun(tx, scanId, run, chunks);
    if (browser && !capable && scan) await noBrowserNotice(tx, scan, run);
  });
  if (!ctx.queue) {
    ctx.log.warn({ scan_id: scanId }, 'no job queue in this process: the scan stays queued');
    return;
  }
  try {
    const name = capable ? SCAN_CHUNK_HEADLESS_JOB : SCAN_CHUNK_JOB;
    // enqueueMany also wakes this process's own worker (vigil serve) rather than leaving them to its next poll.
    await enqueueMany(
      ctx,
      name,
      chunks.map((_, idx) => ({ scanId, run, idx }) satisfies ChunkJob),
    );
  } catch (err) {
    ctx.log.error({ err, scan_id: scanId }, 'queueing scan chunks failed');
    await store.failScan(ctx.db, scanId, 'could not queue the scan (details in the server log)');
  }
}

/**
 * An agent scan's run: `distribute` lists every matching agent on each chunk (any of them leases it);
 * `mirror` gives each matching agent its own copy of every chunk. With no matching agent the scan fails
 * saying so; with none online it waits, its status saying why.
 */
async function startAgentRun(
  ctx: AppContext,
  scan: store.ScanRow,
  run: number,
  targets: string[],
  chunks: string[][],
  routing: AgentRouting,
): Promise<void> {
  const dir = agentDirectory();
  let matched = dir ? await dir.matching(ctx.db, scan.team_id, routing, targets) : [];
  // Headless templates: only the matching agents that said they have Chromium get the chunks; when none
  // has, all of them do and the scan log says the headless templates are skipped.
  let noBrowser = false;
  if (matched.length > 0 && (await store.needsBrowser(ctx.db, scan.id))) {
    const capable = matched.filter((a) => a.headless);
    if (capable.length > 0) matched = capable;
    else noBrowser = true;
  }
  if (matched.length === 0) {
    await ctx.db.transaction((tx) =>
      store.startRun(
        tx,
        scan.id,
        run,
        chunks,
        chunks.map(() => ({ agentIds: [], mirrorOf: '' })),
      ),
    );
    await store.failScan(ctx.db, scan.id, noAgentReason(routing));
    return;
  }
  const ids = matched.map((a) => a.id);
  let all = chunks;
  let routes: store.ChunkRoute[];
  if (routing.agent_behavior === 'mirror' && !routing.agent_id?.trim()) {
    all = matched.flatMap(() => chunks);
    routes = matched.flatMap((a) => chunks.map(() => ({ agentIds: [a.id], mirrorOf: a.id })));
  } else {
    routes = chunks.map(() => ({ agentIds: ids, mirrorOf: '' }));
  }
  const waiting = matched.some((a) => a.online)
    ? null
    : `waiting for an agent: ${matched.map((a) => a.name).join(', ')} ${matched.length === 1 ? 'is' : 'are'} offline`;
  const copies = all.length / Math.max(1, chunks.length);
  await ctx.db.transaction(async (tx) => {
    await store.startRun(tx, scan.id, run, all, routes, waiting);
    await scaleTotals(tx, scan.id, copies);
    if (noBrowser) await noBrowserNotice(tx, scan, run, AGENT_NO_BROWSER_NOTICE);
  });
  notifyAgentWork();
}

export const AGENT_NO_BROWSER_NOTICE =
  'headless templates not run: none of the agents this scan goes to has Chromium, so they are skipped ' +
  "(install Debian's chromium where an agent runs: apt-get install chromium, or set VIGIL_CHROMIUM)";

/**
 * Before a worker without Chromium runs a stranded headless chunk: the run's scan log says so, once (a
 * notice's key is the same for every chunk of the run). Nothing when the scan is gone.
 */
export async function strandedNotice(db: Db, job: ChunkJob): Promise<void> {
  const scan = await store.getScanById(db, job.scanId);
  if (scan) await noBrowserNotice(db, scan, job.run, STRANDED_NO_BROWSER_NOTICE);
}

/** One notice in the run's scan log (not an attempt: progress does not count it). */
async function noBrowserNotice(db: Db, scan: store.ScanRow, run: number, text = NO_BROWSER_NOTICE): Promise<void> {
  await store.insertLogs(db, scan.id, scan.team_id, run, [
    {
      target: '',
      templateId: 'headless',
      matched: false,
      severity: null,
      error: text,
      event: null,
      vulnHash: null,
      at: new Date(),
      notice: true,
    },
  ]);
}
