// The guard of a running chunk: one abort signal that fires when the worker must stop (the outer signal),
// when the scan is stopped, deleted or run again (polled), or when the chunk's slot lease is lost (renewed
// on a timer; another attempt of this chunk took it over after the queue gave up on this one).
import type { AppContext } from '../shared/context.ts';
import * as store from './store.ts';
import { renewSlot, LEASE_SECONDS, type Lease } from './slots.ts';

export interface ChunkGuard {
  /** Aborts the engine's run. */
  signal: AbortSignal;
  /** The scan was stopped, deleted or rescanned: the chunk ends as 'stopped'. */
  readonly stopped: boolean;
  /** The slot lease went to another attempt: the chunk must fail so its job is retried. */
  readonly leaseLost: boolean;
  /** Stops the timers and lets go of the outer signal. */
  close(): void;
}

export function guardChunk(
  ctx: Pick<AppContext, 'db'>,
  a: { scanId: string; run: number; lease: Lease; signal?: AbortSignal; pollMs?: number },
): ChunkGuard {
  const stop = new AbortController();
  let stopped = false;
  let leaseLost = false;
  const onOuterAbort = () => stop.abort(a.signal?.reason);
  a.signal?.addEventListener('abort', onOuterAbort, { once: true });
  // Stop checks: a stopped, deleted or rescanned scan aborts this chunk without storing more.
  const poll = setInterval(async () => {
    try {
      const st = await store.runState(ctx.db, a.scanId);
      if (!st || st.rescan_count !== a.run || !['queued', 'starting', 'running'].includes(st.status)) {
        stopped = true;
        stop.abort(new Error('scan stopped'));
      }
    } catch {
      // a failed check is retried on the next tick
    }
  }, a.pollMs ?? 1000);
  // The lease is renewed while the chunk runs; losing it stops sending at once.
  const renew = setInterval(
    async () => {
      try {
        if (!(await renewSlot(ctx.db, a.scanId, a.lease))) {
          leaseLost = true;
          stop.abort(new Error('chunk slot lease lost'));
        }
      } catch {
        // retried on the next tick; the lease outlives two missed renewals
      }
    },
    (LEASE_SECONDS * 1000) / 3,
  );
  return {
    signal: stop.signal,
    get stopped() {
      return stopped;
    },
    get leaseLost() {
      return leaseLost;
    },
    close() {
      clearInterval(poll);
      clearInterval(renew);
      a.signal?.removeEventListener('abort', onOuterAbort);
    },
  };
}
