// SQL for users, teams, memberships and API keys.
import type { Db } from '../../db/connection.ts';
import type { Role } from './permissions.ts';
import { forgetCallers, type CallerRow } from './caller-cache.ts';

export interface UserRow {
  id: number;
  email: string;
  name: string | null;
  default_team_id: string | null;
  created_at: Date;
  last_sign_in: Date | null;
}

export interface MemberRow {
  team_id: string;
  user_id: number;
  email: string;
  role: Role;
  status: string;
  invited_at: Date;
  accepted_at: Date | null;
  last_sign_in: Date | null;
}

export interface TeamRow {
  id: string;
  name: string;
  created_at: Date;
}

export async function findUserByKeyHash(db: Db, keyHash: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    'SELECT u.* FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = $1',
    [keyHash],
  );
  return rows[0];
}

export type { CallerRow };

/** The key's user and their membership of `teamId` (or of their default team when teamId is undefined). */
export async function findCallerByKeyHash(
  db: Db,
  keyHash: string,
  teamId: string | undefined,
): Promise<CallerRow | undefined> {
  const { rows } = await db.query<CallerRow>(
    `SELECT u.id AS user_id, u.email, u.last_sign_in, m.team_id, m.role, m.status
       FROM api_keys k
       JOIN users u ON u.id = k.user_id
       LEFT JOIN team_members m ON m.user_id = u.id AND m.team_id = COALESCE($2::text, u.default_team_id)
      WHERE k.key_hash = $1`,
    [keyHash, teamId ?? null],
  );
  return rows[0];
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>('SELECT * FROM users WHERE lower(email) = lower($1)', [email]);
  return rows[0];
}

export async function insertUser(db: Db, email: string, defaultTeamId: string | null): Promise<UserRow> {
  const { rows } = await db.query<UserRow>('INSERT INTO users (email, default_team_id) VALUES ($1, $2) RETURNING *', [
    email.toLowerCase(),
    defaultTeamId,
  ]);
  return rows[0]!;
}

export async function setDefaultTeam(db: Db, userId: number, teamId: string): Promise<void> {
  await db.query('UPDATE users SET default_team_id = $2 WHERE id = $1', [userId, teamId]);
  forgetCallers(db);
}

/** Records activity at most once a minute per user, so reads do not turn into a write per request. */
export async function touchSignIn(db: Db, userId: number): Promise<void> {
  await db.query(
    "UPDATE users SET last_sign_in = now() WHERE id = $1 AND (last_sign_in IS NULL OR last_sign_in < now() - interval '1 minute')",
    [userId],
  );
}

export async function insertTeam(db: Db, id: string, name: string): Promise<TeamRow> {
  const { rows } = await db.query<TeamRow>('INSERT INTO teams (id, name) VALUES ($1, $2) RETURNING *', [id, name]);
  return rows[0]!;
}

export async function findTeam(db: Db, id: string): Promise<TeamRow | undefined> {
  const { rows } = await db.query<TeamRow>('SELECT * FROM teams WHERE id = $1', [id]);
  return rows[0];
}

export async function countTeams(db: Db): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM teams');
  return rows[0]!.n;
}

export async function findMembership(db: Db, teamId: string, userId: number): Promise<MemberRow | undefined> {
  const { rows } = await db.query<MemberRow>(
    `SELECT m.*, u.email, u.last_sign_in FROM team_members m JOIN users u ON u.id = m.user_id
     WHERE m.team_id = $1 AND m.user_id = $2`,
    [teamId, userId],
  );
  return rows[0];
}

export async function listMembers(db: Db, teamId: string): Promise<MemberRow[]> {
  const { rows } = await db.query<MemberRow>(
    `SELECT m.*, u.email, u.last_sign_in FROM team_members m JOIN users u ON u.id = m.user_id
     WHERE m.team_id = $1 ORDER BY m.invited_at, u.email`,
    [teamId],
  );
  return rows;
}

export async function listUserTeams(db: Db, userId: number): Promise<(TeamRow & { role: Role })[]> {
  const { rows } = await db.query<TeamRow & { role: Role }>(
    `SELECT t.*, m.role FROM team_members m JOIN teams t ON t.id = m.team_id WHERE m.user_id = $1 ORDER BY t.created_at`,
    [userId],
  );
  return rows;
}

export async function insertMember(
  db: Db,
  teamId: string,
  userId: number,
  role: Role,
  accepted: boolean,
): Promise<void> {
  await db.query(
    `INSERT INTO team_members (team_id, user_id, role, status, accepted_at)
     VALUES ($1, $2, $3, $4, CASE WHEN $5::boolean THEN now() END)`,
    [teamId, userId, role, accepted ? 'ACCEPTED' : 'INVITED', accepted],
  );
  forgetCallers(db);
}

export async function updateMemberRole(db: Db, teamId: string, userId: number, role: Role): Promise<void> {
  await db.query('UPDATE team_members SET role = $3 WHERE team_id = $1 AND user_id = $2', [teamId, userId, role]);
  forgetCallers(db);
}

export async function deleteMember(db: Db, teamId: string, userId: number): Promise<number> {
  const res = await db.query('DELETE FROM team_members WHERE team_id = $1 AND user_id = $2', [teamId, userId]);
  forgetCallers(db);
  return res.rowCount;
}

/** Replaces every key of the user with one new hash (rotation invalidates the old key at once). */
export async function replaceApiKey(db: Db, userId: number, keyHash: string, prefix: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM api_keys WHERE user_id = $1', [userId]);
    await tx.query('INSERT INTO api_keys (user_id, key_hash, key_prefix) VALUES ($1, $2, $3)', [
      userId,
      keyHash,
      prefix,
    ]);
  });
  forgetCallers(db);
}

export async function acceptInvite(db: Db, teamId: string, userId: number): Promise<void> {
  await db.query(
    "UPDATE team_members SET status = 'ACCEPTED', accepted_at = now() WHERE team_id = $1 AND user_id = $2 AND status = 'INVITED'",
    [teamId, userId],
  );
  forgetCallers(db);
}

export async function findCallerBySessionHash(
  db: Db,
  tokenHash: string,
  teamId: string | undefined,
  idleHours: number,
): Promise<(CallerRow & { csrf_token: string; last_seen_at: Date }) | undefined> {
  const { rows } = await db.query<CallerRow & { csrf_token: string; last_seen_at: Date }>(
    `SELECT u.id AS user_id, u.email, u.last_sign_in, m.team_id, m.role, m.status, s.csrf_token, s.last_seen_at
       FROM sessions s
       JOIN users u ON u.id = s.user_id
       LEFT JOIN team_members m ON m.user_id = u.id AND m.team_id = COALESCE($2::text, u.default_team_id)
      WHERE s.token_hash = $1 AND s.expires_at > now() AND s.last_seen_at > now() - make_interval(hours => $3)`,
    [tokenHash, teamId ?? null, idleHours],
  );
  return rows[0];
}

export async function insertSession(
  db: Db,
  tokenHash: string,
  userId: number,
  csrfToken: string,
  days: number,
): Promise<void> {
  // Expired sessions of anyone are cleared on the way (cheap with the index; keeps the table small).
  await db.query('DELETE FROM sessions WHERE expires_at < now()');
  await db.query(
    'INSERT INTO sessions (token_hash, user_id, csrf_token, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))',
    [tokenHash, userId, csrfToken, days],
  );
}

export async function touchSession(db: Db, tokenHash: string): Promise<void> {
  await db.query(
    "UPDATE sessions SET last_seen_at = now() WHERE token_hash = $1 AND last_seen_at < now() - interval '1 minute'",
    [tokenHash],
  );
}

export async function deleteSession(db: Db, tokenHash: string): Promise<number> {
  return (await db.query('DELETE FROM sessions WHERE token_hash = $1', [tokenHash])).rowCount;
}

export async function deleteUserSessions(db: Db, userId: number, exceptHash?: string): Promise<void> {
  await db.query('DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2', [userId, exceptHash ?? '']);
}

export async function findPasswordHash(db: Db, userId: number): Promise<string | null> {
  const { rows } = await db.query<{ password_hash: string | null }>('SELECT password_hash FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.password_hash ?? null;
}

export async function setPasswordHash(db: Db, userId: number, hash: string): Promise<void> {
  await db.query('UPDATE users SET password_hash = $2 WHERE id = $1', [userId, hash]);
}

export async function findKeyInfo(
  db: Db,
  userId: number,
): Promise<{ key_prefix: string; created_at: Date } | undefined> {
  const { rows } = await db.query<{ key_prefix: string; created_at: Date }>(
    'SELECT key_prefix, created_at FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC LIMIT 1',
    [userId],
  );
  return rows[0];
}

/** Marks the instance owner (the first account, made by the first start); a database has at most one. */
export async function markInstanceOwner(db: Db, userId: number): Promise<void> {
  await db.query(
    'UPDATE users SET is_instance_owner = true WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM users WHERE is_instance_owner)',
    [userId],
  );
}

export async function findTeamCreationRights(
  db: Db,
  userId: number,
): Promise<{ is_instance_owner: boolean; may_create_teams: boolean }> {
  const { rows } = await db.query<{ is_instance_owner: boolean; may_create_teams: boolean }>(
    'SELECT is_instance_owner, may_create_teams FROM users WHERE id = $1',
    [userId],
  );
  return rows[0] ?? { is_instance_owner: false, may_create_teams: false };
}

/** Allows or stops a user creating teams; false when no user has that email. */
export async function setMayCreateTeams(db: Db, email: string, allowed: boolean): Promise<boolean> {
  const res = await db.query('UPDATE users SET may_create_teams = $2 WHERE lower(email) = lower($1)', [email, allowed]);
  return res.rowCount > 0;
}

export async function listTeamCreators(db: Db): Promise<{ email: string }[]> {
  const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE may_create_teams ORDER BY email');
  return rows;
}

/** Whether the user has any credential: a password or an API key. */
export async function hasCredentials(db: Db, userId: number): Promise<boolean> {
  const { rows } = await db.query<{ yes: boolean }>(
    `SELECT (u.password_hash IS NOT NULL OR EXISTS (SELECT 1 FROM api_keys k WHERE k.user_id = u.id)) AS yes FROM users u WHERE u.id = $1`,
    [userId],
  );
  return rows[0]?.yes ?? false;
}

/** Every user with each team they belong to (one row per membership; a user of no team once), for `vigil users list`. */
export async function listUserMemberships(
  db: Db,
): Promise<{ email: string; team: string | null; team_id: string | null; role: string | null; creates: string }[]> {
  const { rows } = await db.query<{
    email: string;
    team: string | null;
    team_id: string | null;
    role: string | null;
    creates: string;
  }>(
    `SELECT u.email, t.name AS team, t.id AS team_id, m.role,
            CASE WHEN u.is_instance_owner THEN 'instance-owner' WHEN u.may_create_teams THEN 'creates-teams' ELSE '-' END AS creates
       FROM users u
       LEFT JOIN team_members m ON m.user_id = u.id LEFT JOIN teams t ON t.id = m.team_id
      ORDER BY u.email, t.created_at`,
  );
  return rows;
}

export async function renameTeam(db: Db, teamId: string, name: string): Promise<void> {
  await db.query('UPDATE teams SET name = $2 WHERE id = $1', [teamId, name]);
}

/** Deletes a team (members, templates, invites cascade); its members' default team becomes `moveDefaultTo`. */
export async function deleteTeam(db: Db, teamId: string, moveDefaultTo: string): Promise<void> {
  await db.query('DELETE FROM teams WHERE id = $1', [teamId]);
  await db.query('UPDATE users SET default_team_id = $2 WHERE default_team_id = $1', [teamId, moveDefaultTo]);
  forgetCallers(db);
}

/** Whether the team's scans run code and javascript templates no trusted key signed (teams.allow_unsigned_templates). */
export async function teamAllowsUnsigned(db: Db, teamId: string): Promise<boolean> {
  const { rows } = await db.query<{ allow: boolean }>(
    'SELECT allow_unsigned_templates AS allow FROM teams WHERE id = $1',
    [teamId],
  );
  return rows[0]?.allow ?? false;
}

export async function setTeamAllowsUnsigned(db: Db, teamId: string, allow: boolean): Promise<void> {
  await db.query('UPDATE teams SET allow_unsigned_templates = $2 WHERE id = $1', [teamId, allow]);
}

/**
 * Adds a key only when the user has none (the user's row is locked meanwhile, so of two requests at once
 * one adds it). Returns false when a key already exists.
 */
export async function insertFirstApiKey(db: Db, userId: number, keyHash: string, prefix: string): Promise<boolean> {
  const added = await db.transaction(async (tx) => {
    await tx.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const { rows } = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1', [
      userId,
    ]);
    if (rows[0]!.n > 0) return false;
    await tx.query('INSERT INTO api_keys (user_id, key_hash, key_prefix) VALUES ($1, $2, $3)', [
      userId,
      keyHash,
      prefix,
    ]);
    return true;
  });
  forgetCallers(db);
  return added;
}

/** Revokes every key of the user; returns how many there were. */
export async function deleteApiKeys(db: Db, userId: number): Promise<number> {
  const res = await db.query('DELETE FROM api_keys WHERE user_id = $1', [userId]);
  forgetCallers(db);
  return res.rowCount;
}
