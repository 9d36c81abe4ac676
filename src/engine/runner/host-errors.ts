// Counts network errors per host across all templates; past the limit the host is skipped for the
// rest of the scan (nuclei's -max-host-error). A limit of 0 disables skipping.

export class HostErrors {
  private counts = new Map<string, number>();
  constructor(private readonly max: number) {}

  record(host: string): void {
    this.counts.set(host, (this.counts.get(host) ?? 0) + 1);
  }

  isSkipped(host: string): boolean {
    return this.max > 0 && (this.counts.get(host) ?? 0) >= this.max;
  }
}
