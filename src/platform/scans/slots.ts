// Chunk slots: how a scan's rate limit holds across every worker. A scan run has P slots (its chunk
// parallelism); a chunk runs only while it holds a slot's lease, and each running chunk gets the scan's
// rate limit / P. Leases live in PostgreSQL (table scan_slots), so any number of worker processes share
// them; a lease expires unless its chunk renews it, so a worker that dies frees its slot on its own.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import type { EngineOptions } from './apply-configs.ts';
import { WORKER_NAME } from './store.ts';
import * as slotStore from './slot-store.ts';

const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number(v) > 0 ? Number(v) : d);

/** Seconds a lease lasts without renewal (VIGIL_SCAN_SLOT_LEASE); the chunk renews it every third of that. */
export const LEASE_SECONDS = num(process.env.VIGIL_SCAN_SLOT_LEASE, 30);

/** Default chunk parallelism of a scan (VIGIL_SCAN_CHUNK_PARALLELISM); a scan config's value wins. */
export function defaultParallelism(env: NodeJS.ProcessEnv = process.env): number {
  return Math.floor(num(env.VIGIL_SCAN_CHUNK_PARALLELISM, 4));
}

/**
 * Slots of a scan run: its parallelism, no more than its chunks, and no more than its rate limit (so each
 * chunk gets at least one request per second). Every worker computes the same number from the scan row.
 */
export function slotCount(eo: EngineOptions, chunks: number): number {
  let p = Math.min(64, Math.floor(eo.parallelism ?? defaultParallelism()), Math.max(1, chunks));
  if (eo.rateLimit !== undefined && eo.rateLimit > 0) p = Math.min(p, Math.floor(eo.rateLimit));
  return Math.max(1, p);
}

/** One running chunk's share of the scan's rate limit. 0 (or unset) means no limit and stays so. */
export function chunkRate(rate: number | undefined, slots: number): number | undefined {
  if (rate === undefined || rate <= 0) return rate;
  return rate / Math.max(1, slots);
}

/**
 * One running chunk's share of the scan's concurrency (templates at a time), like its rate limit: the
 * scan's chunks together run about as many templates at once as the scan asked for, wherever they run.
 * Without the split, one worker running four chunks of a scan ran four times its concurrency, and paid
 * for it in CPU (far more requests waiting on the same connections) with no more throughput.
 */
export function chunkConcurrency(concurrency: number | undefined, slots: number): number | undefined {
  if (concurrency === undefined || concurrency <= 0) return concurrency;
  return Math.max(1, Math.ceil(concurrency / Math.max(1, slots)));
}

export interface Lease {
  slot: number;
  holder: string;
  /** ms to wait before sending: the slot's previous chunk let go less than a burst ago. */
  waitMs: number;
}

/**
 * Takes a free slot of the scan for one chunk attempt, or answers undefined when all are held. Free: never
 * used, released, expired, held for an older run, or held by an earlier attempt of this same chunk (that
 * attempt is dead or was given up by the queue; it notices when its renewal fails). The upsert's WHERE is
 * evaluated on the locked row, so two workers never win the same slot.
 */
export async function acquireSlot(
  db: Db,
  scanId: string,
  run: number,
  idx: number,
  slots: number,
  burstSeconds: number,
): Promise<Lease | undefined> {
  const holder = randomUUID();
  const start = Math.floor(Math.random() * slots); // spread workers over the slots
  for (let i = 0; i < slots; i++) {
    const slot = (start + i) % slots;
    const waitMs = await slotStore.takeSlot(db, {
      scanId,
      slot,
      run,
      idx,
      holder,
      worker: WORKER_NAME,
      leaseSeconds: LEASE_SECONDS,
      burstSeconds,
    });
    if (waitMs !== undefined) return { slot, holder, waitMs: Math.ceil(waitMs) };
  }
  return undefined;
}

/** Extends a lease; false when it was taken over (the chunk must stop sending). */
export async function renewSlot(db: Db, scanId: string, lease: Lease): Promise<boolean> {
  return slotStore.extendLease(db, scanId, lease.slot, lease.holder, LEASE_SECONDS);
}

export async function releaseSlot(db: Db, scanId: string, lease: Lease): Promise<void> {
  await slotStore.freeSlot(db, scanId, lease.slot, lease.holder);
}
