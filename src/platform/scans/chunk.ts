// Running one chunk of a scan on a worker: claim it, run the engine on its targets with the scan's
// templates, store findings and scan-log records in batches, then mark it done. Safe to run twice: a
// retried chunk (worker killed, job expired) stores nothing twice.
import type { Template } from '../../engine/template/types.ts';
import type { ScanOptions, AttemptInfo } from '../../engine/runner/types.ts';
import type { AppContext } from '../context.ts';
import { parseTemplate } from '../../engine/template/parse.ts';
import { runScan } from '../../engine/runner.ts';
import { toFindingRow, logEventText, type ResultEvent, type FindingRow } from './findings.ts';
import { hostOf } from './targets.ts';
import type { ChunkJob } from './dispatch.ts';
import type { EngineOptions } from './configs.ts';
import * as store from './store.ts';
import { acquireSlot, chunkRate, releaseSlot, renewSlot, slotCount, LEASE_SECONDS, type Lease } from './slots.ts';

/** A chunk attempted this many times (crashes included) fails its scan instead of looping forever. */
export const MAX_CHUNK_ATTEMPTS = 5;

// Parsed templates per scan run (the promise, so chunks starting together parse once): a worker runs
// many chunks of the same scan.
const parsedCache = new Map<string, Promise<Template[]>>();

function templatesOf(ctx: Pick<AppContext, 'db' | 'log'>, scanId: string, run: number): Promise<Template[]> {
  const key = `${scanId}:${run}`;
  let hit = parsedCache.get(key);
  if (!hit) {
    hit = parseAll(ctx, scanId);
    hit.catch(() => parsedCache.delete(key));
    if (parsedCache.size >= 20) parsedCache.delete(parsedCache.keys().next().value!);
    parsedCache.set(key, hit);
  }
  return hit;
}

async function parseAll(ctx: Pick<AppContext, 'db' | 'log'>, scanId: string): Promise<Template[]> {
  const out: Template[] = [];
  for (const t of await store.loadTemplates(ctx.db, scanId)) {
    const res = parseTemplate(t.raw, t.uri);
    if (res.template) out.push(res.template);
    else ctx.log.warn({ scan_id: scanId, template: t.uri, issue: res.issues[0] }, 'template does not load; skipped');
  }
  return out;
}

export interface ChunkRunOptions {
  /** Aborted when the worker must stop: the chunk throws so its job is retried elsewhere. */
  signal?: AbortSignal;
  /** Secrets of this worker (vigil worker --secret-file); never leave the process. */
  secrets?: ScanOptions['secrets'];
  /** How often to look for a stop, in ms. */
  pollMs?: number;
}

/** busy: every slot of the scan is held by other chunks; the caller queues the chunk again later. */
export type ChunkOutcome = 'done' | 'skipped' | 'stopped' | 'failed' | 'busy';

export async function runChunk(ctx: Pick<AppContext, 'db' | 'log'>, job: ChunkJob, opts: ChunkRunOptions = {}): Promise<ChunkOutcome> {
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
    await releaseSlot(ctx.db, scanId, lease).catch((err) => ctx.log.warn({ err, scan_id: scanId }, 'releasing a chunk slot failed'));
  }
}

async function runLeased(
  ctx: Pick<AppContext, 'db' | 'log'>, job: ChunkJob, opts: ChunkRunOptions, lease: Lease, slots: number,
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
  const templates = await templatesOf(ctx, scanId, run);
  if (templates.length === 0) {
    await store.failScan(ctx.db, scanId, 'none of the scan templates could be loaded');
    return 'failed';
  }
  await store.markRunning(ctx.db, scanId, run);
  const eo = scan.engine_options as EngineOptions;

  // Stop checks: a stopped, deleted or rescanned scan aborts this chunk without storing more.
  const stop = new AbortController();
  let stopped = false;
  const onOuterAbort = () => stop.abort(opts.signal?.reason);
  opts.signal?.addEventListener('abort', onOuterAbort, { once: true });
  const poll = setInterval(async () => {
    try {
      const st = await store.runState(ctx.db, scanId);
      if (!st || st.rescan_count !== run || !['queued', 'starting', 'running'].includes(st.status)) {
        stopped = true;
        stop.abort(new Error('scan stopped'));
      }
    } catch {
      // a failed check is retried on the next tick
    }
  }, opts.pollMs ?? 1000);
  // The lease is renewed while the chunk runs; losing it (another attempt of this chunk took it over
  // after the queue gave up on this one) stops sending at once.
  let leaseLost = false;
  const renew = setInterval(async () => {
    try {
      if (!(await renewSlot(ctx.db, scanId, lease))) {
        leaseLost = true;
        stop.abort(new Error('chunk slot lease lost'));
      }
    } catch {
      // retried on the next tick; the lease outlives two missed renewals
    }
  }, (LEASE_SECONDS * 1000) / 3);

  // Findings and log records are written in batches, one write at a time, in arrival order.
  let findings: FindingRow[] = [];
  let logs: store.LogRow[] = [];
  // First finding per template and host: a matched log record carries its hash and event text.
  const firstFinding = new Map<string, { hash: string; event: string }>();
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const flush = () => {
    const f = findings;
    const l = logs;
    findings = [];
    logs = [];
    writing = writing.then(async () => {
      if (f.length) await store.insertFindings(ctx.db, scanId, scan.team_id, run, f);
      if (l.length) await store.insertLogs(ctx.db, scanId, scan.team_id, run, l);
    }).catch((err) => {
      writeError ??= err;
    });
  };

  try {
    await runScan({
      targets: chunk.targets,
      templates,
      concurrency: eo.concurrency,
      bulkSize: eo.bulkSize,
      rateLimit: chunkRate(eo.rateLimit, slots),
      timeout: eo.timeout,
      retries: eo.retries,
      maxHostErrors: eo.maxHostErrors,
      vars: eo.vars,
      socks5Proxy: (scan.request.socks5_proxy as string | undefined) || undefined,
      secrets: opts.secrets,
      signal: stop.signal,
      onResult(ev) {
        if (ev['matcher-status'] === false) return; // failure events are not findings
        const row = toFindingRow(ev as unknown as ResultEvent);
        const key = `${row.templateId}\u0000${hostOf(row.host)}`;
        if (!firstFinding.has(key)) firstFinding.set(key, { hash: row.vulnHash, event: logEventText(row.event) });
        findings.push(row);
        if (findings.length >= 500) flush();
      },
      onAttempt(a: AttemptInfo) {
        const first = a.matched ? firstFinding.get(`${a.templateId}\u0000${hostOf(a.target)}`) : undefined;
        logs.push({
          target: a.target, templateId: a.templateId, matched: a.matched, severity: a.severity ?? null,
          error: a.error ?? null, event: first?.event ?? null, vulnHash: first?.hash ?? null, at: new Date(),
        });
        if (logs.length >= 2500) flush();
      },
    });
  } finally {
    clearInterval(poll);
    clearInterval(renew);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (stopped) return 'stopped';
  if (leaseLost) throw new Error(`chunk ${idx} of scan ${scanId} lost its slot lease to another attempt`);
  if (opts.signal?.aborted) throw new Error(`chunk ${idx} of scan ${scanId} interrupted: ${String(opts.signal.reason ?? 'shutdown')}`);
  flush();
  await writing;
  if (writeError) throw writeError;
  await store.finishChunk(ctx.db, scanId, run, idx);
  return 'done';
}


function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => { clearTimeout(t); signal?.removeEventListener('abort', done); resolve(); };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
