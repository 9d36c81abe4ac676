// The worker runtime: fetches jobs of every registered handler from pg-boss and runs them, a fixed number
// at a time per job name. `vigil serve` runs it in-process; `vigil worker` runs only this. We drive
// pg-boss's fetch/complete/fail ourselves (rather than boss.work) so that shutdown can wait for running
// jobs *and* their completion writes, and hand handlers an AbortSignal.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type PgBoss from 'pg-boss';
import type { AppContext } from '../shared/context.ts';
import { browserMissing } from '../../engine/index.ts';
import { ensureQueues, onJobsQueued, registeredJobs, type JobContext, type RegisteredJob } from './registry.ts';
import { headlessWorkerRunning, registerWorker, removeWorker, touchWorker } from './store.ts';
import { jobsRunning, watchQueue, workerRuntimes } from '../shared/metrics.ts';

export interface WorkerOptions {
  /** Handlers to run; default every registered one. */
  jobs?: RegisteredJob[];
  /** Overrides each handler's own concurrency (VIGIL_WORKER_CONCURRENCY). */
  concurrency?: number;
  /** Overrides each handler's polling interval, in seconds. */
  pollingIntervalSeconds?: number;
}

export interface WorkerHandle {
  /** Jobs running now. */
  readonly running: number;
  /** Chromium was found at start: this worker takes jobs that need it (headless scan chunks). */
  readonly headless: boolean;
  /**
   * Stops fetching, waits up to graceMs for running jobs, then aborts their signals and gives them a few
   * more seconds; jobs still running after that are failed so that another worker retries them.
   */
  stop(graceMs?: number): Promise<void>;
}

interface Running {
  name: string;
  id: string;
  controller: AbortController;
  done: Promise<void>;
}

export async function startWorker(ctx: AppContext, opts: WorkerOptions = {}): Promise<WorkerHandle> {
  const boss = ctx.queue;
  if (!boss) throw new Error('the worker needs a job queue (ctx.queue)');
  const all = opts.jobs ?? registeredJobs();
  await ensureQueues(boss, all);
  const log = ctx.log.child({ component: 'worker' });
  // What this process can run, found once at start and written to the workers table, so that the scans
  // area sends headless chunks to a queue only capable workers read, or says that none can.
  const noBrowser = browserMissing();
  const jobs = all.filter((j) => j.options.needs !== 'headless' || noBrowser === undefined);
  // Said only by a worker that also runs a job needing it (a test's worker of one job does not).
  const headless = jobs.some((j) => j.options.needs === 'headless');
  // Jobs this worker cannot run as meant but can take over, as their `withoutIt`, once no worker that can
  // is running: a headless chunk queued while a Chromium worker ran is not left waiting after it stops.
  const strays: RegisteredJob[] =
    noBrowser === undefined
      ? []
      : all
          .filter((j) => j.options.needs === 'headless' && j.options.withoutIt)
          .map((j) => ({ ...j, handler: j.options.withoutIt! }));
  const workerId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  await registerWorker(ctx.db, workerId, headless);
  const beat = setInterval(() => {
    touchWorker(ctx.db, workerId, headless).catch((err) => log.warn({ err }, 'renewing the worker row failed'));
  }, 20_000);
  beat.unref();
  const running = new Set<Running>();
  let stopping = false;
  // Idle sleeps, cut short on stop. Each loop (one per job and slot, more than ten in `vigil serve`) sleeps
  // between fetches: a shared AbortSignal would gather one listener per sleeping loop (Node's
  // MaxListenersExceededWarning), so each sleep registers its own wake-up here and removes it when it ends.
  // Jobs queued by this process wake the sleeping loops of their name at once (registry.ts jobsQueued).
  const sleepers = new Map<() => void, string>();
  const idle = (ms: number, name: string) =>
    new Promise<void>((resolve) => {
      if (stopping) return resolve();
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.set(wake, name);
    });
  // Counted per name too: jobs queued while a loop was fetching (not yet asleep) skip its next sleep.
  const queued = new Map<string, number>();
  const stopListening = onJobsQueued((name) => {
    queued.set(name, (queued.get(name) ?? 0) + 1);
    for (const [wake, n] of [...sleepers]) if (n === name) wake();
  });

  const loop = async (job: RegisteredJob, interval: number, onlyIf?: () => Promise<boolean>) => {
    while (!stopping) {
      const seen = queued.get(job.name) ?? 0;
      let fetched: PgBoss.JobWithMetadata<unknown>[] = [];
      try {
        if (!onlyIf || (await onlyIf()))
          fetched = await boss.fetch<unknown>(job.name, { batchSize: 1, includeMetadata: true });
      } catch (err) {
        if (!stopping) log.error({ err, job: job.name }, 'fetching jobs failed');
      }
      const next = fetched[0];
      if (!next) {
        if ((queued.get(job.name) ?? 0) !== seen) continue;
        await idle(interval * 1000, job.name);
        continue;
      }
      const entry: Running = {
        name: job.name,
        id: next.id,
        controller: new AbortController(),
        done: Promise.resolve(),
      };
      entry.done = runOne(job, next, entry.controller);
      running.add(entry);
      jobsRunning.inc({ job: job.name });
      await entry.done;
      jobsRunning.dec({ job: job.name });
      running.delete(entry);
    }
  };

  const runOne = async (job: RegisteredJob, raw: PgBoss.JobWithMetadata<unknown>, controller: AbortController) => {
    const jobLog = log.child({ job: job.name, job_id: raw.id, attempt: raw.retryCount + 1 });
    // A job past its expiry is failed by pg-boss's maintenance and retried elsewhere: stop working on it.
    const expiry = setTimeout(() => controller.abort(new Error('job expired')), raw.expireInSeconds * 1000);
    const jobCtx: JobContext = { ...ctx, queue: boss, log: jobLog, signal: controller.signal };
    const started = Date.now();
    try {
      const output = await job.handler(
        { id: raw.id, name: raw.name, data: raw.data, retryCount: raw.retryCount, retryLimit: raw.retryLimit },
        jobCtx,
      );
      await boss.complete(job.name, raw.id, isObject(output) ? output : { value: output ?? null });
      jobLog.debug({ ms: Date.now() - started }, 'job completed');
    } catch (err) {
      jobLog.warn({ err, ms: Date.now() - started }, 'job failed');
      const e = err as Error;
      await boss.fail(job.name, raw.id, { message: e?.message ?? String(err) }).catch((failErr) => {
        jobLog.error({ err: failErr }, 'could not record the job failure; it will expire and be retried');
      });
    } finally {
      clearTimeout(expiry);
    }
  };

  const loops: Promise<void>[] = [];
  for (const job of jobs) {
    const n = Math.max(1, opts.concurrency ?? job.options.concurrency ?? 1);
    const interval = Math.max(0.5, opts.pollingIntervalSeconds ?? job.options.pollingIntervalSeconds ?? 1);
    for (let i = 0; i < n; i++) loops.push(loop(job, interval));
  }
  // One slot each, polling slowly: they only matter when the capable workers are gone.
  const noneCapable = async () => !(await headlessWorkerRunning(ctx.db));
  for (const job of strays) loops.push(loop(job, STRAY_POLL_SECONDS, noneCapable));
  log.info(
    { jobs: jobs.map((j) => j.name), headless, ...(noBrowser ? { headless_missing: noBrowser } : {}) },
    'worker started',
  );
  workerRuntimes.inc();
  watchQueue(
    boss,
    jobs.map((j) => j.name),
  );

  return {
    get running() {
      return running.size;
    },
    headless,
    async stop(graceMs = 30_000) {
      if (stopping) return;
      stopping = true;
      workerRuntimes.dec();
      clearInterval(beat);
      stopListening();
      await removeWorker(ctx.db, workerId).catch((err) => log.warn({ err }, 'removing the worker row failed'));
      for (const wake of [...sleepers.keys()]) wake();
      const all = () => Promise.all(loops).then(() => true);
      if (running.size) log.info({ running: running.size }, 'waiting for running jobs to finish');
      if (await race(all(), graceMs)) return;
      for (const r of running) r.controller.abort(new Error('worker is shutting down'));
      if (await race(all(), 5_000)) return;
      for (const r of running) {
        log.warn({ job: r.name, job_id: r.id }, 'job still running at shutdown; failing it so it is retried');
        await boss.fail(r.name, r.id, { message: 'worker shut down while the job was running' }).catch(() => {});
      }
    },
  };
}

/** Seconds between a worker's looks at the jobs it can only take over (VIGIL_WORKER_STRAY_POLL). */
const STRAY_POLL_SECONDS = Math.max(0.5, Number(process.env.VIGIL_WORKER_STRAY_POLL ?? 10) || 10);

const isObject = (v: unknown): v is object => typeof v === 'object' && v !== null && !Array.isArray(v);

async function race(p: Promise<boolean>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
