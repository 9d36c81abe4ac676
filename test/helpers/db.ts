// Fresh databases for tests: PGlite in memory always, and a new schema on TEST_DATABASE_URL when CI sets it.
// Storage tests run once per kind: `describe.each(dbKinds())('... on %s', (kind) => ...)`.
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startQueue } from '../../src/db/queue.ts';
import pg from 'pg';
import { connect, quoteIdent, type Db } from '../../src/db/connection.ts';
import { migrate } from '../../src/db/migrate.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

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
    // A migrated database with the job queue's schema, restored from a snapshot: creating a PGlite
    // cluster and migrating it costs several seconds, restoring one a fraction of that.
    const loadDataDir = opts.migrate === false ? undefined : await migratedSnapshot();
    const db = await connect({ dataDir: 'memory://', loadDataDir });
    out = { db, kind, drop: () => db.close() };
  } else {
    const url = process.env.TEST_DATABASE_URL!;
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const db = await connect({ databaseUrl: url, schema, poolSize: 5 });
    out = {
      db,
      kind,
      url,
      schema,
      async drop() {
        await db.close();
        await dropSchema(url, schema);
      },
    };
  }
  if (opts.migrate !== false) await migrate(out.db);
  return out;
}

let snapshot: Promise<Blob> | undefined;

/**
 * The snapshot is cached in the system temp folder under a hash of the migrations and the versions of
 * PGlite and pg-boss, so every test process of a run (and later runs) reuse one; any change to a
 * migration makes a new one.
 */
function migratedSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const hash = createHash('sha256');
    const dir = path.join(repoRoot, 'src/db/migrations');
    for (const f of readdirSync(dir).sort()) hash.update(f).update(readFileSync(path.join(dir, f)));
    for (const pkg of ['@electric-sql/pglite', 'pg-boss']) {
      hash.update(readFileSync(path.join(repoRoot, 'node_modules', pkg, 'package.json')));
    }
    const file = path.join(tmpdir(), `vigil-test-pglite-${hash.digest('hex').slice(0, 16)}.tar`);
    if (existsSync(file)) return new Blob([readFileSync(file)]);
    const db = await connect({ dataDir: 'memory://' });
    try {
      await migrate(db);
      const boss = await startQueue({ db, schedule: false, supervise: false });
      await boss.stop({ graceful: false, wait: true });
      const blob = await db.snapshot!();
      const tmp = `${file}.${process.pid}.tmp`;
      writeFileSync(tmp, Buffer.from(await blob.arrayBuffer()));
      renameSync(tmp, file); // atomic: parallel test processes never read half a file
      return blob;
    } finally {
      await db.close();
    }
  })();
  return snapshot;
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
