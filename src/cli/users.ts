import type { Command } from 'commander';
import { databaseOptions, withCliDatabase, type DatabaseFlags } from './database.ts';

// `vigil users`: account tasks that need no API key, for the operator of the machine (e.g. a lost key).
export function registerUsers(program: Command): void {
  const users = program.command('users').description('manage user accounts from the machine that runs Vigil');

  databaseOptions(users
    .command('key')
    .argument('<email>', 'the existing user')
    .description('print a new API key for the user; their previous key stops working'))
    .action(async (email: string, flags: DatabaseFlags) => {
      await withCliDatabase(flags, async (db) => {
        const store = await import('../platform/auth/store.ts');
        const { issueKey } = await import('../platform/auth/service.ts');
        const user = await store.findUserByEmail(db, email);
        if (!user) throw new Error(`no user with email ${email}`);
        process.stdout.write(`${await issueKey(db, user.id)}\n`);
      });
    });

  databaseOptions(users
    .command('list')
    .description('list users with their teams and roles'))
    .action(async (flags: DatabaseFlags) => {
      await withCliDatabase(flags, async (db) => {
        const { rows } = await db.query<{ email: string; team: string; team_id: string; role: string }>(
          `SELECT u.email, t.name AS team, t.id AS team_id, m.role FROM users u
           LEFT JOIN team_members m ON m.user_id = u.id LEFT JOIN teams t ON t.id = m.team_id
           ORDER BY u.email, t.created_at`,
        );
        for (const r of rows) process.stdout.write(`${r.email}\t${r.role ?? '-'}\t${r.team ?? '-'}\t${r.team_id ?? ''}\n`);
      });
    });
}
