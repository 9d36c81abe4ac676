// Scan log records: the export filters, batched reads (keyset on insertion order, so memory stays flat however
// long the log is) and the three file formats.
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import * as logStore from './log-store.ts';
import type { LogFilter } from './log-store.ts';

export type { LogFilter } from './log-store.ts';

export type LogFormat = 'raw' | 'json' | 'csv';

/** Query parameters of the export endpoint, as received. */
export interface LogQuery {
  rescan_count?: number;
  host?: string;
  template?: string;
  matched?: string;
  time?: string;
  search?: string;
  error?: string;
  format?: LogFormat;
  severity?: 'error' | 'info' | 'all_logs';
}

export function parseLogQuery(q: LogQuery): { filter: LogFilter; format: LogFormat } {
  let matched: boolean | undefined;
  if (q.matched !== undefined && q.matched !== '') {
    const m = q.matched.toLowerCase();
    if (['true', 'matched', '1', 'yes'].includes(m)) matched = true;
    else if (['false', 'unmatched', 'not_matched', '0', 'no'].includes(m)) matched = false;
    else throw badRequest(`matched must be true or false, got "${q.matched}"`, 'matched');
  }
  let since: Date | undefined;
  if (q.time) {
    since = relativeTime(q.time) ?? new Date(q.time);
    if (Number.isNaN(since.getTime())) throw badRequest(`time "${q.time}" is not a date-time`, 'time');
  }
  return {
    format: q.format ?? 'json',
    filter: {
      run: q.rescan_count,
      host: q.host || undefined,
      template: q.template || undefined,
      matched,
      since,
      search: q.search || undefined,
      error: q.error || undefined,
      level: q.severity ?? 'all_logs',
    },
  };
}

const DAY = 86_400_000;
function relativeTime(v: string): Date | undefined {
  const days = {
    last_day: 1,
    last_week: 7,
    last_month: 30,
    last_3_months: 90,
    last_6_months: 180,
    last_12_months: 365,
  }[v];
  return days ? new Date(Date.now() - days * DAY) : undefined;
}

export interface LogRecord {
  target: string;
  template_id: string;
  matched: boolean;
  timestamp: string;
  error: string;
  severity: string;
  event: string;
  vuln_hash: string;
  /** The agent that made the attempt (absent: a worker). */
  agent_id?: string;
}

/** The matching records in insertion order (both tables, see logsAfter), up to `batch` at a time. */
export async function* readLogs(db: Db, scanId: string, f: LogFilter, batch = 1000): AsyncGenerator<LogRecord[]> {
  let after: logStore.LogCursor | null = { seq: '0', ord: 0 };
  while (after) {
    const { rows, next } = await logStore.logsAfter(db, scanId, f, after, batch);
    after = next;
    if (rows.length === 0) continue;
    yield rows.map((r) => ({
      target: r.target,
      template_id: r.template_id,
      matched: r.matched,
      timestamp: new Date(r.created_at).toISOString(),
      error: r.error ?? '',
      severity: r.severity ?? '',
      event: r.event ?? '',
      vuln_hash: r.vuln_hash ?? '',
      ...(r.agent_id ? { agent_id: r.agent_id } : {}),
    }));
  }
}

const CSV_COLUMNS: (keyof LogRecord)[] = [
  'timestamp',
  'target',
  'template_id',
  'matched',
  'severity',
  'error',
  'vuln_hash',
  'event',
];

function csvCell(v: unknown): string {
  const s = String(v ?? '');
  // A leading = + - @ would run as a formula in a spreadsheet.
  const safe = /^[=+\-@]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Turns batches of records into the file's text, piece by piece. */
export async function* formatLogs(batches: AsyncIterable<LogRecord[]>, format: LogFormat): AsyncGenerator<string> {
  if (format === 'csv') yield CSV_COLUMNS.join(',') + '\n';
  if (format === 'json') yield '[';
  let first = true;
  for await (const batch of batches) {
    let out = '';
    for (const r of batch) {
      if (format === 'json') {
        out += (first ? '\n' : ',\n') + JSON.stringify(r);
      } else if (format === 'csv') {
        out += CSV_COLUMNS.map((c) => csvCell(r[c])).join(',') + '\n';
      } else {
        const state = r.error ? `error: ${r.error}` : r.matched ? 'matched' : 'not matched';
        out += `[${r.timestamp}] [${r.template_id}] [${r.severity || 'unknown'}] ${r.target} ${state}${r.vuln_hash ? ` vuln_hash=${r.vuln_hash}` : ''}\n`;
      }
      first = false;
    }
    yield out;
  }
  if (format === 'json') yield first ? ']\n' : '\n]\n';
}

export const CONTENT_TYPES: Record<LogFormat, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  raw: 'text/plain; charset=utf-8',
};
