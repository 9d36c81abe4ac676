import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import type PgBoss from 'pg-boss';
import { freshDb, dbKinds, type TestDb } from '../../helpers/db.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import { configFromEnv } from '../../../src/platform/shared/config.ts';
import type { AppContext } from '../../../src/platform/shared/context.ts';
import {
  enqueue,
  getJobHandler,
  registerJobHandler,
  unregisterJobHandler,
  type JobContext,
} from '../../../src/platform/worker/registry.ts';
import { startWorker, type WorkerHandle } from '../../../src/platform/worker/runtime.ts';
import { PING_JOB } from '../../../src/platform/worker/builtin.ts';

describe.each(dbKinds())('worker runtime on %s', (kind) => {
  let testDb: TestDb;
  let boss: PgBoss;
  let ctx: AppContext;
  const workers: WorkerHandle[] = [];
  const names: string[] = [];
  const uniq = (base: string) => {
    const name = `test.${base}.${kind}.${Math.random().toString(36).slice(2, 8)}`;
    names.push(name);
    return name;
  };

  beforeAll(async () => {
    testDb = await freshDb(kind);
    boss = await startTestQueue(testDb);
    ctx = { db: testDb.db, config: configFromEnv({}), log: pino({ level: 'silent' }), queue: boss };
  });
  afterEach(async () => {
    for (const w of workers.splice(0)) await w.stop(1_000);
    for (const n of names.splice(0)) unregisterJobHandler(n);
  });
  afterAll(async () => {
    await boss.stop({ graceful: false });
    await testDb.drop();
  });

  it('runs a registered handler with its data and the platform context, storing its output', async () => {
    const name = uniq('echo');
    let seen: JobContext | undefined;
    registerJobHandler<{ x: number }>(name, async (job, jctx) => {
      seen = jctx;
      const { rows } = await jctx.db.query<{ n: number }>('SELECT $1::int * 2 AS n', [job.data.x]);
      return { doubled: rows[0]!.n, attempt: job.retryCount };
    });
    const jobs = [getJobHandler(name)!];
    workers.push(await startWorker(ctx, { jobs, pollingIntervalSeconds: 0.5 }));
    const id = (await enqueue(ctx, name, { x: 21 }))!;
    const done = await waitFor(async () => {
      const j = await boss.getJobById(name, id);
      return j?.state === 'completed' && j;
    });
    expect(done.output).toEqual({ doubled: 42, attempt: 0 });
    expect(seen!.signal.aborted).toBe(false);
    expect(seen!.queue).toBe(boss);
  });

  it('starts a job this process queued at once, not at the next poll', async () => {
    const name = uniq('wake');
    registerJobHandler(name, async () => ({ ok: true }));
    // A polling interval far longer than the wait below: only the wake-up can start the job in time.
    workers.push(await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 120 }));
    const id = (await enqueue(ctx, name, {}))!;
    await waitFor(async () => (await boss.getJobById(name, id))?.state === 'completed', 60_000);
  });

  it('retries a handler that throws, with retryCount counting attempts', async () => {
    const name = uniq('flaky');
    const attempts: number[] = [];
    registerJobHandler(
      name,
      async (job) => {
        attempts.push(job.retryCount);
        if (job.retryCount < 2) throw new Error(`attempt ${job.retryCount} fails`);
        return { ok: true };
      },
      { retryLimit: 3, retryDelay: 0 },
    );
    workers.push(await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 0.5 }));
    const id = (await enqueue(ctx, name, {}))!;
    await waitFor(async () => (await boss.getJobById(name, id))?.state === 'completed');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('runs up to `concurrency` jobs of one name at once', async () => {
    const name = uniq('parallel');
    let now = 0;
    let peak = 0;
    registerJobHandler(
      name,
      async () => {
        peak = Math.max(peak, ++now);
        await new Promise((r) => setTimeout(r, 300));
        now--;
      },
      { concurrency: 3 },
    );
    // Registered after the queue started: sending fails clearly until the worker creates the queue.
    await expect(enqueue(ctx, name, {})).rejects.toThrow(/queue does not exist/);
    const w = await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 0.5 });
    workers.push(w);
    await w.stop(0); // jobs queued while nobody works them...
    for (let i = 0; i < 6; i++) await enqueue(ctx, name, { i });
    workers.push(await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 0.5 }));
    await waitFor(async () => (await boss.getQueueSize(name, { before: 'completed' })) === 0 && now === 0, 20_000);
    expect(peak).toBe(3);
  });

  it('stop() waits for a running job to finish and complete', async () => {
    const name = uniq('slow');
    let started = false;
    registerJobHandler(name, async () => {
      started = true;
      await new Promise((r) => setTimeout(r, 800));
      return { finished: true };
    });
    const w = await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 0.5 });
    const id = (await enqueue(ctx, name, {}))!;
    await waitFor(async () => started);
    expect(w.running).toBe(1);
    await w.stop(10_000);
    expect(w.running).toBe(0);
    const job = await boss.getJobById(name, id);
    expect(job).toMatchObject({ state: 'completed', output: { finished: true } });
  });

  it('past the grace period, aborts the signal and the job goes back for retry', async () => {
    const name = uniq('stuck');
    let started = false;
    registerJobHandler(
      name,
      async (_job, jctx) => {
        started = true;
        await new Promise((_r, reject) => jctx.signal.addEventListener('abort', () => reject(jctx.signal.reason)));
      },
      { retryLimit: 2, retryDelay: 0 },
    );
    const w = await startWorker(ctx, { jobs: [getJobHandler(name)!], pollingIntervalSeconds: 0.5 });
    const id = (await enqueue(ctx, name, {}))!;
    await waitFor(async () => started);
    await w.stop(200);
    const job = await boss.getJobById(name, id);
    expect(job!.state).toBe('retry');
    expect(job!.output).toMatchObject({ message: 'worker is shutting down' });
  });

  it('refuses duplicate names, bad names, and sending unregistered jobs', async () => {
    expect(() => registerJobHandler(PING_JOB, async () => {})).toThrow(/already registered/);
    expect(() => registerJobHandler('bad name!', async () => {})).toThrow(/may only use/);
    await expect(enqueue(ctx, 'nobody.handles.this', {})).rejects.toThrow(/no handler/);
    await expect(enqueue({}, PING_JOB, {})).rejects.toThrow(/runs no job queue/);
  });
});
