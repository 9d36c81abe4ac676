// Running one chunk of a scan on a worker: take a slot of the scan, claim the chunk, run the engine on its
// targets with the scan's templates, then mark it done. Safe to run twice: a retried chunk (worker killed,
// job expired) stores nothing twice. The parts: chunk-guard.ts (stop checks and the slot lease),
// result-sink.ts (findings and log records in batches), engine-backend.ts (engine threads or this thread).
import { templateCertificates } from '../templates/signing.ts';
import { teamAllowsUnsigned } from '../auth/store.ts';
import type { ScanOptions } from '../../engine/index.ts';
import type { AppContext } from '../shared/context.ts';
import { setDebugOutput } from '../../engine/index.ts';
import { engineThreads } from './engine-pool.ts';
import { scanEgress } from '../shared/deny.ts';
import type { ChunkJob } from './dispatch.ts';
import type { EngineOptions } from './apply-configs.ts';
import { settleRetest } from './triage-store.ts';
import * as store from './store.ts';
import { acquireSlot, chunkConcurrency, chunkRate, releaseSlot, slotCount, type Lease } from './slots.ts';
import { guardChunk } from './chunk-guard.ts';
import { resultSink } from './result-sink.ts';
import { parsedTemplates, runInProcess, runOnThreads } from './engine-backend.ts';

// Templates of every team run here next to the worker's secrets: print_debug output (which can hold
// secrets, or forge log lines) goes nowhere on a platform worker.
setDebugOutput(undefined);

/** A chunk attempted this many times (crashes included) fails its scan instead of looping forever. */
export const MAX_CHUNK_ATTEMPTS = 5;

export interface ChunkRunOptions {
  /** Aborted when the worker must stop: the chunk throws so its job is retried elsewhere. */
  signal?: AbortSignal;
  /**
   * Secrets of this worker for a chunk's team (vigil worker --secret-file F --secret-team T); never leave
   * the process, never reach another team's chunk.
   */
  secretsFor?: (teamId: string) => ScanOptions['secrets'];
  /** How often to look for a stop, in ms. */
  pollMs?: number;
}

/** busy: every slot of the scan is held by other chunks; the caller queues the chunk again later. */
export type ChunkOutcome = 'done' | 'skipped' | 'stopped' | 'failed' | 'busy';

export async function runChunk(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  job: ChunkJob,
  opts: ChunkRunOptions = {},
): Promise<ChunkOutcome> {
  const { scanId, run, idx } = job;
  const peek = await store.peekChunk(ctx.db, scanId, run, idx);
  if (!peek) return 'skipped';
  const peo = peek.engine_options as EngineOptions;
  const slots = slotCount(peo, peek.chunks_total);
  // A chunk's rate-limit bucket starts full (one second's worth): the next chunk in a slot waits that
  // long after the previous one let go, so a slot never sends more than one continuous bucket would.
  const lease = await acquireSlot(ctx.db, scanId, run, idx, slots, (peo.rateLimit ?? 0) > 0 ? 1 : 0);
  if (!lease) return 'busy';
  try {
    return await runLeased(ctx, job, opts, lease, slots);
  } finally {
    await releaseSlot(ctx.db, scanId, lease).catch((err) =>
      ctx.log.warn({ err, scan_id: scanId }, 'releasing a chunk slot failed'),
    );
  }
}

/** The chunk, once its slot is held: claim, run the engine under the guard into the sink, finish. */
async function runLeased(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  job: ChunkJob,
  opts: ChunkRunOptions,
  lease: Lease,
  slots: number,
): Promise<ChunkOutcome> {
  const { scanId, run, idx } = job;
  if (lease.waitMs > 0) await sleep(lease.waitMs, opts.signal);
  const claimed = await store.claimChunk(ctx.db, scanId, run, idx);
  if (!claimed) return 'skipped';
  const { chunk, scan } = claimed;
  if (chunk.attempts > MAX_CHUNK_ATTEMPTS) {
    await store.failScan(ctx.db, scanId, `chunk ${idx} failed ${MAX_CHUNK_ATTEMPTS} times`);
    return 'failed';
  }
  // vigil serve runs the engine on worker threads (engine-pool.ts); vigil worker processes run it here.
  const pool = engineThreads();
  const preloaded = pool ? undefined : await parsedTemplates(ctx, scanId, run);
  if (preloaded && preloaded.length === 0) {
    await store.failScan(ctx.db, scanId, 'none of the scan templates could be loaded');
    return 'failed';
  }
  await store.markRunning(ctx.db, scanId, run);
  const eo = scan.engine_options as EngineOptions;
  // A scan's own proxy is chosen by the team's users; the worker's secrets are the operator's. They never
  // travel together: with a scan proxy the chunk runs without the worker's secrets (recorded once in the
  // scan log), so no user can route credentialed requests through a proxy of theirs.
  const socks5Proxy = (scan.request.socks5_proxy as string | undefined) || eo.socks5Proxy || undefined;
  let secrets: ScanOptions['secrets'] = opts.secretsFor?.(scan.team_id);
  const proxyNotice = Boolean(secrets && socks5Proxy);
  if (proxyNotice) secrets = undefined;

  const guard = guardChunk(ctx, { scanId, run, lease, signal: opts.signal, pollMs: opts.pollMs });
  const sink = resultSink(ctx, { scanId, teamId: scan.team_id, run, idx, attempt: chunk.attempts });
  if (proxyNotice && idx === 0) {
    sink.log({
      target: chunk.targets[0] ?? '',
      templateId: 'worker-secrets',
      matched: false,
      severity: null,
      at: new Date(),
      event: null,
      vulnHash: null,
      error: 'worker secrets not applied: the scan routes its requests through its own socks5_proxy',
      notice: true,
    });
  }
  const options = {
    concurrency: chunkConcurrency(eo.concurrency, slots),
    bulkSize: eo.bulkSize,
    rateLimit: chunkRate(eo.rateLimit, slots),
    timeout: eo.timeout,
    retries: eo.retries,
    maxHostErrors: eo.maxHostErrors,
    vars: eo.vars,
    headers: eo.headers,
    socks5Proxy,
    // The deny list decides every connection the scan's templates make (redirects, absolute URLs, raw
    // requests, every protocol), on the address connected to.
    egress: scanEgress(ctx.config),
    // code and javascript templates run only when a trusted key signed them, unless the team's Owner
    // allowed unsigned ones (PATCH /v1/user/team/settings); refusals go to the scan log with the reason.
    trustedCertificates: templateCertificates(),
    allowUnsigned: await teamAllowsUnsigned(ctx.db, scan.team_id),
    // Out-of-band checks ({{interactsh-url}}) go to the platform's OAST server.
    interactsh: ctx.config.interactsh,
  };
  const engineRun = { scanId, run, targets: chunk.targets, options, signal: guard.signal, sink };
  let loadedNone: boolean;
  try {
    // The worker's secrets never leave this thread.
    loadedNone =
      pool && !secrets
        ? await runOnThreads(ctx, pool, engineRun)
        : await runInProcess(ctx, engineRun, preloaded, secrets);
  } finally {
    guard.close();
    sink.close();
  }
  if (loadedNone) {
    await store.failScan(ctx.db, scanId, 'none of the scan templates could be loaded');
    return 'failed';
  }
  if (guard.stopped) return 'stopped';
  if (guard.leaseLost) throw new Error(`chunk ${idx} of scan ${scanId} lost its slot lease to another attempt`);
  if (opts.signal?.aborted)
    throw new Error(`chunk ${idx} of scan ${scanId} interrupted: ${String(opts.signal.reason ?? 'shutdown')}`);
  await sink.finish();
  await store.finishChunk(ctx.db, scanId, run, idx, chunk.attempts);
  // A retest scan that just finished settles its finding's status (a no-op for other scans).
  await settleRetest(ctx.db, scanId);
  return 'done';
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
