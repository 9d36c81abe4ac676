// Runs an enumeration's discovery on a worker thread of its own (discovery-thread.ts), one thread per
// run, so that walking ranges, port scanning, probing and fingerprint templates never hold up the API's
// event loop (vigil serve runs its worker in the API's process). The thread's heap is capped
// (VIGIL_ENUMERATION_HEAP_MB): a run that outgrows it fails alone. A thread that does not stop within
// 5 s of an abort is terminated.
import { Worker } from 'node:worker_threads';
import type { DiscoveredAsset, DiscoveryConfig, DiscoveryEvent, Limits } from '../../discovery/index.ts';
import type { TechOptions } from '../../discovery/index.ts';
import type { PlatformConfig } from '../shared/config.ts';

export interface DiscoveryThreadInput {
  /** The configuration without its hooks (functions do not cross threads): the thread makes them. */
  config: Omit<DiscoveryConfig, 'technologies' | 'deny' | 'limits'> & { limits: Omit<Partial<Limits>, 'signal'> };
  /** What the thread builds the scans' deny list from. */
  deny: Pick<PlatformConfig, 'port' | 'host' | 'denyTargets' | 'allowDeniedTargets'>;
  /** Fingerprint templates (texts) run on every web service, and how. */
  tech?: { templates: { raw: string; uri: string }[]; options: Omit<TechOptions, 'signal'> };
  /** Assets per batch handed to the main thread. */
  batchSize: number;
}

export type DiscoveryThreadMessage =
  | Extract<DiscoveryEvent, { type: 'notice' | 'progress' }>
  | { type: 'assets'; assets: DiscoveredAsset[] }
  | { type: 'done'; total: number; peakHeapMb: number }
  | { type: 'error'; message: string };

export type DiscoveryThreadRequest = { type: 'abort'; reason: string } | { type: 'ack' };

const BOOT = new URL('./discovery-thread-boot.mjs', import.meta.url);

/** MiB of heap a discovery thread may use (VIGIL_ENUMERATION_HEAP_MB, default 1,024). */
export const discoveryHeapMb = (env: NodeJS.ProcessEnv = process.env) => {
  const n = Number(env.VIGIL_ENUMERATION_HEAP_MB);
  return Number.isFinite(n) && n >= 64 ? n : 1024;
};

export interface DiscoveryThreadRun {
  signal?: AbortSignal;
  onEvent: (e: Extract<DiscoveryEvent, { type: 'notice' | 'progress' }>) => void;
  /** Called with each batch; the next batch is sent once it resolves. */
  onAssets: (assets: DiscoveredAsset[]) => Promise<void>;
}

/** Runs discovery on a new thread; resolves with the number of assets handed over and the thread's peak heap. */
export function runDiscoveryThread(
  input: DiscoveryThreadInput,
  run: DiscoveryThreadRun,
): Promise<{ total: number; peakHeapMb: number }> {
  const heapMb = discoveryHeapMb();
  const w = new Worker(BOOT, { workerData: input, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
  return new Promise((resolve, reject) => {
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;
    const finish = (err: Error | undefined, done = { total: 0, peakHeapMb: 0 }) => {
      if (settled) return;
      settled = true;
      clearTimeout(killTimer);
      run.signal?.removeEventListener('abort', onAbort);
      void w.terminate();
      if (err) reject(err);
      else resolve(done);
    };
    const onAbort = () => {
      w.postMessage({
        type: 'abort',
        reason: String(run.signal?.reason ?? 'aborted'),
      } satisfies DiscoveryThreadRequest);
      killTimer = setTimeout(() => finish(new Error('the discovery thread did not stop; it was terminated')), 5_000);
    };
    w.on('message', (m: DiscoveryThreadMessage) => {
      switch (m.type) {
        case 'notice':
        case 'progress':
          run.onEvent(m);
          break;
        case 'assets':
          run.onAssets(m.assets).then(
            () => w.postMessage({ type: 'ack' } satisfies DiscoveryThreadRequest),
            (err) => finish(err as Error),
          );
          break;
        case 'done':
          finish(undefined, { total: m.total, peakHeapMb: m.peakHeapMb });
          break;
        case 'error':
          finish(new Error(m.message));
          break;
      }
    });
    w.once('error', (err: Error & { code?: string }) =>
      finish(
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new Error(`the discovery thread ran out of memory (VIGIL_ENUMERATION_HEAP_MB: ${heapMb} MiB)`)
          : err,
      ),
    );
    w.once('exit', (code) => finish(new Error(`the discovery thread exited (${code})`)));
    if (run.signal?.aborted) return finish(new Error('aborted'));
    run.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
