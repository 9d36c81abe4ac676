// The scans area's background jobs: running a chunk of a scan, and building an async log export.
// Loaded by src/platform/jobs.ts so `vigil serve` and `vigil worker` both run them.
import { randomUUID } from 'node:crypto';
import { registerJobHandler, type JobHandler } from '../worker/registry.ts';
import { SCAN_CHUNK_HEADLESS_JOB, SCAN_CHUNK_JOB, strandedNotice, type ChunkJob } from './dispatch.ts';
import { runChunk } from './chunk.ts';
import { EXPORT_JOB, buildExport } from './exports.ts';
import { failScan } from './store.ts';
import { workerSecrets } from './worker-secrets.ts';

/** Seconds a chunk may run before pg-boss hands it to another worker (VIGIL_SCAN_CHUNK_TIMEOUT). */
export const CHUNK_EXPIRE_SECONDS = Number(process.env.VIGIL_SCAN_CHUNK_TIMEOUT ?? 900);

/** Seconds before a chunk that found no free slot is tried again (VIGIL_SCAN_SLOT_RETRY). */
export const SLOT_RETRY_SECONDS = Math.max(1, Math.round(Number(process.env.VIGIL_SCAN_SLOT_RETRY ?? 2)) || 2);

const runChunkJob: JobHandler<ChunkJob> = async (job, ctx) => {
  try {
    const outcome = await runChunk(ctx, job.data, { signal: ctx.signal, secretsFor: workerSecrets });
    if (outcome === 'busy') {
      // All the scan's slots are taken: queue the chunk again a little later instead of waiting here
      // (a new job, so this does not use up the chunk's retries).
      await ctx.queue.send(job.name, job.data, { startAfter: SLOT_RETRY_SECONDS });
    }
    return { outcome };
  } catch (err) {
    // The last attempt's failure ends the scan; earlier ones are retried by pg-boss.
    if (job.retryCount >= job.retryLimit) {
      // The reason users see says what failed, not the exception's text (database errors, paths,
      // secrets); the details go to the server log under an id the reason names.
      const errorId = randomUUID();
      ctx.log.error(
        { err, error_id: errorId, scan_id: job.data.scanId, chunk: job.data.idx },
        'scan chunk failed for good',
      );
      await failScan(
        ctx.db,
        job.data.scanId,
        `chunk ${job.data.idx} failed after ${job.retryLimit + 1} attempts (error id ${errorId} in the server log)`,
      ).catch(() => {});
    }
    throw err;
  }
};

const chunkOptions = {
  concurrency: Number(process.env.VIGIL_SCAN_WORKER_CONCURRENCY ?? 4),
  retryLimit: 4,
  retryDelay: 1,
  expireInSeconds: CHUNK_EXPIRE_SECONDS,
  pollingIntervalSeconds: 0.5,
};
registerJobHandler<ChunkJob>(SCAN_CHUNK_JOB, runChunkJob, chunkOptions);
// Chunks of scans with headless templates: only workers that found Chromium take them (dispatch.ts). When
// the last of those stops with chunks still queued, a worker without Chromium takes them over: the engine
// skips the headless templates (it says why for each) and the scan log says what happened.
const runStrandedChunk: JobHandler<ChunkJob> = async (job, ctx) => {
  await strandedNotice(ctx.db, job.data);
  return runChunkJob(job, ctx);
};
registerJobHandler<ChunkJob>(SCAN_CHUNK_HEADLESS_JOB, runChunkJob, {
  ...chunkOptions,
  needs: 'headless',
  withoutIt: runStrandedChunk as JobHandler<unknown>,
});

registerJobHandler<{ exportId: string }>(
  EXPORT_JOB,
  async (job, ctx) => {
    await buildExport(ctx, job.data.exportId);
    return { ok: true };
  },
  { concurrency: 1, retryLimit: 2, expireInSeconds: 3600 },
);
