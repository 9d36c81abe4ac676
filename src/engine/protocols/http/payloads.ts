// Payload combinations: batteringram (one list), pitchfork (lists side by side, stops at the shortest),
// clusterbomb (every combination).
import type { AttackType, Payloads } from '../../template/types.ts';

/**
 * The payload combinations of a block, one map per request. An iterator object rather than a generator:
 * every request of a scan takes one, and resuming a generator costs more than a call.
 */
export function combinations(
  payloads: Payloads | undefined,
  attack: AttackType,
): IterableIterator<Record<string, string>> {
  return new Combinations(payloads, attack);
}

class Combinations implements IterableIterator<Record<string, string>> {
  private readonly names: string[];
  private readonly lists: string[][];
  private readonly clusterbomb: boolean;
  /** Position in each list (clusterbomb), or idx[0] for all lists side by side. */
  private readonly idx: number[];
  /** How many combinations batteringram / pitchfork yield (the shortest list). */
  private readonly rows: number;
  private done: boolean;

  constructor(payloads: Payloads | undefined, attack: AttackType) {
    this.names = Object.keys(payloads ?? {});
    this.lists = this.names.map((n) => payloads![n] ?? []);
    this.clusterbomb = attack === 'clusterbomb';
    this.idx = this.names.map(() => 0);
    this.rows = this.lists.length > 0 ? Math.min(...this.lists.map((l) => l.length)) : 1;
    // Clusterbomb with an empty list has no combination; no payloads at all has one, the empty map.
    this.done = this.clusterbomb ? this.lists.some((l) => l.length === 0) : this.rows === 0;
  }

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Record<string, string>> {
    if (this.done) return { done: true, value: undefined };
    const { names, lists, idx } = this;
    const combo: Record<string, string> = {};
    if (names.length === 0) {
      this.done = true;
      return { done: false, value: combo };
    }
    if (this.clusterbomb) {
      for (let i = 0; i < names.length; i++) combo[names[i]!] = lists[i]![idx[i]!]!;
      // Odometer: advance the last list first so the first payload changes slowest.
      let i = names.length - 1;
      while (i >= 0) {
        idx[i]!++;
        if (idx[i]! < lists[i]!.length) break;
        idx[i] = 0;
        i--;
      }
      if (i < 0) this.done = true;
      return { done: false, value: combo };
    }
    // batteringram and pitchfork both walk the lists side by side; batteringram normally has one list.
    const k = idx[0]!;
    for (let i = 0; i < names.length; i++) combo[names[i]!] = lists[i]![k]!;
    idx[0] = k + 1;
    if (k + 1 >= this.rows) this.done = true;
    return { done: false, value: combo };
  }
}

export function countCombinations(payloads: Payloads | undefined, attack: AttackType): number {
  const lists = Object.values(payloads ?? {});
  if (lists.length === 0) return 1;
  if (attack === 'clusterbomb') return lists.reduce((a, l) => a * l.length, 1);
  return Math.min(...lists.map((l) => l.length));
}
