// The platform's own job: a no-op round trip used by health checks and tests to prove that a job sent by
// one process is picked up by a worker (possibly another process) and completed.
import { registerJobHandler } from './registry.ts';

export const PING_JOB = 'vigil.ping';

registerJobHandler<{ note?: string }>(PING_JOB, async (job) => ({ pong: job.data.note ?? true, pid: process.pid }), {
  retryLimit: 0,
  expireInSeconds: 60,
});
