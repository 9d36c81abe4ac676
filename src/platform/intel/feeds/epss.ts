// FIRST EPSS daily CSV: "#model_version:...,score_date:YYYY-MM-DDT00:00:00+0000", then "cve,epss,percentile".
import type { EpssFact } from '../facts.ts';
import { isoDate, normCveId } from '../facts.ts';
import { csvComments, csvRows } from './csv.ts';
import type { Doc, ParseOptions, Sink } from './types.ts';

export function isEpss(text: string): boolean {
  const head = text.slice(0, 300).toLowerCase();
  return head.startsWith('#model_version') || /^\s*cve,epss,percentile/.test(head);
}

export function parseEpss(doc: Doc, sink: Sink, opts: ParseOptions): void {
  let date = opts.date ? isoDate(opts.date) : undefined;
  for (const line of csvComments(doc)) {
    const m = line.match(/score_date:([0-9T:+\-.Z]+)/);
    if (m) date = isoDate(m[1]!.replace(/\+0000$/, 'Z')) ?? date;
  }
  let columns: string[] | undefined;
  csvRows(doc, sink).forEach(({ cells, ref }) => {
    if (!columns) {
      columns = cells.map((c) => c.toLowerCase());
      return;
    }
    const get = (name: string) => cells[columns!.indexOf(name)];
    const id = normCveId(get('cve'));
    if (!id) return sink.skip(ref, `"${get('cve') ?? ''}" is not a CVE id`);
    const score = Number(get('epss'));
    const percentile = Number(get('percentile'));
    if (!Number.isFinite(score) || score < 0 || score > 1)
      return sink.skip(id, `epss "${get('epss') ?? ''}" is not a probability`);
    if (!Number.isFinite(percentile) || percentile < 0 || percentile > 1)
      return sink.skip(id, `percentile "${get('percentile') ?? ''}" is not between 0 and 1`);
    const fact: EpssFact = { score, percentile, date };
    sink.fact(id, fact);
  });
}
