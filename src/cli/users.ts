import type { Command } from 'commander';
import { databaseOptions, runCliTask, type DatabaseFlags } from './database.ts';

// `vigil users`: account tasks that need no API key, for the operator of the machine (e.g. a lost key).
// They work while `vigil serve` runs too (through its admin socket).
export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage user accounts from the machine that runs Vigil');

  databaseOptions(
    users
      .command('key')
      .argument('<email>', 'the existing user')
      .description('print a new API key for the user; their previous key stops working'),
  ).action(async (email: string, flags: DatabaseFlags) => {
    await runCliTask(flags, 'users key', { email });
  });

  databaseOptions(
    users.command('list').description('list users with their teams and roles, and who may create teams'),
  ).action(async (flags: DatabaseFlags) => {
    await runCliTask(flags, 'users list', {});
  });

  databaseOptions(
    users
      .command('allow-teams')
      .argument('<email>', 'the existing user')
      .description(
        'let the user create teams (VIGIL_TEAM_CREATION=allowed, the default; as the instance owner can in the API)',
      ),
  ).action(async (email: string, flags: DatabaseFlags) => {
    await runCliTask(flags, 'users allow-teams', { email });
  });

  databaseOptions(
    users
      .command('deny-teams')
      .argument('<email>', 'the existing user')
      .description('stop the user creating teams (teams they made stay theirs)'),
  ).action(async (email: string, flags: DatabaseFlags) => {
    await runCliTask(flags, 'users deny-teams', { email });
  });
}
