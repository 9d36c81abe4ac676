// SQL for team invites (the tables of users, teams and members are in auth/store.ts).
import type { Db } from '../../db/connection.ts';

export type InviteKind = 'account' | 'join' | 'first_password';

export interface OpenInvite {
  team_id: string;
  team_name: string;
  user_id: number;
  email: string;
  kind: InviteKind;
  expires_at: Date;
  has_password: boolean;
  has_key: boolean;
}

/**
 * True when the account has nothing an invite could take over: no password, no key, and no team other
 * than `teamId` (a new account, or one left behind when its only invite was withdrawn).
 */
export async function isUnclaimedAccount(db: Db, userId: number, teamId: string): Promise<boolean> {
  const { rows } = await db.query<{ yes: boolean }>(
    `SELECT u.password_hash IS NULL
        AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.user_id = u.id)
        AND NOT EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = u.id AND m.team_id <> $2) AS yes
       FROM users u WHERE u.id = $1`,
    [userId, teamId],
  );
  return rows[0]?.yes ?? false;
}

/** Replaces any open invite of the user to the team with a new one (one live link per member). */
export async function insertInvite(
  db: Db,
  i: { tokenHash: string; teamId: string; userId: number; createdBy: number; kind: InviteKind; days: number },
): Promise<Date> {
  await db.query('DELETE FROM team_invites WHERE team_id = $1 AND user_id = $2 AND used_at IS NULL', [
    i.teamId,
    i.userId,
  ]);
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO team_invites (token_hash, team_id, user_id, created_by, kind, expires_at)
     VALUES ($1, $2, $3, $4, $5, now() + make_interval(days => $6)) RETURNING expires_at`,
    [i.tokenHash, i.teamId, i.userId, i.createdBy, i.kind, i.days],
  );
  return rows[0]!.expires_at;
}

const OPEN_INVITE = `
  SELECT i.team_id, t.name AS team_name, i.user_id, u.email, i.kind, i.expires_at,
         u.password_hash IS NOT NULL AS has_password,
         EXISTS (SELECT 1 FROM api_keys k WHERE k.user_id = i.user_id) AS has_key
    FROM team_invites i JOIN users u ON u.id = i.user_id JOIN teams t ON t.id = i.team_id
   WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > now()`;

/** The unused, unexpired invite with this token hash, with what its account has now. */
export async function findOpenInvite(db: Db, tokenHash: string): Promise<OpenInvite | undefined> {
  const { rows } = await db.query<OpenInvite>(OPEN_INVITE, [tokenHash]);
  return rows[0] && { ...rows[0], user_id: Number(rows[0].user_id) };
}

/** Uses the invite up, once: the row is locked, so of two redemptions at once one finds it used. */
export async function claimInvite(db: Db, tokenHash: string): Promise<OpenInvite | undefined> {
  const found = (await db.query<OpenInvite>(`${OPEN_INVITE} FOR UPDATE OF i`, [tokenHash])).rows[0];
  if (!found) return undefined;
  await db.query('UPDATE team_invites SET used_at = now() WHERE token_hash = $1', [tokenHash]);
  return { ...found, user_id: Number(found.user_id) };
}
