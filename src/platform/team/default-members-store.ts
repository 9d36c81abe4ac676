// SQL of the instance's default team members (team_default_members).
import type { Db } from '../../db/connection.ts';

export interface DefaultMemberRow {
  email: string;
  role: string;
}

export async function listDefaultMembers(db: Db): Promise<DefaultMemberRow[]> {
  const { rows } = await db.query<DefaultMemberRow>('SELECT email, role FROM team_default_members ORDER BY email');
  return rows;
}

/** Replaces the whole list in one transaction. */
export async function replaceDefaultMembers(db: Db, members: DefaultMemberRow[]): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM team_default_members');
    for (const m of members)
      await tx.query('INSERT INTO team_default_members (email, role) VALUES ($1, $2)', [m.email, m.role]);
  });
}

/** Removes one (by email) or every default member; returns how many were removed. */
export async function deleteDefaultMembers(db: Db, email?: string): Promise<number> {
  const res = email
    ? await db.query('DELETE FROM team_default_members WHERE email = $1', [email])
    : await db.query('DELETE FROM team_default_members');
  return res.rowCount;
}

/** The default members that have an account, with its id (the ones a new team can take in). */
export async function defaultMemberAccounts(db: Db): Promise<{ user_id: number; role: string }[]> {
  const { rows } = await db.query<{ user_id: string; role: string }>(
    `SELECT u.id::text AS user_id, d.role FROM team_default_members d JOIN users u ON lower(u.email) = d.email ORDER BY d.email`,
  );
  return rows.map((r) => ({ user_id: Number(r.user_id), role: r.role }));
}
