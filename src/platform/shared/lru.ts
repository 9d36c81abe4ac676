// A bounded map, least recently used first out: at most maxEntries entries and maxWeight in total (each
// entry's weight given when stored). The memory caches of the platform (notified-cache.ts,
// templates/facet-cache.ts) keep their entries in it and add their own rules of validity.
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; weight: number }>();
  private total = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight = Infinity,
  ) {}

  /** The value under key, now the most recently used. */
  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    // Re-inserted: the Map's order is least recently used first.
    this.entries.delete(key);
    this.entries.set(key, e);
    return e.value;
  }

  /** Stores value (replacing key's), then drops the least recently used while over either bound. */
  set(key: string, value: V, weight = 0): void {
    this.delete(key);
    this.entries.set(key, { value, weight });
    this.total += weight;
    while (this.entries.size > this.maxEntries || this.total > this.maxWeight) {
      this.delete(this.entries.keys().next().value!);
    }
  }

  delete(key: string): void {
    const e = this.entries.get(key);
    if (!e) return;
    this.entries.delete(key);
    this.total -= e.weight;
  }

  clear(): void {
    this.entries.clear();
    this.total = 0;
  }

  get size(): number {
    return this.entries.size;
  }
}
