/**
 * Job handler registry: the one place where API areas tell the worker what jobs they run.
 *
 * How an area adds a background job
 * ---------------------------------
 * 1. In a module of your area (e.g. src/platform/scans/jobs.ts), at module top level:
 *
 *      import { registerJobHandler } from '../worker/registry.ts';
 *      registerJobHandler<{ scanId: string; chunk: number }>('scan-chunk', async (job, ctx) => {
 *        // job.id, job.data, job.retryCount; ctx.db, ctx.config, ctx.log, ctx.queue, ctx.signal
 *      }, { concurrency: 2, retryLimit: 3, expireInSeconds: 900 });
 *
 * 2. Add one import line for that module to src/platform/jobs.ts, so that `vigil serve` and
 *    `vigil worker` both load it before they start working.
 *
 * 3. Send jobs from a route or service with `enqueue(app.ctx, 'scan-chunk', data, options?)` (or
 *    ctx.queue.send directly). The queue of every registered name is created when the queue starts, also
 *    in API-only processes (`vigil serve --no-worker`).
 *
 * Handler contract
 * - Resolve to complete the job (the resolved value is stored as the job's output).
 * - Throw to fail it; pg-boss retries it up to `retryLimit` times (default 2), `retryDelay` seconds apart.
 * - A worker process that dies mid-job loses nothing: the job stays "active" until `expireInSeconds`
 *   passes, then pg-boss fails it and it is retried by another worker. So handlers must be idempotent
 *   (safe to run again from the start) and should keep `expireInSeconds` above their longest run.
 * - On SIGTERM the process stops fetching new jobs and waits for running ones. `ctx.signal` aborts only
 *   when the shutdown grace period (VIGIL_SHUTDOWN_TIMEOUT seconds) runs out: a long handler should then
 *   stop early and throw, so that its job is retried elsewhere instead of being cut off.
 */
import type PgBoss from 'pg-boss';
import type { AppContext } from '../shared/context.ts';

export interface JobInfo<T> {
  id: string;
  name: string;
  data: T;
  /** 0 on the first attempt, 1 on the first retry, ... */
  retryCount: number;
  retryLimit: number;
}

export interface JobContext extends AppContext {
  queue: PgBoss;
  /** Aborted when the process must stop before the job ends (see the contract above). */
  signal: AbortSignal;
}

export type JobHandler<T = unknown> = (job: JobInfo<T>, ctx: JobContext) => Promise<unknown>;

export interface JobOptions {
  /** Jobs of this name one process runs at the same time (default 1). */
  concurrency?: number;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /** A job still running after this long is failed (and retried); default 900. */
  expireInSeconds?: number;
  /** Seconds between polls for new jobs when idle (default 1, minimum 0.5). */
  pollingIntervalSeconds?: number;
  /** Queue policy of pg-boss: 'standard' (default), 'short', 'singleton' or 'stately'. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  /**
   * What a worker must have to take these jobs: 'headless' runs only in workers that found Chromium at
   * their start (see runtime.ts); others leave the queue alone.
   */
  needs?: 'headless';
  /**
   * For jobs with `needs`: what a worker without it runs when a job waits and no worker that has it is
   * running any more (it stopped or died after the job was queued). Without it such jobs wait for one.
   */
  withoutIt?: JobHandler<unknown>;
}

export interface RegisteredJob {
  name: string;
  handler: JobHandler<unknown>;
  options: JobOptions;
}

const handlers = new Map<string, RegisteredJob>();

/** Registers the handler of one job name. Registering a name twice is a programming error. */
export function registerJobHandler<T>(name: string, handler: JobHandler<T>, options: JobOptions = {}): void {
  if (!/^[A-Za-z0-9_.\-/]+$/.test(name)) throw new Error(`job name "${name}" may only use letters, digits and _ . - /`);
  if (handlers.has(name)) throw new Error(`a handler for job "${name}" is already registered`);
  handlers.set(name, { name, handler: handler as JobHandler<unknown>, options });
}

/** Removes a registration (tests that register throwaway handlers clean up with it). */
export function unregisterJobHandler(name: string): void {
  handlers.delete(name);
}

export function registeredJobs(): RegisteredJob[] {
  return [...handlers.values()];
}

export function getJobHandler(name: string): RegisteredJob | undefined {
  return handlers.get(name);
}

/** Creates (when missing) the pg-boss queue of every registered job, with its retry and expiry settings. */
export async function ensureQueues(boss: PgBoss, jobs: RegisteredJob[] = registeredJobs()): Promise<void> {
  for (const job of jobs) {
    const o = job.options;
    const settings = {
      name: job.name,
      policy: o.policy ?? 'standard',
      retryLimit: o.retryLimit ?? 2,
      retryDelay: o.retryDelay ?? 5,
      retryBackoff: o.retryBackoff ?? false,
      expireInSeconds: o.expireInSeconds ?? 900,
    };
    const existing = await boss.getQueue(job.name);
    if (!existing) await boss.createQueue(job.name, settings);
    else if (differs(existing, settings)) await boss.updateQueue(job.name, settings);
  }
}

// Only changed settings are written, so processes starting together do not contend on the queue rows.
function differs(current: PgBoss.QueueResult, wanted: PgBoss.Queue): boolean {
  const keys = ['policy', 'retryLimit', 'retryDelay', 'retryBackoff', 'expireInSeconds'] as const;
  return keys.some((k) => (current[k] ?? null) !== (wanted[k] ?? null));
}

// Workers of this process that sleep between polls, woken when this process queues a job they run: a
// scan started on `vigil serve` begins at once instead of at the in-process worker's next poll (up to a
// polling interval later, a large share of a short scan). Workers elsewhere still find the job by polling.
const queuedListeners = new Set<(name: string) => void>();

/** Calls `fn` with the name of each job this process queues to run now; returns the unsubscribe. */
export function onJobsQueued(fn: (name: string) => void): () => void {
  queuedListeners.add(fn);
  return () => queuedListeners.delete(fn);
}

/** Says that jobs of `name` were just queued (committed) to run now, waking this process's idle workers. */
function jobsQueued(name: string): void {
  for (const fn of queuedListeners) fn(name);
}

/**
 * Sends one job and returns its id, or null when pg-boss dropped it as a duplicate (singleton policies,
 * singletonKey). Fails clearly in a process that runs no queue or for an unregistered name.
 */
export async function enqueue<T extends object>(
  ctx: Pick<AppContext, 'queue'>,
  name: string,
  data: T,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  if (!ctx.queue) throw new Error(`cannot send job "${name}": this process runs no job queue`);
  if (!handlers.has(name)) throw new Error(`cannot send job "${name}": no handler is registered for it`);
  const id = await ctx.queue.send(name, data, options);
  // pg-boss also answers null when the queue does not exist: that must not pass for a dropped duplicate.
  if (id === null && !(await ctx.queue.getQueue(name))) {
    throw new Error(`cannot send job "${name}": its queue does not exist (registered after the queue started?)`);
  }
  if (id !== null && options.startAfter === undefined) jobsQueued(name);
  return id;
}

/** Sends many jobs of one name (in batches of 1,000 rows) to run now, waking this process's idle workers. */
export async function enqueueMany<T extends object>(
  ctx: Pick<AppContext, 'queue'>,
  name: string,
  data: T[],
): Promise<void> {
  if (!ctx.queue) throw new Error(`cannot send jobs "${name}": this process runs no job queue`);
  for (let i = 0; i < data.length; i += 1000) {
    await ctx.queue.insert(data.slice(i, i + 1000).map((d) => ({ name, data: d })));
  }
  jobsQueued(name);
}
