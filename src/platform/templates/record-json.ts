// Each template's API Template record kept as JSON text beside its columns (migration 035), so a search
// page sends those texts as they are: reading a page's 32 columns (arrays, jsonb, dates, the source) and
// building and serializing the records was most of an uncached search's own time (docs/performance.md).
// The text is written by the serializer Fastify builds for the search route (fast-json-stringify over the
// same TypeBox schema), from the record toRecord builds from the columns: the same bytes the route sent
// from the columns. Any UPDATE of a row clears its text (a trigger), so a stored text is never older than
// its row; fillRecordJson writes the missing ones (after the store's writes, and at start).
import fastJson from 'fast-json-stringify';
import type { Db } from '../../db/connection.ts';
import { columnsFor, RECORD_FIELDS, toRecord } from './format.ts';
import { TemplateRecord } from './schemas.ts';
import { recordRowsWithout, writeRecordJson, type TemplateRow } from './store.ts';

/** The columns a whole record is built from. */
const RECORD_COLUMN_LIST = columnsFor(RECORD_FIELDS)
  .split(', ')
  .map((c) => `t.${c}`)
  .join(', ');

/** One Template record as the route's serializer writes it. */
export const serializeRecord: (record: Record<string, unknown>) => string = fastJson(TemplateRecord);

// Stand-ins for name and description while the spans are found: a lone surrogate, which the serializer
// writes as the escape "\ud800" and no stored text can hold (PostgreSQL text is valid UTF-8).
const NAME_MARK = '\ud800';
const DESCRIPTION_MARK = '\ud801';

export interface RecordText {
  json: string;
  /** UTF-16 offsets in json of the name value [start, end) and the description value; -1 when absent. Null: not found. */
  spans: number[] | null;
}

/** The stored form of one row: its whole record as JSON, and where its name and description values are. */
export function recordText(row: Partial<TemplateRow>): RecordText {
  const record = toRecord(row);
  const json = serializeRecord(record);
  return { json, spans: findSpans(record, json) };
}

function findSpans(record: Record<string, unknown>, json: string): number[] | null {
  const hasName = typeof record.name === 'string';
  const hasDescription = typeof record.description === 'string';
  const marked = serializeRecord({
    ...record,
    ...(hasName ? { name: NAME_MARK } : {}),
    ...(hasDescription ? { description: DESCRIPTION_MARK } : {}),
  });
  const spans = [-1, -1, -1, -1];
  let out = '';
  let from = 0;
  for (const [i, mark, value, present] of [
    [0, NAME_MARK, record.name, hasName],
    [2, DESCRIPTION_MARK, record.description, hasDescription],
  ] as const) {
    if (!present) continue;
    const written = JSON.stringify(mark);
    const at = marked.indexOf(written, from);
    if (at < 0 || marked.indexOf(written, at + written.length) >= 0) return null;
    out += marked.slice(from, at);
    spans[i] = out.length;
    out += JSON.stringify(value);
    spans[i + 1] = out.length;
    from = at + written.length;
  }
  out += marked.slice(from);
  // The spans hold only if the texts put back give the record's own text (the serializer writes a string
  // as JSON.stringify does); otherwise highlighted searches read the columns of this row.
  return out === json ? spans : null;
}

/**
 * The record text with name and description replaced by these values (undefined: kept), by the spans.
 * Values are written as the serializer writes strings.
 */
export function withTexts(
  json: string,
  spans: number[],
  name: string | undefined,
  description: string | undefined,
): string {
  const [n0, n1, d0, d1] = spans as [number, number, number, number];
  let out = '';
  let from = 0;
  if (n0 >= 0 && name !== undefined) {
    out += json.slice(from, n0) + JSON.stringify(name);
    from = n1;
  }
  if (d0 >= 0 && description !== undefined) {
    out += json.slice(from, d0) + JSON.stringify(description);
    from = d1;
  }
  return out + json.slice(from);
}

/** The value a span holds (a JSON string), or undefined when the field is absent. */
export function spanText(json: string, start: number, end: number): string | undefined {
  return start < 0 ? undefined : (JSON.parse(json.slice(start, end)) as string);
}

/**
 * Writes the record text of every row that has none (new rows, rows changed since), or of those of `pks`,
 * in batches; a row changed again meanwhile keeps none (the write checks the row version it read). Returns
 * how many it wrote.
 */
export async function fillRecordJson(db: Db, pks?: number[], batch = 200): Promise<number> {
  let written = 0;
  let after = 0;
  for (;;) {
    const rows = await recordRowsWithout(db, after, batch, RECORD_COLUMN_LIST, pks);
    if (rows.length === 0) return written;
    const texts = rows.map((r) => ({ pk: r.pk, version: r.row_version, ...recordText(r) }));
    written += await writeRecordJson(db, texts);
    after = rows.at(-1)!.pk;
    if (rows.length < batch) return written;
  }
}
