// Opening the platform's database from a CLI command: --data-dir / --database-url (else VIGIL_DATA_DIR,
// DATABASE_URL), and problems (a folder `vigil serve` holds, a server that does not answer) said in one
// line with exit status 1, never as a stack trace.
import path from 'node:path';
import type { Command } from 'commander';
import type { Db } from '../db/connection.ts';
import { configFromEnv } from '../platform/config.ts';

export interface DatabaseFlags {
  dataDir?: string;
  databaseUrl?: string;
}

/** Adds --data-dir and --database-url to a command. */
export function databaseOptions(cmd: Command): Command {
  return cmd
    .option('--data-dir <dir>', 'Vigil data folder (default: VIGIL_DATA_DIR or ./data)')
    .option('--database-url <url>', 'PostgreSQL server instead of the embedded database (default: DATABASE_URL)');
}

export async function withCliDatabase(flags: DatabaseFlags, fn: (db: Db) => Promise<void>): Promise<void> {
  const config = configFromEnv();
  if (flags.dataDir) config.dataDir = path.resolve(flags.dataDir);
  if (flags.databaseUrl) config.databaseUrl = flags.databaseUrl;
  const { openDatabase } = await import('../platform/start.ts');
  let db: Db;
  try {
    db = await openDatabase(config, process.env.VIGIL_DB_SCHEMA || undefined);
  } catch (err) {
    console.error(`vigil: ${(err as Error).message}`);
    process.exit(1);
  }
  try {
    await fn(db);
  } catch (err) {
    console.error(`vigil: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    await db.close().catch(() => {});
  }
}
