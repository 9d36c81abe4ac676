import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type PgBoss from 'pg-boss';
import { freshDb, dbKinds, type TestDb } from '../helpers/db.ts';
import { startTestQueue } from '../helpers/queue.ts';
import { waitFor } from '../helpers/wait.ts';

describe.each(dbKinds())('pg-boss queue on %s', (kind) => {
  let testDb: TestDb;
  let boss: PgBoss;
  beforeAll(async () => {
    testDb = await freshDb(kind);
    boss = await startTestQueue(testDb, { supervise: false });
  });
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true }).catch(() => {});
    await testDb.drop();
  });

  it('creates its schema and reports it installed', async () => {
    expect(await boss.isInstalled()).toBe(true);
    expect(Number(await boss.schemaVersion())).toBeGreaterThan(0);
  });

  it('sends, fetches and completes a job with JSON data and output', async () => {
    await boss.createQueue('q-basic', { name: 'q-basic', retryLimit: 1 });
    const id = await boss.send('q-basic', { target: 'http://127.0.0.1', list: [1, 2] });
    expect(id).toEqual(expect.any(String));
    const [job] = await boss.fetch<{ target: string; list: number[] }>('q-basic', { includeMetadata: true });
    expect(job!.id).toBe(id);
    expect(job!.data).toEqual({ target: 'http://127.0.0.1', list: [1, 2] });
    expect(job!.state).toBe('active');
    await boss.complete('q-basic', id!, { found: 3 });
    const done = await boss.getJobById('q-basic', id!);
    expect(done!.state).toBe('completed');
    expect(done!.output).toEqual({ found: 3 });
    expect(await boss.fetch('q-basic')).toEqual([]);
  });

  it('retries a failed job, then fails it for good', async () => {
    await boss.createQueue('q-retry', { name: 'q-retry', retryLimit: 1, retryDelay: 0 });
    const id = (await boss.send('q-retry', {}))!;
    const [first] = await boss.fetch('q-retry');
    await boss.fail('q-retry', first!.id, { message: 'boom' });
    expect((await boss.getJobById('q-retry', id))!.state).toBe('retry');
    const [second] = await boss.fetch('q-retry', { includeMetadata: true });
    expect(second!.retryCount).toBe(1);
    await boss.fail('q-retry', id, { message: 'boom again' });
    const dead = await boss.getJobById('q-retry', id);
    expect(dead!.state).toBe('failed');
    expect(dead!.output).toMatchObject({ message: 'boom again' });
  });

  it('maintenance (a multi-statement script) hands an expired job of a dead worker back for retry', async () => {
    await boss.createQueue('q-expire', { name: 'q-expire', retryLimit: 2, retryDelay: 0, expireInSeconds: 1 });
    const id = (await boss.send('q-expire', { n: 1 }))!;
    const [taken] = await boss.fetch('q-expire');
    expect(taken!.id).toBe(id);
    // The worker that fetched it "dies": nobody completes it. Once past its expiry, maintenance fails it.
    const job = await waitFor(
      async () => {
        await boss.maintain();
        const j = await boss.getJobById('q-expire', id);
        return j?.state !== 'active' && j;
      },
      15_000,
      100,
    );
    expect(job!.state).toBe('retry');
    const [again] = await boss.fetch('q-expire', { includeMetadata: true });
    expect(again).toMatchObject({ id, retryCount: 1, data: { n: 1 } });
  });

  it('stores cron schedules', async () => {
    await boss.createQueue('q-cron', { name: 'q-cron' });
    await boss.schedule('q-cron', '*/5 * * * *', { every: 'five' }, { tz: 'UTC' });
    const schedules = await boss.getSchedules();
    expect(schedules).toEqual([
      expect.objectContaining({ name: 'q-cron', cron: '*/5 * * * *', data: { every: 'five' } }),
    ]);
    await boss.unschedule('q-cron');
    expect(await boss.getSchedules()).toEqual([]);
  });

  it('a second start on the same database finds the schema installed and keeps the jobs', async () => {
    const id = (await boss.send('q-basic', { again: true }))!;
    const other = await startTestQueue(testDb);
    try {
      expect((await other.getJobById('q-basic', id))!.data).toEqual({ again: true });
    } finally {
      // Closing the PGlite adapter's boss must not close the shared database.
      await other.stop({ graceful: false, close: true });
    }
    expect((await boss.getJobById('q-basic', id))!.state).toBe('created');
  });
});
