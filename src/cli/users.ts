import type { Command } from 'commander';
import { databaseOptions, runCliTask, type DatabaseFlags } from './database.ts';

// `vigil users`: account tasks that need no API key, for the operator of the machine (e.g. a lost key).
// They work while `vigil serve` runs too (through its admin socket).
export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage user accounts from the machine that runs Vigil');

  databaseOptions(users
    .command('key')
    .argument('<email>', 'the existing user')
    .description('print a new API key for the user; their previous key stops working'))
    .action(async (email: string, flags: DatabaseFlags) => {
      await runCliTask(flags, 'users key', { email });
    });

  databaseOptions(users
    .command('list')
    .description('list users with their teams and roles'))
    .action(async (flags: DatabaseFlags) => {
      await runCliTask(flags, 'users list', {});
    });
}
