// Opening the platform's database: connect (PGlite data folder or DATABASE_URL), run migrations, and make
// sure the owner account exists. Shared by `vigil serve`, `vigil worker`, the CLI and tests.
import path from 'node:path';
import type { Db } from '../db/connection.ts';
import { connect } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import type { PlatformConfig } from './config.ts';

export async function openDatabase(config: Pick<PlatformConfig, 'databaseUrl' | 'dataDir'>, schema?: string): Promise<Db> {
  const db = config.databaseUrl
    ? await connect({ databaseUrl: config.databaseUrl, schema })
    : await openPgliteDir(path.join(config.dataDir, 'pg'));
  await migrate(db);
  return db;
}

async function openPgliteDir(dir: string): Promise<Db> {
  try {
    return await connect({ dataDir: dir });
  } catch (err) {
    // PGlite belongs to one process: a second one on the same folder fails to open it.
    throw new Error(
      `cannot open the embedded database in ${dir} (${(err as Error).message}). ` +
        'Is `vigil serve` already running on this data folder? Stop it, use its HTTP API, or set DATABASE_URL.',
    );
  }
}
