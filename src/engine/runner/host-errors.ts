// Counts network errors per host across all templates; past the limit the host is skipped for the
// rest of the scan (nuclei's -max-host-error). A limit of 0 disables skipping.

export class HostErrors {
  private counts = new Map<string, number>();
  /** `onSkip` is told once per host, when it reaches the limit. */
  constructor(
    private readonly max: number,
    private readonly onSkip?: (host: string, errors: number) => void,
  ) {}

  record(host: string): void {
    const n = (this.counts.get(host) ?? 0) + 1;
    this.counts.set(host, n);
    if (this.max > 0 && n === this.max) this.onSkip?.(host, n);
  }

  isSkipped(host: string): boolean {
    return this.max > 0 && (this.counts.get(host) ?? 0) >= this.max;
  }
}
