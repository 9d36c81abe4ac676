// Opening the platform's database: connect (PGlite data folder or DATABASE_URL), run migrations, and make
// sure the owner account exists. Shared by `vigil serve`, `vigil worker`, the CLI and tests.
import path from 'node:path';
import { openSync, writeSync, closeSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import type { Db } from '../db/connection.ts';
import { connect } from '../db/connection.ts';
import { migrate } from '../db/migrate.ts';
import type { PlatformConfig } from './shared/config.ts';

export async function openDatabase(
  config: Pick<PlatformConfig, 'databaseUrl' | 'dataDir'>,
  schema?: string,
): Promise<Db> {
  const db = config.databaseUrl
    ? await connect({ databaseUrl: config.databaseUrl, schema })
    : await openPgliteDir(path.join(config.dataDir, 'pg'));
  await migrate(db);
  return db;
}

/** The data folder's embedded database is held by another process: a refusal with a full sentence, not a crash. */
export class DataDirBusyError extends Error {
  override name = 'DataDirBusyError';
}

async function openPgliteDir(dir: string): Promise<Db> {
  const release = lockDataDir(dir);
  try {
    const db = await connect({ dataDir: dir });
    const close = db.close.bind(db);
    return Object.assign(db, {
      close: async () => {
        try {
          await close();
        } finally {
          release();
        }
      },
    });
  } catch (err) {
    release();
    // PGlite belongs to one process: a second one on the same folder fails to open it.
    throw new DataDirBusyError(
      `cannot open the embedded database in ${dir} (${(err as Error).message}). ` +
        'Is `vigil serve` already running on this data folder? Stop it, use its HTTP API, or set DATABASE_URL.',
    );
  }
}

/**
 * PGlite itself does not lock its folder: a second process would open it too and corrupt it. A lock file
 * with the owner's pid makes the second opener fail with the message above; a lock left by a process that
 * no longer runs (killed) is taken over.
 */
function lockDataDir(dir: string): () => void {
  const file = `${dir}.lock`;
  mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        process.off('exit', release);
        try {
          if (readFileSync(file, 'utf8') === String(process.pid)) unlinkSync(file);
        } catch {
          /* already gone */
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(file, 'utf8').trim());
      if (pid && isAlive(pid)) {
        throw new DataDirBusyError(
          `cannot open the embedded database in ${dir}: process ${pid} holds it. ` +
            'Is `vigil serve` already running on this data folder? Stop it, use its HTTP API, or set DATABASE_URL.',
        );
      }
      unlinkSync(file); // stale: its process is gone
    }
  }
  throw new Error(`cannot lock ${file}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
