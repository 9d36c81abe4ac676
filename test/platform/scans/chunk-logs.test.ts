// A worker chunk's scan-log records are stored exactly once by the chunk (migration 033): written only while
// the chunk row counts the writing attempt, an earlier attempt's records deleted when the chunk is claimed
// again, the run's progress counting them once; other records keep the per-row key; a deleted scan takes
// its records with it. On a real database, through the store's own functions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, freshDb, type TestDb } from '../../helpers/db.ts';
import * as store from '../../../src/platform/scans/store.ts';
import { readLogs } from '../../../src/platform/scans/logs.ts';

const TEAM = 'chunk-log-team';

function attempt(target: string, templateId: string): store.LogRow {
  return {
    target,
    templateId,
    matched: false,
    severity: 'info',
    error: null,
    event: null,
    vulnHash: null,
    at: new Date(),
  };
}

describe.each(dbKinds())('chunk scan-log records on %s', (kind) => {
  let t: TestDb;
  let n = 0;
  /** A scan of 3 targets x 2 templates in two chunks ([a, b], [c]), queued. */
  const newScan = async () => {
    const id = `chunk-log-scan-${++n}`;
    await t.db.query(
      `INSERT INTO scans (id, team_id, name, status, total_target, total_template, total_scan)
       VALUES ($1, $2, $1, 'queued', 3, 2, 6)`,
      [id, TEAM],
    );
    await store.startRun(t.db, id, 0, [['http://a', 'http://b'], ['http://c']]);
    return id;
  };
  const logs = async (id: string) =>
    (
      await t.db.query<{ target: string; template_id: string }>(
        'SELECT target, template_id FROM scan_log_records WHERE scan_id = $1 ORDER BY target, template_id',
        [id],
      )
    ).rows.map((r) => `${r.target} ${r.template_id}`);
  const scanRow = async (id: string) =>
    (
      await t.db.query<{ attempts_done: number; progress: number; status: string }>(
        'SELECT attempts_done::int, progress, status FROM scans WHERE id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    t = await freshDb(kind);
    await t.db.query(`INSERT INTO teams (id, name) VALUES ($1, 'chunk logs')`, [TEAM]);
  });
  afterAll(async () => t?.drop());

  it('keeps only the latest attempt of a retried chunk, counted once, and ignores the earlier attempt after it', async () => {
    const id = await newScan();
    const first = (await store.claimChunk(t.db, id, 0, 0))!;
    expect(first.chunk.attempts).toBe(1);
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://a', 't1'), attempt('http://a', 't2')], store.NO_AGENT, {
      idx: 0,
      attempt: 1,
    });
    expect(await logs(id)).toEqual(['http://a t1', 'http://a t2']);
    expect(await scanRow(id)).toMatchObject({ attempts_done: 2, progress: 33 });

    // The worker died; the chunk is claimed again and its first attempt's records go.
    const second = (await store.claimChunk(t.db, id, 0, 0))!;
    expect(second.chunk.attempts).toBe(2);
    expect(await logs(id)).toEqual([]);
    expect((await scanRow(id))!.attempts_done).toBe(0);

    // The first attempt was not dead after all: what it writes now is not stored, and it cannot finish the chunk.
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://b', 't1')], store.NO_AGENT, { idx: 0, attempt: 1 });
    expect(await logs(id)).toEqual([]);
    await store.finishChunk(t.db, id, 0, 0, 1);
    const chunk0 = await t.db.query<{ status: string }>(
      'SELECT status FROM scan_chunks WHERE scan_id = $1 AND run = 0 AND idx = 0',
      [id],
    );
    expect(chunk0.rows[0]!.status).toBe('running');

    // The second attempt's records, in two batches, each once.
    const pairs = ['http://a', 'http://b'].flatMap((h) => [attempt(h, 't1'), attempt(h, 't2')]);
    await store.insertLogs(t.db, id, TEAM, 0, pairs.slice(0, 3), store.NO_AGENT, { idx: 0, attempt: 2 });
    await store.insertLogs(t.db, id, TEAM, 0, pairs.slice(3), store.NO_AGENT, { idx: 0, attempt: 2 });
    await store.finishChunk(t.db, id, 0, 0, 2);
    expect(await logs(id)).toEqual(['http://a t1', 'http://a t2', 'http://b t1', 'http://b t2']);
    expect(await scanRow(id)).toMatchObject({ attempts_done: 4, progress: 66, status: 'starting' });

    // The other chunk, once; the scan log API reads every record once.
    await store.claimChunk(t.db, id, 0, 1);
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://c', 't1'), attempt('http://c', 't2')], store.NO_AGENT, {
      idx: 1,
      attempt: 1,
    });
    await store.finishChunk(t.db, id, 0, 1, 1);
    expect(await scanRow(id)).toMatchObject({ attempts_done: 6, progress: 100, status: 'finished' });
    const read: string[] = [];
    for await (const batch of readLogs(t.db, id, { level: 'all_logs' }, 2))
      for (const r of batch) read.push(`${r.target} ${r.template_id}`);
    expect(read.sort()).toEqual([
      'http://a t1',
      'http://a t2',
      'http://b t1',
      'http://b t2',
      'http://c t1',
      'http://c t2',
    ]);
  });

  it.skipIf(kind !== 'postgres')(
    'a write of the earlier attempt that meets a claim in progress waits for it, then stores nothing',
    async () => {
      const id = await newScan();
      await store.claimChunk(t.db, id, 0, 0);
      let late: Promise<void> | undefined;
      await t.db.transaction(async (tx) => {
        // The claim has the chunk row when the earlier attempt's batch arrives on another connection.
        await tx.query('SELECT 1 FROM scan_chunks WHERE scan_id = $1 AND run = 0 AND idx = 0 FOR UPDATE', [id]);
        late = store.insertLogs(t.db, id, TEAM, 0, [attempt('http://a', 't1')], store.NO_AGENT, { idx: 0, attempt: 1 });
        // Seen waiting from another connection (a transaction keeps its first view of pg_stat_activity).
        let waiting = 0;
        for (let i = 0; i < 1000 && waiting === 0; i++) {
          const { rows } = await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE wait_event_type = 'Lock' AND query LIKE '%WITH mine AS%' AND query LIKE '%INSERT INTO scan_log_batches%'`,
          );
          waiting = rows[0]!.n;
          if (waiting === 0) await new Promise((r) => setTimeout(r, 10));
        }
        expect(waiting).toBeGreaterThan(0);
        expect((await store.claimChunk(tx, id, 0, 0))!.chunk.attempts).toBe(2);
      });
      await late;
      expect(await logs(id)).toEqual([]);
      expect((await scanRow(id))!.attempts_done).toBe(0);
    },
  );

  it('stores a notice once however often a chunk attempt sends it, outside the progress count', async () => {
    const id = await newScan();
    await store.claimChunk(t.db, id, 0, 0);
    const notice: store.LogRow = {
      ...attempt('http://a', 'max-host-errors'),
      error: 'host skipped: 3 errors',
      notice: true,
    };
    await store.insertLogs(t.db, id, TEAM, 0, [notice], store.NO_AGENT, { idx: 0, attempt: 1 });
    await store.claimChunk(t.db, id, 0, 0);
    await store.insertLogs(t.db, id, TEAM, 0, [notice], store.NO_AGENT, { idx: 0, attempt: 2 });
    expect(await logs(id)).toEqual(['http://a max-host-errors']);
    expect((await scanRow(id))!.attempts_done).toBe(0);
  });

  it("keeps each record's own time to the millisecond, chunk records and others alike", async () => {
    const id = await newScan();
    await store.claimChunk(t.db, id, 0, 0);
    const at = (iso: string) => ({ at: new Date(iso) });
    await store.insertLogs(
      t.db,
      id,
      TEAM,
      0,
      [
        { ...attempt('http://a', 't1'), ...at('2026-11-26T12:34:56.789Z') },
        { ...attempt('http://a', 't2'), ...at('1999-12-31T23:59:59.001Z') },
      ],
      store.NO_AGENT,
      { idx: 0, attempt: 1 },
    );
    await store.insertLogs(t.db, id, TEAM, 0, [
      { ...attempt('', 'headless'), ...at('2030-01-02T03:04:05.006Z'), notice: true },
      { ...attempt('http://imported', 't1'), ...at('2026-11-26T00:00:00.999Z') },
    ]);
    const read: string[] = [];
    for await (const batch of readLogs(t.db, id, { level: 'all_logs' })) for (const r of batch) read.push(r.timestamp);
    expect(read.sort()).toEqual([
      '1999-12-31T23:59:59.001Z',
      '2026-11-26T00:00:00.999Z',
      '2026-11-26T12:34:56.789Z',
      '2030-01-02T03:04:05.006Z',
    ]);
  });

  it('deletes the scan log with its scan, and stores nothing for a scan that is gone', async () => {
    const id = await newScan();
    await store.claimChunk(t.db, id, 0, 0);
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://a', 't1')], store.NO_AGENT, { idx: 0, attempt: 1 });
    await store.insertLogs(t.db, id, TEAM, 0, [{ ...attempt('', 'headless'), notice: true }]);
    expect(await logs(id)).toHaveLength(2);
    expect(await store.deleteScan(t.db, TEAM, id)).toBe(true);
    expect(await logs(id)).toEqual([]);
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://b', 't1')], store.NO_AGENT, { idx: 0, attempt: 1 });
    await store.insertLogs(t.db, id, TEAM, 0, [{ ...attempt('', 'headless'), notice: true }]);
    await store.insertLogs(t.db, id, TEAM, 0, [attempt('http://b', 't2')]);
    expect(await logs(id)).toEqual([]);
  });
});
