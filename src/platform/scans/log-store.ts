// Tables scan_logs and scan_log_batches (a worker chunk's records, one row per write), read: the log export's filters as a WHERE clause and keyset batches; a finding's history.
import type { Db } from '../../db/connection.ts';
import { batchRecordPrefix, type BatchRecord } from './store.ts';

export interface LogFilter {
  run?: number;
  host?: string;
  template?: string;
  matched?: boolean;
  /** Only records at or after this time. */
  since?: Date;
  search?: string;
  error?: string;
  level: 'error' | 'info' | 'all_logs';
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/**
 * The filter's conditions on a record's columns (run, target, template_id, matched, created_at, error), their
 * parameters numbered after `params`' (which it extends).
 */
function recordConditions(f: LogFilter, params: unknown[]): string[] {
  const where: string[] = [];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    where.push(cond(`$${params.length}`));
  };
  if (f.run !== undefined) add((n) => `run = ${n}`, f.run);
  if (f.host) add((n) => `target ILIKE ${n}`, like(f.host));
  if (f.template) add((n) => `template_id ILIKE ${n}`, like(f.template));
  if (f.matched !== undefined) add((n) => `matched = ${n}`, f.matched);
  if (f.since) add((n) => `created_at >= ${n}`, f.since);
  if (f.error) add((n) => `error ILIKE ${n}`, like(f.error));
  if (f.search) add((n) => `(target ILIKE ${n} OR template_id ILIKE ${n} OR error ILIKE ${n})`, like(f.search));
  if (f.level === 'error') where.push(`error IS NOT NULL AND error <> ''`);
  if (f.level === 'info') where.push(`(error IS NULL OR error = '')`);
  return where;
}

/**
 * Conditions on a scan_log_batches row (alias b) that a batch with a record passing the filter meets: on
 * its columns, and (`text`) on its stored text, costly, so evaluated only on rows already picked in order.
 */
function batchConditions(f: LogFilter, params: unknown[]): { cheap: string[]; text: string[] } {
  const where: string[] = [];
  const text: string[] = [];
  const add = (cond: (n: string) => string, v: unknown, to = where) => {
    params.push(v);
    to.push(cond(`$${params.length}`));
  };
  if (f.run !== undefined) add((n) => `b.run = ${n}`, f.run);
  // A text a record's field holds is in the batch's JSON text as it is, unless JSON escapes some of it.
  for (const t of [f.host, f.template, f.error, f.search])
    if (t && !/["\\\u0000-\u001f]/.test(t)) add((n) => `b.records ILIKE ${n}`, like(t), text);
  if (f.since) add((n) => `b.last_at >= ${n}`, f.since);
  if (f.matched === true) where.push('b.n_matched > 0');
  if (f.matched === false) where.push('b.n_matched < b.n');
  if (f.level === 'error' || f.error) where.push('b.n_error > 0');
  if (f.level === 'info') where.push('b.n_error < b.n');
  return { cheap: where, text };
}

/**
 * The first batch at or after the cursor that still has records after it and can hold a matching record.
 * Walked in seq order, 1 to 64 batches a query, the text conditions computed above the LIMIT for those only:
 * as a WHERE clause they let the planner scan every later batch's text for a min(), at every read (716 ms
 * a read at 1,000,000 records).
 */
async function boundingBatch(db: Db, scanId: string, f: LogFilter, after: LogCursor): Promise<string | null> {
  let cursor = after;
  // One batch first (a common text passes the first), then more a query when batches keep failing.
  for (let take = 1; ; take = Math.min(take * 4, 64)) {
    const params: unknown[] = [scanId, cursor.seq, cursor.ord];
    const { cheap, text } = batchConditions(f, params);
    const { rows } = await db.query<{ seq: string; hit: boolean }>(
      `SELECT b.seq::text AS seq, ${text.length ? text.join(' AND ') : 'true'} AS hit FROM (
         SELECT b.seq, b.records FROM scan_log_batches b
         WHERE b.scan_id = $1 AND b.seq >= $2::bigint AND (b.seq > $2::bigint OR b.n > $3::bigint)
           ${cheap.map((c) => `AND ${c}`).join(' ')}
         ORDER BY b.seq LIMIT ${take}
       ) b ORDER BY b.seq`,
      params,
    );
    const hit = rows.find((r) => r.hit);
    if (hit) return hit.seq;
    if (rows.length < take) return null;
    cursor = { seq: rows[rows.length - 1]!.seq, ord: Number.MAX_SAFE_INTEGER };
  }
}

export interface LogRow {
  /** Insertion order: a scan_logs row's id (ord 0), or its batch's seq and its ordinal in the batch. */
  seq: string;
  ord: number;
  target: string;
  template_id: string;
  matched: boolean;
  created_at: Date;
  error: string | null;
  severity: string | null;
  event: string | null;
  vuln_hash: string | null;
  agent_id?: string | null;
}

/** Where a read of a scan's log stopped: the last record's (seq, ord); (0, 0) before the first. */
export interface LogCursor {
  seq: string;
  ord: number;
}

/** A batch's records as rows with scan_logs' column names (alias x for the expansion, b for the batch). */
const EXPANDED = `ROWS FROM (json_to_recordset(b.records::json) AS (t text, id text, m boolean, s text, e text, ev text,
  h text, at float8)) WITH ORDINALITY AS x(t, id, m, s, e, ev, h, at, ord)`;
const BATCH_RECORD = `b.seq, x.ord, b.run, x.t AS target, x.id AS template_id, x.m AS matched,
  to_timestamp(x.at / 1000.0) AS created_at, x.e AS error, x.s AS severity, x.ev AS event, x.h AS vuln_hash,
  NULL::text AS agent_id`;

/** Whether the filter looks at a record's own fields (else a batch passes or fails whole: run). */
const needsRecords = (f: LogFilter) =>
  f.host !== undefined ||
  f.template !== undefined ||
  f.matched !== undefined ||
  f.since !== undefined ||
  f.error !== undefined ||
  f.search !== undefined ||
  f.level !== 'all_logs';

/**
 * Up to `batch` records of a scan matching the filter after `after`, in insertion order, merged from both
 * tables. A read looks into one batch at most, whatever the size of the scan: the first batch at or after
 * the cursor that still has records after it and can hold a matching one (the bounding batch). It returns
 * the rows of scan_logs before that batch (by their (scan_id, id) index, at most `batch`), then that batch's
 * matching records. The batch travels as its stored JSON text, parsed here (a fraction of what returning
 * its records as rows costs, on PGlite above all); when the filter looks at records' fields, PostgreSQL
 * picks the matching ones (their ordinals), so every filter means exactly what it means for a row.
 * `next`: where the following read starts (null: nothing after these).
 */
export async function logsAfter(
  db: Db,
  scanId: string,
  f: LogFilter,
  after: LogCursor,
  batch: number,
): Promise<{ rows: LogRow[]; next: LogCursor | null }> {
  const upTo = await boundingBatch(db, scanId, f, after);
  let rows: LogRow[] = [];
  // Rows of scan_logs between the cursor and the bounding batch (none when the cursor is inside it).
  if (upTo !== after.seq) {
    const params: unknown[] = [scanId, after.seq, upTo, batch];
    const rw = recordConditions(f, params)
      .map((c) => `AND ${c}`)
      .join(' ');
    rows = (
      await db.query<LogRow>(
        `SELECT id::text AS seq, 0 AS ord, target, template_id, matched, created_at, error, severity, event, vuln_hash,
           agent_id
         FROM scan_logs
         WHERE scan_id = $1 AND id > $2::bigint AND ($3::bigint IS NULL OR id < $3::bigint) ${rw}
         ORDER BY id LIMIT $4`,
        params,
      )
    ).rows;
  }
  if (rows.length === batch) {
    const last = rows[rows.length - 1]!;
    return { rows, next: { seq: last.seq, ord: 0 } };
  }
  if (upTo === null) return { rows, next: null };
  const from = upTo === after.seq ? after.ord : 0;
  const params: unknown[] = [scanId, upTo];
  // The filter on records' own fields, for PostgreSQL to apply ($3: the ordinal to start after).
  let rw: string | undefined;
  if (needsRecords(f)) {
    params.push(from);
    rw = recordConditions({ ...f, run: undefined }, params)
      .map((c) => `AND ${c}`)
      .join(' ');
  }
  const { rows: found } = await db.query<{ records: string; ords: number[] | null }>(
    `SELECT b.records, ${
      rw === undefined
        ? 'NULL::int[]'
        : `(SELECT array_agg(r.ord::int ORDER BY r.ord) FROM (SELECT ${BATCH_RECORD} FROM ${EXPANDED}) r
            WHERE r.ord > $3 ${rw})`
    } AS ords
     FROM scan_log_batches b WHERE b.scan_id = $1 AND b.seq = $2::bigint`,
    params,
  );
  const stored = JSON.parse(found[0]?.records ?? '[]') as BatchRecord[];
  // Ordinals (1-based) of the matching records after the cursor.
  const ords = rw === undefined ? stored.map((_, i) => i + 1).filter((o) => o > from) : (found[0]?.ords ?? []);
  const room = batch - rows.length;
  for (const o of ords.slice(0, room)) {
    const x = stored[o - 1]!;
    rows.push({
      seq: upTo,
      ord: o,
      target: x.t,
      template_id: x.id,
      matched: x.m,
      created_at: new Date(x.at),
      error: x.e,
      severity: x.s,
      event: x.ev,
      vuln_hash: x.h,
      agent_id: null,
    });
  }
  // Full with records of the batch left: go on after the last one; else after the whole batch.
  if (ords.length > room) return { rows, next: { seq: upTo, ord: rows[rows.length - 1]!.ord } };
  return { rows, next: { seq: upTo, ord: Number.MAX_SAFE_INTEGER } };
}

export interface HistoryRow {
  severity: string | null;
  target: string;
  template_id: string;
  matched: boolean;
  created_at: Date;
  vuln_hash: string | null;
  event: string | null;
  total: number;
}

/**
 * The team's log records of the same scan, target and template as the hash's, across runs, newest first (total:
 * all of them). The scans, targets and templates come from the rows and batches that carry the hash (index on
 * scan_logs' hash, GIN index on the batches' hashes); of those scans' batches, only the ones whose text holds
 * a record of such a pair (strpos of the record's start, as logJson writes it) are expanded.
 */
export async function logHistoryOfHash(db: Db, teamId: string, hash: string, limit: number): Promise<HistoryRow[]> {
  const { rows: pairs } = await db.query<{ scan_id: string; target: string; template_id: string }>(
    `SELECT scan_id, target, template_id FROM scan_logs WHERE team_id = $1 AND vuln_hash = $2
     UNION
     SELECT b.scan_id, x.t, x.id FROM scan_log_batches b, json_to_recordset(b.records::json) AS x(t text, id text, h text)
     WHERE b.hashes @> ARRAY[$2::text] AND b.hashes IS NOT NULL AND b.team_id = $1 AND x.h = $2`,
    [teamId, hash],
  );
  if (pairs.length === 0) return [];
  // Only batches whose text holds a pair's record are expanded: its start as the writer writes it.
  const wanted = JSON.stringify(pairs.map((p) => ({ ...p, prefix: batchRecordPrefix(p.target, p.template_id) })));
  const { rows } = await db.query<HistoryRow>(
    `WITH pairs AS MATERIALIZED (
       SELECT * FROM json_to_recordset($2::json) AS p(scan_id text, target text, template_id text, prefix text)
     ), recs AS (
       SELECT l.severity, l.target, l.template_id, l.matched, l.created_at, l.vuln_hash, l.event, l.id AS seq, 0::bigint AS ord
       FROM scan_logs l JOIN pairs p USING (scan_id, target, template_id)
       WHERE l.team_id = $1
       UNION ALL
       SELECT r.severity, r.target, r.template_id, r.matched, r.created_at, r.vuln_hash, r.event, r.seq, r.ord
       FROM (SELECT b.scan_id, ${BATCH_RECORD} FROM scan_log_batches b, ${EXPANDED}
             WHERE b.team_id = $1 AND b.scan_id IN (SELECT scan_id FROM pairs)
               AND EXISTS (SELECT 1 FROM pairs p WHERE p.scan_id = b.scan_id AND strpos(b.records, p.prefix) > 0)) r
       JOIN pairs p ON p.scan_id = r.scan_id AND p.target = r.target AND p.template_id = r.template_id
     )
     SELECT severity, target, template_id, matched, created_at, vuln_hash, event, count(*) OVER ()::int AS total
     FROM recs
     ORDER BY created_at DESC, seq DESC, ord DESC
     LIMIT $3`,
    [teamId, wanted, limit],
  );
  return rows;
}

/** The (target, template) pairs a scan has log records for, each once. */
export async function loggedPairs(db: Db, scanId: string): Promise<{ target: string; template_id: string }[]> {
  const { rows } = await db.query<{ target: string; template_id: string }>(
    `SELECT target, template_id FROM scan_logs WHERE scan_id = $1
     UNION
     SELECT x.t, x.id FROM scan_log_batches b, json_to_recordset(b.records::json) AS x(t text, id text)
     WHERE b.scan_id = $1`,
    [scanId],
  );
  return rows;
}

/** How many records each run of a scan has (both tables), for the run history's counts. */
export const RUN_RECORDS = (scan: string, run: string) =>
  `((SELECT count(*) FROM scan_logs l WHERE l.scan_id = ${scan} AND l.run = ${run})
    + (SELECT COALESCE(sum(b.n), 0) FROM scan_log_batches b WHERE b.scan_id = ${scan} AND b.run = ${run}))`;
