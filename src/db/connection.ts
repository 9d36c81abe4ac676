// One small database interface over the two backends Vigil supports: PGlite (embedded, the default)
// and a PostgreSQL server (DATABASE_URL). Everything above this file speaks plain PostgreSQL SQL with
// $1-style parameters, so stores and migrations are the same for both.
import { mkdirSync } from 'node:fs';
import pg from 'pg';
import type { PGlite as PGliteType } from '@electric-sql/pglite';

export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface QueryOptions {
  name?: string;
}

export interface Db {
  readonly kind: 'pglite' | 'postgres';
  /**
   * `opts.name`: run it as a named prepared statement (PostgreSQL): each connection parses and plans it
   * once and then only binds and executes it. For hot reads only; one name per SQL text. PGlite ignores it.
   */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<T>>;
  /** Runs several statements separated by semicolons (migrations); no parameters. */
  exec(sql: string): Promise<void>;
  /** Runs fn inside BEGIN/COMMIT on one connection; rolls back when fn throws. */
  transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /**
   * Runs fn once the surrounding transaction has committed (at once outside a transaction; never after a
   * rollback): in-process caches forget what a change made stale only when other readers can see it.
   */
  afterCommit(fn: () => void): void;
  /**
   * The same object for a connection and every transaction on it: in-process state tied to this database
   * (caches) is keyed by it.
   */
  readonly scope: object;
  /**
   * Calls onNotify on every NOTIFY on `channel` (by any process using the database); onState(true) once
   * delivery is running, onState(false) while it is not (a lost listening connection, until it is back).
   * Resolves once listening. PGlite delivers a notification before the statement (or the COMMIT) that sent
   * it returns; a PostgreSQL server delivers it over a connection of its own shortly after the commit.
   */
  listen?(channel: string, onNotify: () => void, onState: (up: boolean) => void): Promise<void>;
  /** PGlite only: the whole data folder as a tarball (tests start new databases from one). */
  snapshot?(): Promise<Blob>;
}

export interface ConnectOptions {
  /** postgres://... ; when absent, PGlite is used. */
  databaseUrl?: string;
  /** PGlite data folder; 'memory://' for an in-memory database. */
  dataDir?: string;
  /** PostgreSQL schema to use (tests use a fresh one each); created when missing. */
  schema?: string;
  poolSize?: number;
  /** PGlite only: start from this snapshot (see Db.snapshot) instead of an empty cluster. */
  loadDataDir?: Blob;
}

export async function connect(opts: ConnectOptions): Promise<Db> {
  if (opts.databaseUrl) return connectPostgres(opts.databaseUrl, opts.schema, opts.poolSize ?? 10);
  return connectPglite(opts.dataDir ?? 'memory://', opts.loadDataDir);
}

async function connectPglite(dataDir: string, loadDataDir?: Blob): Promise<Db> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  if (!dataDir.startsWith('memory://')) mkdirSync(dataDir, { recursive: true });
  const lite = await PGlite.create(dataDir, { extensions: { pg_trgm }, loadDataDir });
  const db = pgliteDb(lite, false);
  db.snapshot = () => lite.dumpDataDir('none');
  return db;
}

function pgliteDb(lite: PGliteType, inTx: boolean): Db {
  const scope = {};
  const db: Db = {
    kind: 'pglite',
    scope,
    afterCommit: (fn) => fn(),
    async listen(channel, onNotify, onState) {
      await lite.listen(channel, () => onNotify());
      onState(true);
    },
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await lite.query<T>(sql, params as unknown[]);
      return { rows: res.rows, rowCount: res.affectedRows || res.rows.length };
    },
    async exec(sql: string) {
      await lite.exec(sql);
    },
    async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
      if (inTx) return fn(db);
      const committed: (() => void)[] = [];
      const out = await lite.transaction(async (tx) => {
        const txDb: Db = {
          kind: 'pglite',
          scope,
          afterCommit: (f) => void committed.push(f),
          async query<R>(sql: string, params: unknown[] = []) {
            const res = await tx.query<R>(sql, params as unknown[]);
            return { rows: res.rows, rowCount: res.affectedRows || res.rows.length };
          },
          async exec(sql: string) {
            await tx.exec(sql);
          },
          transaction: (inner) => inner(txDb),
          close: async () => {},
        };
        return fn(txDb);
      });
      for (const f of committed) f();
      return out as T;
    },
    async close() {
      if (!lite.closed) await lite.close();
    },
  };
  return db;
}

// pg returns BIGINT (int8) and NUMERIC as strings by default; Vigil's counts and ids fit in doubles.
pg.types.setTypeParser(20, (v) => Number(v));
pg.types.setTypeParser(1700, (v) => Number(v));

async function connectPostgres(url: string, schema: string | undefined, max: number): Promise<Db> {
  if (schema) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      // CREATE SCHEMA IF NOT EXISTS is not race-safe: two processes starting together can both
      // pass the existence check. A transaction-scoped advisory lock serialises them.
      await admin.query('BEGIN');
      await admin.query("SELECT pg_advisory_xact_lock(hashtext('vigil:create-schema'))");
      await admin.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await admin.query('COMMIT');
    } catch (err) {
      await admin.query('ROLLBACK').catch(() => {});
      throw err;
    } finally {
      await admin.end();
    }
  }
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: schema ? `-c search_path=${schema},public` : undefined,
  });
  // An idle client that errors (server restart) must not crash the process.
  pool.on('error', () => {});
  const scope = {};
  const listeners: pg.Client[] = [];
  let closed = false;
  /** A connection of its own that LISTENs; when it is lost (or cannot be opened), another is tried a second later. */
  const listen = async (channel: string, onNotify: () => void, onState: (up: boolean) => void): Promise<void> => {
    const client = new pg.Client({
      connectionString: url,
      options: schema ? `-c search_path=${schema},public` : undefined,
    });
    let retried = false;
    const retry = () => {
      onState(false);
      const i = listeners.indexOf(client);
      if (i >= 0) listeners.splice(i, 1);
      if (closed || retried) return;
      retried = true;
      setTimeout(() => void listen(channel, onNotify, onState), 1000).unref();
    };
    client.on('error', () => {});
    client.on('notification', (m) => {
      if (m.channel === channel) onNotify();
    });
    client.on('end', retry);
    listeners.push(client);
    try {
      await client.connect();
      await client.query(`LISTEN ${quoteIdent(channel)}`);
    } catch {
      await client.end().catch(() => {});
      retry();
      return;
    }
    if (closed) await client.end().catch(() => {});
    else onState(true);
  };
  const wrap = (client: pg.Pool | pg.PoolClient, inTx: boolean, committed?: (() => void)[]): Db => {
    const db: Db = {
      kind: 'postgres',
      scope,
      afterCommit: (fn) => (committed ? void committed.push(fn) : fn()),
      listen,
      async query<T>(sql: string, params: unknown[] = [], opts?: QueryOptions) {
        const res = await (opts?.name
          ? client.query({ name: opts.name, text: sql, values: params })
          : client.query(sql, params));
        return { rows: res.rows as T[], rowCount: res.rowCount ?? 0 };
      },
      async exec(sql: string) {
        await client.query(sql);
      },
      async transaction<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
        if (inTx) return fn(db);
        const conn = await pool.connect();
        const committed: (() => void)[] = [];
        try {
          await conn.query('BEGIN');
          const out = await fn(wrap(conn, true, committed));
          await conn.query('COMMIT');
          for (const f of committed) f();
          return out;
        } catch (err) {
          await conn.query('ROLLBACK').catch(() => {});
          throw err;
        } finally {
          conn.release();
        }
      },
      async close() {
        if (inTx) return;
        closed = true;
        await Promise.all(listeners.map((c) => c.end().catch(() => {})));
        await pool.end();
      },
    };
    return db;
  };
  return wrap(pool, false);
}

export function quoteIdent(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid SQL identifier: ${name}`);
  return `"${name}"`;
}
