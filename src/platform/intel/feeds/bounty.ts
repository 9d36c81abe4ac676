// Bug-bounty report counts per CVE: CSV "cve,rank,reports" (one file per day). The day comes from the
// --date option or a YYYY-MM-DD in the file name; the importer keeps the previous day's values for deltas.
import { normCveId } from '../facts.ts';
import { csvRows } from './csv.ts';
import type { Doc, ParseOptions, Sink } from './types.ts';

export interface BountyRow {
  rank: number;
  reports: number;
  date: string;
}

export function isBounty(text: string): boolean {
  return /^\s*cve,rank,reports\s*$/i.test(text.slice(0, 100).split(/\r?\n/)[0] ?? '');
}

export function bountyDate(doc: Doc, opts: ParseOptions): string {
  const fromName = doc.name.match(/(\d{4}-\d{2}-\d{2})/)?.[1];
  return opts.date ?? fromName ?? new Date().toISOString().slice(0, 10);
}

export function parseBounty(doc: Doc, sink: Sink, opts: ParseOptions): void {
  const date = bountyDate(doc, opts);
  csvRows(doc, sink).forEach(({ cells, ref }, i) => {
    if (i === 0) return; // the header
    const [cve, rankText, reportsText] = cells;
    const id = normCveId(cve);
    if (!id) return sink.skip(ref, `"${cve ?? ''}" is not a CVE id`);
    const rank = Number(rankText);
    const reports = Number(reportsText);
    if (!Number.isInteger(rank) || rank < 0) return sink.skip(id, `rank "${rankText ?? ''}" is not a whole number`);
    if (!Number.isInteger(reports) || reports < 0)
      return sink.skip(id, `reports "${reportsText ?? ''}" is not a whole number`);
    const row: BountyRow = { rank, reports, date };
    sink.fact(id, row);
  });
}
