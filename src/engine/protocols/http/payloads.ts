// Payload combinations: batteringram (one list), pitchfork (lists side by side, stops at the shortest),
// clusterbomb (every combination).
import type { AttackType, Payloads } from '../../template/types.ts';

export function* combinations(payloads: Payloads | undefined, attack: AttackType): Generator<Record<string, string>> {
  const names = Object.keys(payloads ?? {});
  if (!payloads || names.length === 0) {
    yield {};
    return;
  }
  const lists = names.map((n) => payloads[n] ?? []);
  if (attack === 'clusterbomb') {
    if (lists.some((l) => l.length === 0)) return;
    const idx = names.map(() => 0);
    for (;;) {
      const combo: Record<string, string> = {};
      for (let i = 0; i < names.length; i++) combo[names[i]!] = lists[i]![idx[i]!]!;
      yield combo;
      // Odometer: advance the last list first so the first payload changes slowest.
      let i = names.length - 1;
      while (i >= 0) {
        idx[i]++;
        if (idx[i] < lists[i].length) break;
        idx[i] = 0;
        i--;
      }
      if (i < 0) return;
    }
  }
  // batteringram and pitchfork both walk the lists side by side; batteringram normally has one list.
  const n = Math.min(...lists.map((l) => l.length));
  for (let k = 0; k < n; k++) {
    const combo: Record<string, string> = {};
    for (let i = 0; i < names.length; i++) combo[names[i]!] = lists[i]![k]!;
    yield combo;
  }
}

export function countCombinations(payloads: Payloads | undefined, attack: AttackType): number {
  const lists = Object.values(payloads ?? {});
  if (lists.length === 0) return 1;
  if (attack === 'clusterbomb') return lists.reduce((a, l) => a * l.length, 1);
  return Math.min(...lists.map((l) => l.length));
}
