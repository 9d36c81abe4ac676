// pg-boss 10 (jobs, retries, cron) on the platform's database. On PostgreSQL pg-boss opens its own pool
// from the connection string; on PGlite it goes through a small executeSql adapter over our Db, since the
// embedded database lives inside this process and has no server to connect to.
import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';
import type { Db } from './connection.ts';

export interface QueueOptions {
  db: Db;
  /** Set on PostgreSQL: pg-boss connects with it. */
  databaseUrl?: string;
  /** Schema of pg-boss's tables; default 'pgboss' (tests use `<their schema>_pgboss`). */
  schema?: string;
  /** Run the cron scheduler (pg-boss's timekeeper); several processes may, they take turns. */
  schedule?: boolean;
  /** Run maintenance: expires jobs of dead workers (so they are retried) and archives old ones. */
  supervise?: boolean;
  /** Connections of pg-boss's own pool (PostgreSQL only). */
  poolSize?: number;
  log?: Logger;
  /**
   * Runs right after start, under the same start lock on PostgreSQL: queue creation (createQueue) by two
   * processes starting at once can otherwise deadlock.
   */
  setup?: (boss: PgBoss) => Promise<void>;
}

/** The schema of pg-boss's tables for a given platform schema (undefined: the default `public`). */
export function queueSchemaFor(dbSchema: string | undefined): string {
  return dbSchema ? `${dbSchema}_pgboss` : 'pgboss';
}

export async function startQueue(opts: QueueOptions): Promise<PgBoss> {
  const common: PgBoss.ConstructorOptions = {
    schema: opts.schema ?? 'pgboss',
    schedule: opts.schedule ?? true,
    supervise: opts.supervise ?? true,
    migrate: true,
    // Expired jobs of a killed worker are noticed within a minute, not pg-boss's default two.
    maintenanceIntervalSeconds: 30,
  };
  const boss = opts.databaseUrl
    ? new PgBoss({
        ...common,
        connectionString: opts.databaseUrl,
        max: opts.poolSize ?? 4,
        application_name: 'vigil-queue',
      })
    : new PgBoss({ ...common, db: pgliteAdapter(opts.db) });
  // pg-boss reports background failures (lost connection, maintenance) as events; unhandled they would
  // crash the process.
  boss.on('error', (err) => opts.log?.error({ err }, 'job queue error'));
  const start = async () => {
    await boss.start();
    try {
      await opts.setup?.(boss);
    } catch (err) {
      await boss.stop({ graceful: false }).catch(() => {});
      throw err;
    }
  };
  if (opts.databaseUrl) await withStartLock(opts.databaseUrl, start);
  else await start();
  return boss;
}

/**
 * pg-boss creates its schema under its own advisory lock, but a process that loses that race is left with
 * a failed transaction on one pooled connection, and concurrent createQueue calls can deadlock. Starting
 * (and setup) under a session lock of our own means only the first process of a fresh database creates
 * the schema and queues; the others find them installed.
 */
async function withStartLock<T>(url: string, fn: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, application_name: 'vigil-queue-start' });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [QUEUE_START_LOCK]);
    return await fn();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [QUEUE_START_LOCK]).catch(() => {});
    await client.end().catch(() => {});
  }
}
const QUEUE_START_LOCK = 7_305_114;

/**
 * pg-boss's database interface over our Db. Single statements go through query() (parameters bound by
 * PGlite). pg-boss's multi-statement scripts (schema creation, maintenance) carry their own BEGIN/COMMIT
 * and no parameters: they run inside db.transaction so that PGlite rolls back a failed script before any
 * other query of this process can run on the shared connection.
 */
export function pgliteAdapter(db: Db): PgBoss.Db {
  return {
    async executeSql(text: string, values?: unknown[]) {
      if (values && values.length > 0) return db.query(text, values.map(toParam));
      try {
        return await db.query(text);
      } catch (err) {
        if (!isMultiStatementError(err)) throw err;
      }
      await db.transaction((tx) => tx.exec(text));
      return { rows: [] };
    },
  };
}

// PGlite binds parameters by the statement's declared types; undefined must become NULL.
function toParam(v: unknown): unknown {
  return v === undefined ? null : v;
}

function isMultiStatementError(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  return e.code === '42601' && /multiple commands/i.test(e.message ?? '');
}
