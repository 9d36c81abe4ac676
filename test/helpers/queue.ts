// A real pg-boss queue on a test database: through the PGlite adapter, or on PostgreSQL in the test's own
// schema (`<schema>_pgboss`, dropped with it by TestDb.drop()).
import { Writable } from 'node:stream';
import pino from 'pino';
import { createTestApp, type TestApp } from './app.ts';
import type PgBoss from 'pg-boss';
import { queueSchemaFor, startQueue } from '../../src/db/queue.ts';
import type { TestDb } from './db.ts';

export async function startTestQueue(
  testDb: TestDb,
  opts: { schedule?: boolean; supervise?: boolean } = {},
): Promise<PgBoss> {
  return startQueue({
    db: testDb.db,
    databaseUrl: testDb.url,
    schema: queueSchemaFor(testDb.schema),
    schedule: opts.schedule ?? false,
    supervise: opts.supervise ?? false,
    poolSize: 3,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
  });
}

// waitFor lives in wait.ts; re-exported here for the tests that import it from the queue helper.
export { waitFor } from './wait.ts';

/**
 * A test app with a real job queue (scan creation enqueues chunks) and no worker: nothing queued runs.
 * With `lines`, the app's log (level info) is collected there, one JSON line per entry.
 */
export async function createQueuedApp(lines?: string[]): Promise<{ t: TestApp; boss: PgBoss; close(): Promise<void> }> {
  const log = lines
    ? pino(
        { level: 'info' },
        new Writable({
          write(chunk, _enc, cb) {
            lines.push(String(chunk));
            cb();
          },
        }),
      )
    : undefined;
  const t = await createTestApp('pglite', {}, log ? { log } : {});
  const boss = await startTestQueue(t.testDb);
  t.ctx.queue = boss;
  return {
    t,
    boss,
    async close() {
      await boss.stop({ graceful: false, close: true }).catch(() => {});
      await t.close();
    },
  };
}
