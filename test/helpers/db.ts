// Fresh databases for tests: PGlite in memory always, and a new schema on TEST_DATABASE_URL when CI sets it.
// Storage tests run once per kind: `describe.each(dbKinds())('... on %s', (kind) => ...)`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { connect, quoteIdent, type Db } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';

export type DbKind = 'pglite' | 'postgres';

export function dbKinds(): DbKind[] {
  return process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
}

export interface TestDb {
  db: Db;
  kind: DbKind;
  /** Set for postgres: the URL and schema, so child processes can join the same database. */
  url?: string;
  schema?: string;
  drop(): Promise<void>;
}

export async function freshDb(kind: DbKind, opts: { migrate?: boolean } = {}): Promise<TestDb> {
  let out: TestDb;
  if (kind === 'pglite') {
    const db = await connect({ dataDir: 'memory://' });
    out = { db, kind, drop: () => db.close() };
  } else {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = await connect({ databaseUrl: url, schema, poolSize: 5 });
    out = {
      db, kind, url, schema,
      async drop() {
        await db.close();
        await dropSchema(url, schema);
      },
    };
  }
  if (opts.migrate !== false) await migrate(out.db);
  return out;
}

export async function dropSchema(url: string, schema: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
    // The job queue's tables live next to it (src/db/queue.ts queueSchemaFor).
    await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(`${schema}_pgboss`)} CASCADE`);
  } finally {
    await c.end();
  }
}
