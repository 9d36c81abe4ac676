// A worker chunk's scan-log records stored as one row per write (migration 034) read back exactly as the
// per-row storage gives them: the same records in the same order for every export filter and page size
// (across batch boundaries of 2,500-record writes), the same files, finding history, run history counts,
// logged pairs and progress. Two scans get the same writes, one as a worker chunk's (batches), the other as
// records without a chunk (one scan_logs row each, as every record was stored before), with notices and
// other rows between the chunk's writes. On a real database, through the store's own functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import * as store from '../../../src/platform/scans/store.ts';
import {
  formatLogs,
  readLogs,
  type LogFilter,
  type LogFormat,
  type LogRecord,
} from '../../../src/platform/scans/logs.ts';
import { logHistoryOfHash, loggedPairs } from '../../../src/platform/scans/log-store.ts';
import { runHistory } from '../../../src/platform/scans/history-store.ts';

const BATCHED = 'log-batches-team';
const PER_ROW = 'log-rows-team';
const T0 = Date.parse('2026-11-27T01:00:00.000Z');

/** Attempt `i` of a run: a distinct (target, template) pair, matched one in ten, an error one in four. */
function record(run: number, i: number): store.LogRow {
  const host = `http://h${Math.floor(i / 40)}.test/p`;
  // Names with LIKE's own characters, so the filters' escaping is exercised.
  const templateId = i % 40 === 7 ? 'T_Mixed%Case' : `t-${i % 40}`;
  const matched = i % 10 === 3;
  return {
    target: host,
    templateId,
    matched,
    severity: i % 5 === 0 ? 'high' : 'info',
    error: i % 4 === 1 ? (i % 8 === 1 ? 'context deadline exceeded' : 'connection Refused') : null,
    event: matched ? `{"matched-at":"${host}"}` : null,
    vulnHash: matched ? `hash-${templateId}-${Math.floor(i / 40)}` : null,
    at: new Date(T0 + run * 3_600_000 + i * 3),
  };
}

const notice = (run: number, i: number): store.LogRow => ({
  target: `http://n${i}.test`,
  templateId: 'max-host-errors',
  matched: false,
  severity: null,
  error: 'host skipped: 30 errors reached the max host errors limit',
  event: null,
  vulnHash: null,
  at: new Date(T0 + run * 3_600_000 + i * 3 + 1),
  notice: true,
});

/** A record whose target and template need escaping in JSON, matched in run 0, not in run 1. */
const odd = (run: number, matched: boolean): store.LogRow => ({
  target: 'http://q.test/"quoted"\\back\tslash',
  templateId: 'odd"\\id',
  matched,
  severity: 'low',
  error: null,
  event: matched ? 'odd event' : null,
  vulnHash: matched ? 'odd-hash' : null,
  at: new Date(T0 + run * 3_600_000 + 50_000),
});

const FILTERS: LogFilter[] = [
  { level: 'all_logs' },
  { level: 'error' },
  { level: 'info' },
  { level: 'all_logs', run: 0 },
  { level: 'all_logs', run: 1 },
  { level: 'all_logs', matched: true },
  { level: 'all_logs', matched: false },
  { level: 'all_logs', host: 'H1' },
  { level: 'all_logs', template: 't_m' },
  { level: 'all_logs', template: 'd%c' },
  { level: 'all_logs', search: 'REFUSED' },
  { level: 'all_logs', error: 'deadline' },
  { level: 'all_logs', since: new Date(T0 + 4_000 * 3) },
  { level: 'info', matched: true, since: new Date(T0 + 2_000 * 3), run: 0, host: 'h5' },
  { level: 'all_logs', host: 'nowhere' },
  // Texts JSON escapes: the batches' text cannot be searched for them as they are.
  { level: 'all_logs', host: '/"QUOTED"\\' },
  { level: 'all_logs', search: 'odd"' },
];

async function readAll(db: TestDb['db'], scanId: string, f: LogFilter, page: number): Promise<LogRecord[]> {
  const out: LogRecord[] = [];
  for await (const batch of readLogs(db, scanId, f, page)) {
    expect(batch.length).toBeLessThanOrEqual(page);
    out.push(...batch);
  }
  return out;
}

describe.each(dbKinds())('scan-log batches on %s', (kind) => {
  let t: TestDb;
  const batched = 'log-batches-scan';
  const perRow = 'log-rows-scan';
  /** Every record in the order written (both scans get the same). */
  const written: store.LogRow[] = [];

  /** The same insertLogs call for both scans: as chunk `idx`'s attempt on one, without a chunk on the other. */
  const write = async (run: number, rows: store.LogRow[], chunk?: store.ChunkAttempt) => {
    // insertLogs writes a call's notices before its attempts.
    written.push(...rows.filter((r) => r.notice), ...rows.filter((r) => !r.notice));
    await store.insertLogs(t.db, batched, BATCHED, run, rows, store.NO_AGENT, chunk);
    await store.insertLogs(t.db, perRow, PER_ROW, run, rows);
  };
  const attemptsDone = async (id: string) =>
    (await t.db.query<{ n: number }>('SELECT attempts_done::int AS n FROM scans WHERE id = $1', [id])).rows[0]!.n;

  beforeAll(async () => {
    t = await freshDb(kind);
    for (const [team, id] of [
      [BATCHED, batched],
      [PER_ROW, perRow],
    ]) {
      await t.db.query(`INSERT INTO teams (id, name) VALUES ($1, $1)`, [team]);
      await t.db.query(
        `INSERT INTO scans (id, team_id, name, status, total_target, total_template, total_scan)
         VALUES ($1, $2, $1, 'queued', 200, 40, 8000)`,
        [id, team],
      );
      await store.startRun(t.db, id!, 0, [['a'], ['b']]);
    }
    await store.claimChunk(t.db, batched, 0, 0);
    await store.claimChunk(t.db, batched, 0, 1);
    // Run 0: chunk 0 writes 6,000 attempts as a worker does (2,500 a write, the rest at its end) with notices
    // among them; chunk 1 and records from elsewhere (an import, say) write between its writes.
    const run0 = Array.from({ length: 6_300 }, (_, i) => record(0, i));
    await write(0, [...run0.slice(0, 2_500), notice(0, 1)], { idx: 0, attempt: 1 });
    await write(0, run0.slice(6_000, 6_150), { idx: 1, attempt: 1 });
    await write(0, run0.slice(2_500, 5_000), { idx: 0, attempt: 1 });
    await write(0, [notice(0, 2)]);
    await write(0, run0.slice(6_150, 6_200));
    await write(0, [...run0.slice(5_000, 6_000), notice(0, 3)], { idx: 0, attempt: 1 });
    await write(0, [...run0.slice(6_200, 6_300), odd(0, true)], { idx: 1, attempt: 1 });
    expect(await attemptsDone(batched)).toBe(await attemptsDone(perRow));
    expect(await attemptsDone(batched)).toBe(6_301);
    await store.finishChunk(t.db, batched, 0, 0, 1);
    await store.finishChunk(t.db, batched, 0, 1, 1);
    // Run 1: the same pairs again, fewer of them, so a finding's history spans both runs.
    for (const id of [batched, perRow]) await store.startRun(t.db, id, 1, [['a']]);
    await store.claimChunk(t.db, batched, 1, 0);
    const run1 = Array.from({ length: 3_000 }, (_, i) => record(1, i));
    await write(1, run1.slice(0, 2_500), { idx: 0, attempt: 1 });
    await write(1, [...run1.slice(2_500), odd(1, false)], { idx: 0, attempt: 1 });
    expect(await attemptsDone(batched)).toBe(3_001);
    expect(await attemptsDone(perRow)).toBe(3_001);
  }, 120_000);
  afterAll(async () => t?.drop());

  it('stores a chunk write as one batch row and every other record as a row', async () => {
    const n = async (table: string) =>
      (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE scan_id = $1`, [batched]))
        .rows[0]!.n;
    expect(await n('scan_log_batches')).toBe(7);
    expect(await n('scan_logs')).toBe(3 + 50);
    expect(await n('scan_log_records')).toBe(written.length);
  });

  it('exports every record once in the order written', async () => {
    const got = await readAll(t.db, batched, { level: 'all_logs' }, 1000);
    expect(got.map((r) => `${r.timestamp} ${r.target} ${r.template_id}`)).toEqual(
      written.map((r) => `${r.at.toISOString()} ${r.target} ${r.templateId}`),
    );
  });

  it('gives the same records as the per-row storage for every filter and page size', async () => {
    for (const f of FILTERS) {
      const want = await readAll(t.db, perRow, f, 1000);
      for (const page of [5000, 333]) expect(await readAll(t.db, batched, f, page), JSON.stringify(f)).toEqual(want);
    }
    // The escaped texts do find the odd record of each run.
    expect(await readAll(t.db, batched, FILTERS[15]!, 1000)).toHaveLength(2);
    expect(await readAll(t.db, batched, FILTERS[16]!, 1000)).toHaveLength(2);
    // Small pages: many reads inside one batch and across its edges.
    expect(await readAll(t.db, batched, FILTERS[13]!, 7)).toEqual(await readAll(t.db, perRow, FILTERS[13]!, 1000));
    expect(await readAll(t.db, batched, FILTERS[0]!, 97)).toEqual(await readAll(t.db, perRow, FILTERS[0]!, 1000));
  }, 120_000);

  it('writes the same files in every format', async () => {
    const file = async (id: string, format: LogFormat) => {
      let s = '';
      for await (const part of formatLogs(readLogs(t.db, id, { level: 'error', host: 'h2' }, 500), format)) s += part;
      return s;
    };
    for (const format of ['json', 'csv', 'raw'] as const) {
      const want = await file(perRow, format);
      expect(want.length).toBeGreaterThan(1000);
      expect(await file(batched, format)).toBe(want);
    }
  });

  it("gives a finding's history, the run history's counts and the logged pairs as the per-row storage", async () => {
    for (const i of [3, 13, 2_503, 6_003, 6_163]) {
      const hash = record(0, i).vulnHash!;
      const want = await logHistoryOfHash(t.db, PER_ROW, hash, 50);
      expect(want.length).toBeGreaterThan(0);
      expect(await logHistoryOfHash(t.db, BATCHED, hash, 50)).toEqual(want);
      expect(await logHistoryOfHash(t.db, BATCHED, hash, 1)).toEqual(want.slice(0, 1));
    }
    // A pair whose target and template JSON escapes: both runs' records.
    const oddHistory = await logHistoryOfHash(t.db, BATCHED, 'odd-hash', 50);
    expect(oddHistory.map((h) => [h.target, h.template_id, h.matched])).toEqual([
      [odd(1, false).target, odd(1, false).templateId, false],
      [odd(0, true).target, odd(0, true).templateId, true],
    ]);
    expect(oddHistory).toEqual(await logHistoryOfHash(t.db, PER_ROW, 'odd-hash', 50));
    // Only pairs of run 0 past 3,000 (no run-1 record): history of one run.
    const late = await logHistoryOfHash(t.db, BATCHED, record(0, 5_003).vulnHash!, 50);
    expect(late).toEqual(await logHistoryOfHash(t.db, PER_ROW, record(0, 5_003).vulnHash!, 50));
    expect(late).toHaveLength(1);
    // Another team never sees them.
    expect(await logHistoryOfHash(t.db, PER_ROW + '-other', record(0, 3).vulnHash!, 50)).toEqual([]);

    const runs = async (team: string) => {
      const h = await runHistory(t.db, { teamId: team, offset: 0, limit: 10 });
      return { completed: h.completed, runs: h.rows.map((r) => [r.run, r.completed]) };
    };
    expect(await runs(BATCHED)).toEqual(await runs(PER_ROW));
    expect((await runs(BATCHED)).completed).toBe(written.length);

    const pairs = async (id: string) => (await loggedPairs(t.db, id)).map((p) => `${p.target} ${p.template_id}`).sort();
    expect(await pairs(batched)).toEqual(await pairs(perRow));
  });

  it('deletes the batches with their scan', async () => {
    expect(await store.deleteScan(t.db, BATCHED, batched)).toBe(true);
    const left = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM scan_log_batches WHERE scan_id = $1', [
      batched,
    ]);
    expect(left.rows[0]!.n).toBe(0);
    expect(await readAll(t.db, batched, { level: 'all_logs' }, 1000)).toEqual([]);
  });
});
