// Running one chunk of a scan on a worker: claim it, run the engine on its targets with the scan's
// templates, store findings and scan-log records in batches, then mark it done. Safe to run twice: a
// retried chunk (worker killed, job expired) stores nothing twice.
import { workflowDependencies } from './workflow-deps.ts';
import { memoryWorkflowSource } from '../../engine/workflow/memory.ts';
import { scanAttempts, scanFindings } from '../shared/metrics.ts';
import type { Template } from '../../engine/template/types.ts';
import type { ScanOptions, AttemptInfo } from '../../engine/runner/types.ts';
import type { AppContext } from '../shared/context.ts';
import { parseTemplate } from '../../engine/template/parse.ts';
import { runScan } from '../../engine/runner.ts';
import { setDebugOutput } from '../../engine/dsl/index.ts';
import { engineThreads } from './engine-pool.ts';
import { toFindingRow, logEventText, type ResultEvent, type FindingRow } from './findings.ts';
import { hostOf } from './targets.ts';
import { scanEgress } from './deny.ts';
import type { ChunkJob } from './dispatch.ts';
import type { EngineOptions } from './apply-configs.ts';
import * as store from './store.ts';
import { acquireSlot, chunkRate, releaseSlot, renewSlot, slotCount, LEASE_SECONDS, type Lease } from './slots.ts';

// Templates of every team run here next to the worker's secrets: print_debug output (which can hold
// secrets, or forge log lines) goes nowhere on a platform worker.
setDebugOutput(undefined);

/** A chunk attempted this many times (crashes included) fails its scan instead of looping forever. */
export const MAX_CHUNK_ATTEMPTS = 5;

// Parsed templates per scan run (the promise, so chunks starting together parse once): a worker runs
// many chunks of the same scan.
/** A scan run's parsed templates, and those that did not load (uri and reason). */
interface ParsedSet extends Array<Template> {
  skipped?: { uri: string; reason: string }[];
  /** Templates the scan's workflows call (from the catalogue); they run only through a workflow. */
  deps?: Template[];
}

const parsedCache = new Map<string, Promise<ParsedSet>>();

// Bounded by the template text the cached sets were parsed from (a scan of the whole catalogue holds far
// more than one of two templates), and by count.
const parsedSize = new Map<string, number>();
const MAX_PARSED_CHARS = 64 * 1024 * 1024;

function templatesOf(ctx: Pick<AppContext, 'db' | 'log'>, scanId: string, run: number): Promise<ParsedSet> {
  const key = `${scanId}:${run}`;
  let hit = parsedCache.get(key);
  if (!hit) {
    hit = parseAll(ctx, scanId, key);
    hit.catch(() => {
      parsedCache.delete(key);
      parsedSize.delete(key);
    });
    if (parsedCache.size >= 20) evictOldest();
    parsedCache.set(key, hit);
  }
  return hit;
}

function evictOldest(): void {
  const oldest = parsedCache.keys().next().value;
  if (oldest === undefined) return;
  parsedCache.delete(oldest);
  parsedSize.delete(oldest);
}

async function parseAll(ctx: Pick<AppContext, 'db' | 'log'>, scanId: string, key: string): Promise<ParsedSet> {
  const out: ParsedSet = [];
  out.skipped = [];
  const rows = await store.loadTemplates(ctx.db, scanId);
  const size = rows.reduce((n, t) => n + t.raw.length, 0);
  parsedSize.set(key, size);
  let total = [...parsedSize.values()].reduce((a, b) => a + b, 0);
  while (total > MAX_PARSED_CHARS && parsedCache.size > 1 && parsedCache.keys().next().value !== key) {
    const oldest = parsedCache.keys().next().value!;
    total -= parsedSize.get(oldest) ?? 0;
    evictOldest();
  }
  out.deps = [];
  for (const t of await workflowDependencies(ctx.db, rows)) {
    const res = parseTemplate(t.raw, t.uri, t.payloadFiles ? { payloadFiles: t.payloadFiles } : {});
    if (res.template) out.deps.push(res.template);
  }
  for (const t of rows) {
    const res = parseTemplate(t.raw, t.uri, t.payloadFiles ? { payloadFiles: t.payloadFiles } : {});
    if (res.template) out.push(res.template);
    else {
      ctx.log.warn({ scan_id: scanId, template: t.uri, issue: res.issues[0] }, 'template does not load; skipped');
      out.skipped.push({ uri: t.uri, reason: res.issues[0]?.reason ?? 'not a template' });
    }
  }
  return out;
}

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

export async function runChunk(ctx: Pick<AppContext, 'db' | 'log' | 'config'>, job: ChunkJob, opts: ChunkRunOptions = {}): Promise<ChunkOutcome> {
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
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>, job: ChunkJob, opts: ChunkRunOptions, lease: Lease, slots: number,
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
  const templates = pool ? [] : await templatesOf(ctx, scanId, run);
  if (!pool && templates.length === 0) {
    await store.failScan(ctx.db, scanId, 'none of the scan templates could be loaded');
    return 'failed';
  }
  await store.markRunning(ctx.db, scanId, run);
  const eo = scan.engine_options as EngineOptions;
  // A scan's own proxy is chosen by the team's users; the worker's secrets are the operator's. They never
  // travel together: with a scan proxy the chunk runs without the worker's secrets (recorded once in the
  // scan log), so no user can route credentialed requests through a proxy of theirs.
  const socks5Proxy = (scan.request.socks5_proxy as string | undefined) || (scan.engine_options as EngineOptions).socks5Proxy || undefined;
  let secrets = opts.secretsFor?.(scan.team_id);
  const proxyNotice = Boolean(secrets && socks5Proxy);
  if (proxyNotice) secrets = undefined;

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
  if (proxyNotice && idx === 0) {
    logs.push({
      target: chunk.targets[0] ?? '', templateId: 'worker-secrets', matched: false, severity: null, at: new Date(), event: null, vulnHash: null,
      error: "worker secrets not applied: the scan routes its requests through its own socks5_proxy",
    });
  }
  let writing: Promise<void> = Promise.resolve();
  let writeError: unknown;
  const flush = () => {
    const f = findings;
    const l = logs;
    findings = [];
    logs = [];
    writing = writing.then(async () => {
      if (f.length) {
        await store.insertFindings(ctx.db, scanId, scan.team_id, run, f);
        scanFindings.inc(f.length);
      }
      if (l.length) await store.insertLogs(ctx.db, scanId, scan.team_id, run, l);
    }).catch((err) => {
      writeError ??= err;
    });
  };

  // Written at least every 2 s, so findings show and progress moves while a long chunk runs.
  const periodic = setInterval(() => {
    if (findings.length || logs.length) flush();
  }, 2_000);
  const onResult = (ev: ResultEvent) => {
    if (ev['matcher-status'] === false) return; // failure events are not findings
    const row = toFindingRow(ev);
    const key = `${row.templateId}\u0000${hostOf(row.host)}`;
    if (!firstFinding.has(key)) firstFinding.set(key, { hash: row.vulnHash, event: logEventText(row.event) });
    findings.push(row);
    if (findings.length >= 500) flush();
  };
  const onAttempt = (a: AttemptInfo) => {
    scanAttempts.inc();
    const first = a.matched ? firstFinding.get(`${a.templateId}\u0000${hostOf(a.target)}`) : undefined;
    logs.push({
      target: a.target, templateId: a.templateId, matched: a.matched, severity: a.severity ?? null,
      error: a.error ?? null, event: first?.event ?? null, vulnHash: first?.hash ?? null, at: new Date(),
    });
    if (logs.length >= 2500) flush();
  };
  // Once per host and chunk: the scan log says why this host got no further requests.
  const onHostSkipped = (host: string, errors: number) => {
    logs.push({
      target: host, templateId: 'max-host-errors', matched: false, severity: null, event: null, vulnHash: null, at: new Date(),
      error: `host skipped: ${errors} errors reached the max host errors limit; no more requests went to it`,
    });
  };
  // Templates this scan cannot run are recorded once per run (by the run's first chunk), with the reason.
  // They also leave the scan's totals (total_template, total_scan), so progress counts only what runs.
  const notRun = new Set<string>();
  let totalsQueued = false;
  const onTemplateSkipped = (templateId: string, reason: string) => {
    if (idx !== 0) return;
    logs.push({ target: '', templateId, matched: false, severity: null, event: null, vulnHash: null, at: new Date(), error: `template not run: ${reason}` });
    notRun.add(templateId);
    if (totalsQueued) return;
    totalsQueued = true;
    // Skips are reported together when templates load: one update after the last of them.
    setImmediate(() => {
      totalsQueued = false;
      const n = notRun.size;
      writing = writing.then(() => store.setRunnableTotals(ctx.db, scanId, run, n)).catch((err) => {
        writeError ??= err;
      });
    });
  };
  const engineOptions = {
    concurrency: eo.concurrency,
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
  };
  let loadedNone = false;
  try {
    if (pool && !secrets) {
      await pool.run({
        key: `${scanId}:${run}`,
        loadTemplates: async () => {
          const rows = await store.loadTemplates(ctx.db, scanId);
          const deps = await workflowDependencies(ctx.db, rows);
          return [
            ...rows.map((t) => ({ raw: t.raw, uri: t.uri, payloadFiles: t.payloadFiles })),
            ...deps.map((d) => ({ ...d, dependency: true })),
          ];
        },
        targets: chunk.targets, options: engineOptions, signal: stop.signal,
        onLoaded(count, skipped) {
          loadedNone = count === 0;
          for (const s of skipped) {
            ctx.log.warn({ scan_id: scanId, template: s.uri, reason: s.reason }, 'template does not load; skipped');
            onTemplateSkipped(s.uri, `it does not load: ${s.reason}`);
          }
        },
        onResult: (ev) => onResult(ev as unknown as ResultEvent),
        onAttempt,
        onHostSkipped,
        onTemplateSkipped,
      });
    } else {
      const list = templates.length > 0 ? templates : await templatesOf(ctx, scanId, run);
      for (const sk of (list as ParsedSet).skipped ?? []) onTemplateSkipped(sk.uri, `it does not load: ${sk.reason}`);
      loadedNone = list.length === 0;
      if (!loadedNone) {
        await runScan({ ...engineOptions, targets: chunk.targets, templates: list, secrets, signal: stop.signal,
          workflowSource: memoryWorkflowSource((list as ParsedSet).deps ?? []),
          onResult: (ev) => onResult(ev as unknown as ResultEvent), onAttempt, onHostSkipped, onTemplateSkipped });
      }
    }
  } finally {
    clearInterval(poll);
    clearInterval(renew);
    clearInterval(periodic);
    opts.signal?.removeEventListener('abort', onOuterAbort);
  }
  if (loadedNone) {
    await store.failScan(ctx.db, scanId, 'none of the scan templates could be loaded');
    return 'failed';
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
