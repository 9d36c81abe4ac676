// The CSV feeds (EPSS, bug-bounty counts) read with csv-parse: quoted fields, CRLF, blank lines and `#`
// comment lines. A row the parser cannot read is skipped and reported, as a row with bad values is.
import { parse } from 'csv-parse/sync';
import type { Doc, Sink } from './types.ts';

export interface CsvRow {
  /** The row's cells, trimmed. */
  cells: string[];
  /** `file:line` of the row, for skip reports. */
  ref: string;
}

/** The rows of a CSV document, header included; `#` lines are comments. */
export function csvRows(doc: Doc, sink: Sink): CsvRow[] {
  // With `info`, each record comes as { record, info }; csv-parse's types do not follow that option.
  const records = parse(doc.text, {
    comment: '#',
    comment_no_infix: true,
    skip_empty_lines: true,
    trim: true,
    relax_column_count: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (err) => {
      if (err) sink.skip(`${doc.name}:${err.lines}`, `not readable as CSV: ${err.message}`);
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];
  return records.map(({ record, info }) => ({ cells: record, ref: `${doc.name}:${info.lines}` }));
}

/** The `#` comment lines of a CSV document (EPSS states its model and score date there). */
export function csvComments(doc: Doc): string[] {
  return doc.text.match(/^#.*$/gm) ?? [];
}
