import type { Command } from 'commander';
import { databaseOptions, runCliTask, type DatabaseFlags } from './database.ts';

// `vigil updates`: the record of template and feed updates (by hand or VIGIL_AUTO_UPDATE), newest first.
export function registerUpdates(program: Command): void {
  databaseOptions(
    program
      .command('updates')
      .description('list the recent template and feed update runs: time, kind, status, version, error'),
  ).action(async (flags: DatabaseFlags) => {
    await runCliTask(flags, 'updates list', {});
  });
}
