// The machine-readable end of a bench: one line `BENCH-FIGURES {json}` with named figures, which
// bench/run-all.ts (`npm run bench`) collects into its table. Humans read the lines above it.
// A figure's value is a number in the unit its name says (ms, s, MB, req/s, ratio), or null when the
// part that measures it was skipped (the reason goes in `skipped`).

import { existsSync } from 'node:fs';

export const FIGURES_PREFIX = 'BENCH-FIGURES ';

export type Figures = Record<string, number | null>;

/** Collects figures as a bench goes; print() writes the one line (call it once, at the end). */
export function figures(bench: string): {
  set(name: string, value: number | null): void;
  skip(reason: string): void;
  print(): void;
} {
  const values: Figures = {};
  const skipped: string[] = [];
  return {
    set(name, value) {
      values[name] = value === null || !Number.isFinite(value) ? null : Math.round(value * 1000) / 1000;
    },
    skip(reason) {
      skipped.push(reason);
    },
    print() {
      console.log(FIGURES_PREFIX + JSON.stringify({ bench, figures: values, skipped }));
    },
  };
}

/** Parses a bench's output; the last BENCH-FIGURES line wins. */
export function parseFigures(output: string): { bench: string; figures: Figures; skipped: string[] } | undefined {
  const line = output
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(FIGURES_PREFIX));
  return line
    ? (JSON.parse(line.slice(FIGURES_PREFIX.length)) as { bench: string; figures: Figures; skipped: string[] })
    : undefined;
}

/**
 * `../shared` (corpus, vulnerability data) is not part of a clone: without it a bench that reads it says
 * so, prints its (empty) figures line and exits 0, so `npm run bench` goes on with the others.
 */
export function skipWithoutShared(bench: string, needed: string): void {
  if (existsSync(needed)) return;
  const f = figures(bench);
  f.skip(`${needed} is absent (../shared is not part of a clone)`);
  console.log(`${bench}: skipped, ${needed} is absent (../shared is not part of a clone)`);
  f.print();
  process.exit(0);
}
