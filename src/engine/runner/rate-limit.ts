// A global token bucket: `rate` requests per second shared by every request of a scan, with a burst of
// one second's worth. rate 0 means no limit.

export class TokenBucket {
  private tokens: number;
  private last = performance.now();
  private waiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly rate: number,
    private readonly burst = Math.max(1, rate),
  ) {
    this.tokens = this.burst;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }

  take(): Promise<void> {
    if (this.rate <= 0) return Promise.resolve();
    this.refill();
    if (this.waiters.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, ((1 - this.tokens) / this.rate) * 1000);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.refill();
      while (this.waiters.length > 0 && this.tokens >= 1) {
        this.tokens -= 1;
        this.waiters.shift()!();
      }
      if (this.waiters.length > 0) this.schedule();
    }, wait);
  }

  /** Releases everyone waiting (used when a scan is aborted). */
  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const w of this.waiters.splice(0)) w();
  }
}
