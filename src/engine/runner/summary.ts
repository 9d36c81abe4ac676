// Which templates of a selection this engine runs, per protocol, and why the others are left out
// (`vigil scan` prints it; the platform logs skipped templates one by one).
import type { Template } from '../template/types.ts';
import { countCombinations } from '../protocols/http/payloads.ts';

export interface ProtocolCount {
  /** Templates of this protocol the engine runs. */
  ran: number;
  /** Templates left out, by reason. */
  skipped: Map<string, number>;
}

/** The protocol a template counts under: its blocks' protocols (`dns+http` when several), or workflow. */
export function templateProtocol(t: Template): string {
  if (t.workflows && t.workflows.length > 0) return 'workflow';
  const order = t.protocolOrder ?? [...(t.http.length > 0 ? ['http'] : []), ...new Set(t.other.map((o) => o.protocol))];
  return order.length > 0 ? order.join('+') : t.type;
}

export function protocolSummary(
  templates: Template[],
  reasonOf: (t: Template) => string | undefined,
): Map<string, ProtocolCount> {
  const out = new Map<string, ProtocolCount>();
  for (const t of templates) {
    const key = templateProtocol(t);
    let c = out.get(key);
    if (!c) out.set(key, (c = { ran: 0, skipped: new Map() }));
    const why = reasonOf(t);
    if (why) c.skipped.set(why, (c.skipped.get(why) ?? 0) + 1);
    else c.ran++;
  }
  return out;
}

/** One line per protocol, most templates first: `dns: 22 ran, 1 skipped (1 uses trace)`. */
export function formatProtocolSummary(summary: Map<string, ProtocolCount>): string[] {
  const total = (c: ProtocolCount) => c.ran + [...c.skipped.values()].reduce((a, b) => a + b, 0);
  return [...summary]
    .sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]))
    .map(([name, c]) => {
      const skipped = [...c.skipped.values()].reduce((a, b) => a + b, 0);
      const why = [...c.skipped]
        .sort((a, b) => b[1] - a[1])
        .map(([r, n]) => `${n} ${r}`)
        .join('; ');
      return `${name}: ${c.ran} ran${skipped > 0 ? `, ${skipped} skipped (${why})` : ''}`;
    });
}

/** The http requests one target gets from a template: its payload combinations times its paths, per block. */
export function requestsPerTarget(t: Template): number {
  let n = 0;
  for (const b of t.http)
    n +=
      countCombinations(b.payloads, b.payloads ? b.attack : 'batteringram') *
      Math.max(1, b.raw.length || b.path.length);
  return n;
}
