// Parses files on worker threads, one batch at a time per worker, so a big template folder loads on all
// cores. Results come back in input order. A worker failure rejects; the caller falls back.
import type { ParseOptions, ParseResult } from './parse.ts';
import { workerThreads } from '../lazy.ts';

const BOOT = new URL('./load-worker-boot.mjs', import.meta.url);

export async function parseOnWorkers(
  jobs: { file: string; root?: string }[],
  opts: ParseOptions,
  workers: number,
  batchSize = 200,
): Promise<ParseResult[]> {
  const results: ParseResult[] = new Array(jobs.length);
  let next = 0;
  let failed = false;
  const count = Math.max(1, Math.min(workers, Math.ceil(jobs.length / batchSize)));

  const run = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const worker = new (workerThreads().Worker)(BOOT);
      let start = 0;
      const send = () => {
        if (next >= jobs.length || failed) {
          void worker.terminate().then(() => resolve());
          return;
        }
        start = next;
        next = Math.min(jobs.length, next + batchSize);
        worker.postMessage({ files: jobs.slice(start, next), opts });
      };
      worker.on('message', (batch: ParseResult[]) => {
        batch.forEach((r, i) => (results[start + i] = r));
        send();
      });
      worker.once('error', (err) => {
        failed = true; // the others stop after their current batch
        void worker.terminate();
        reject(err);
      });
      worker.once('online', send);
    });

  await Promise.all(Array.from({ length: count }, run));
  return results;
}
