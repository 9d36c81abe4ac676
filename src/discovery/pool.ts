// Bounded concurrency with an optional shared rate: every step runs its work items through this.
import { TokenBucket } from '../engine/index.ts';
import type { Limits } from './types.ts';

export class Throttle {
  private readonly bucket: TokenBucket;
  constructor(readonly limits: Limits) {
    this.bucket = new TokenBucket(limits.rateLimit);
  }

  /** Runs fn over items, at most `concurrency` at a time, each after taking a rate token. */
  async each<T>(
    items: Iterable<T>,
    fn: (item: T) => Promise<void>,
    onDone?: (done: number, total: number) => void,
  ): Promise<void> {
    const total = Array.isArray(items) ? items.length : -1;
    const it = items[Symbol.iterator]();
    let done = 0;
    const signal = this.limits.signal;
    const worker = async () => {
      for (;;) {
        if (signal?.aborted) return;
        const next = it.next();
        if (next.done) return;
        if (this.limits.rateLimit > 0) await this.bucket.take();
        await fn(next.value);
        done++;
        onDone?.(done, total);
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, this.limits.concurrency) }, worker));
    if (signal?.aborted) throw signal.reason ?? new Error('aborted');
  }
}
