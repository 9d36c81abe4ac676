// Failed sign-ins are limited per account (email) and per client address within a sliding window; a
// success clears the account's count. Kept in memory: each API process limits on its own (documented in
// docs/console.md), which still bounds password guessing to a few tries per window and process.
// A try is counted as a failure before its password is checked and forgiven once it succeeds: counted
// after the (slow) password hash instead, sixty guesses sent at once all passed the check together.
export interface FailureLimiterOptions {
  max: number;
  windowMs: number;
  /** Entries kept at most (oldest dropped first), so a flood of addresses cannot exhaust memory. */
  cap?: number;
}

export class FailureLimiter {
  private readonly hits = new Map<string, number[]>();
  constructor(private readonly opts: FailureLimiterOptions) {}

  /** Seconds until another try is allowed, or 0 when the key may try now. */
  retryAfter(key: string, now = Date.now()): number {
    const list = this.recent(key, now);
    if (list.length < this.opts.max) return 0;
    return Math.max(1, Math.ceil((list[0]! + this.opts.windowMs - now) / 1000));
  }

  fail(key: string, now = Date.now()): void {
    const list = this.recent(key, now);
    list.push(now);
    this.hits.delete(key);
    this.hits.set(key, list);
    const cap = this.opts.cap ?? 100_000;
    while (this.hits.size > cap) this.hits.delete(this.hits.keys().next().value!);
  }

  /** A counted try (recorded at `at` by fail()) that succeeded: it no longer counts. */
  forgive(key: string, at: number): void {
    const list = this.hits.get(key);
    const i = list ? list.indexOf(at) : -1;
    if (i < 0) return;
    list!.splice(i, 1);
    if (!list!.length) this.hits.delete(key);
  }

  clear(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, now: number): number[] {
    const list = (this.hits.get(key) ?? []).filter((t) => t > now - this.opts.windowMs);
    if (list.length) this.hits.set(key, list);
    else this.hits.delete(key);
    return list;
  }
}
