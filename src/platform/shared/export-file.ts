// Export files of the platform (raw, json, csv), streamed: records arrive in batches and leave as text
// piece by piece, so an export of any size holds one batch in memory. CSV goes through csv-stringify with
// formulas escaped (a cell starting with = + - @ or a tab would run in a spreadsheet: it gets a leading ').
import { Readable, PassThrough, pipeline } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply } from 'fastify';
import { badRequest } from './errors.ts';

export const EXPORT_FORMATS = ['raw', 'json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  raw: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

export function exportFormatOf(value: string | undefined, fallback: ExportFormat = 'json'): ExportFormat {
  const f = (value ?? fallback).toLowerCase() as ExportFormat;
  if (!EXPORT_FORMATS.includes(f)) throw badRequest(`format must be one of ${EXPORT_FORMATS.join(', ')}`, 'format');
  return f;
}

export interface ExportSpec<T> {
  format: ExportFormat;
  /** Batches of records, in order. */
  batches: AsyncIterable<T[]>;
  /** The JSON record of one record. */
  json: (r: T) => unknown;
  /** The line of one record in a raw export. */
  raw: (r: T) => string;
  /** The CSV columns and each one's value. */
  csv: { columns: string[]; row: (r: T) => unknown[] };
}

/** A CSV cell's text: lists joined with "; ", nothing for null. */
function cell(v: unknown): string | number | boolean {
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(String).join('; ');
  if (typeof v === 'number' || typeof v === 'boolean') return v;
  if (typeof v === 'object') return JSON.stringify(v);
  return String(v);
}

/** The export's bytes as a stream (errors while reading end the stream with that error). */
export function exportStream<T>(spec: ExportSpec<T>): Readable {
  if (spec.format === 'csv') {
    async function* rows() {
      for await (const batch of spec.batches) for (const r of batch) yield spec.csv.row(r).map(cell);
    }
    const out = stringify({ header: true, columns: spec.csv.columns, escape_formulas: true });
    const pass = new PassThrough();
    pipeline(Readable.from(rows()), out, pass, () => {});
    return pass;
  }
  async function* text() {
    if (spec.format === 'json') yield '[';
    let first = true;
    for await (const batch of spec.batches) {
      let piece = '';
      for (const r of batch) {
        if (spec.format === 'json') {
          piece += (first ? '\n' : ',\n') + JSON.stringify(spec.json(r));
        } else {
          // One record per line: a line break inside a value would split it.
          piece += spec.raw(r).replace(/[\r\n]+/g, ' ') + '\n';
        }
        first = false;
      }
      if (piece) yield piece;
    }
    if (spec.format === 'json') yield first ? ']\n' : '\n]\n';
  }
  return Readable.from(text());
}

/** Sends an export file as the answer, streamed, as a download. */
export function sendExport(reply: FastifyReply, file: { stream: Readable; format: ExportFormat; name: string }) {
  reply.header('content-type', EXPORT_CONTENT_TYPES[file.format]);
  reply.header('content-disposition', `attachment; filename="${file.name}"`);
  reply.header('cache-control', 'private, no-store');
  return reply.send(file.stream);
}
