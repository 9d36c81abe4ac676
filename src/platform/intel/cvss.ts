// Choosing the CVSS score a record shows, and reading attack vector and privileges from its vector text.
import type { CvssFact } from './facts.ts';

// The record shows the best available CVSS: 3.1, then 3.0, then 4.0, then 2.0.
const VERSION_RANK: Record<string, number> = { '3.1': 0, '3.0': 1, '4.0': 2, '2.0': 3 };

// Within one version: NVD's primary score, then the CNA's, then ADP (CISA), then other NVD sources.
function sourceRank(c: CvssFact): number {
  if (c.source.startsWith('nvd:') && c.primary) return 0;
  if (c.source === 'cna') return 1;
  if (c.source.startsWith('adp:')) return 2;
  return 3;
}

export function bestCvss(list: CvssFact[]): CvssFact | undefined {
  return [...list]
    .filter((c) => c.version in VERSION_RANK)
    .sort((a, b) => VERSION_RANK[a.version]! - VERSION_RANK[b.version]! || sourceRank(a) - sourceRank(b))[0];
}

export function vectorMetrics(vector: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of vector.replace(/^\(|\)$/g, '').split('/')) {
    const [k, v] = part.split(':');
    if (k && v && k !== 'CVSS') out[k] = v;
  }
  return out;
}

/** AV:N (network) in 3.x/4.0 and 2.0 vectors. Undefined when the vector has no attack vector. */
export function isRemote(vector: string): boolean | undefined {
  const av = vectorMetrics(vector).AV;
  return av === undefined ? undefined : av === 'N';
}

/** Privileges required (PR:L/H) in 3.x/4.0, or authentication (Au:S/M) in 2.0. */
export function isAuth(vector: string): boolean | undefined {
  const m = vectorMetrics(vector);
  if (m.PR !== undefined) return m.PR !== 'N';
  if (m.Au !== undefined) return m.Au !== 'N';
  return undefined;
}

export function userInteraction(vector: string): boolean | undefined {
  const m = vectorMetrics(vector);
  if (m.UI === undefined) return undefined;
  return m.UI !== 'N';
}

/** Severity name for a score when the source gives none (CVSS 2.0 has no severity field). */
export function severityFromScore(score: number, version: string): string {
  if (version === '2.0') return score >= 7 ? 'high' : score >= 4 ? 'medium' : 'low';
  if (score === 0) return 'none';
  return score >= 9 ? 'critical' : score >= 7 ? 'high' : score >= 4 ? 'medium' : 'low';
}
