// Opening the platform's database from a CLI command: --data-dir / --database-url (else VIGIL_DATA_DIR,
// DATABASE_URL), and problems (a server that does not answer, a broken folder) said in one line with
// exit status 1, never as a stack trace. While `vigil serve` holds the embedded database, operator tasks
// run inside that server through its admin socket (src/platform/admin/socket.ts).
import path from 'node:path';
import type { Command } from 'commander';
import type { Db } from '../db/connection.ts';
import { configFromEnv } from '../platform/shared/config.ts';
import type { TaskName } from '../platform/admin/tasks.ts';

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

function cliConfig(flags: DatabaseFlags) {
  const config = configFromEnv();
  if (flags.dataDir) config.dataDir = path.resolve(flags.dataDir);
  if (flags.databaseUrl) config.databaseUrl = flags.databaseUrl;
  return config;
}

export async function withCliDatabase(flags: DatabaseFlags, fn: (db: Db) => Promise<void>): Promise<void> {
  const config = cliConfig(flags);
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

/**
 * Runs an operator task: inside the `vigil serve` that holds the embedded database when one answers on
 * its admin socket, else on a database connection of this process.
 */
export async function runCliTask(flags: DatabaseFlags, task: TaskName, args: Record<string, unknown>): Promise<void> {
  const config = cliConfig(flags);
  if (!config.databaseUrl) {
    const { runThroughServer } = await import('../platform/admin/socket.ts');
    const code = await runThroughServer(config.dataDir, task, args);
    if (code !== undefined) {
      process.exitCode = code;
      return;
    }
  }
  const { TASKS } = await import('../platform/admin/tasks.ts');
  const io = {
    out: (s: string) => void process.stdout.write(s),
    err: (s: string) => void process.stderr.write(s),
    tty: Boolean(process.stderr.isTTY),
  };
  await withCliDatabase(flags, (db) =>
    (TASKS[task] as (db: Db, a: unknown, io: unknown) => Promise<void>)(db, args, io),
  );
}
