// Several teams per user: create a workspace (the caller becomes its Owner), rename it, delete it with
// its data (Owner only, once no other member is left). And one-time invites, so a member added while
// the server runs can get an API key without anyone touching the server.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import type { Caller } from '../auth/service.ts';
import { issueKey } from '../auth/service.ts';
import * as store from '../auth/store.ts';
import { badRequest, conflict, forbidden, notFound } from '../errors.ts';

export const INVITE_TTL_DAYS = 7;
const hash = (t: string) => createHash('sha256').update(t).digest('hex');

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw badRequest('name must not be empty', 'name');
  return n;
}

export async function createWorkspace(db: Db, caller: Caller, name: string): Promise<string> {
  const teamId = randomUUID();
  await db.transaction(async (tx) => {
    await store.insertTeam(tx, teamId, cleanName(name));
    await store.insertMember(tx, teamId, caller.userId, 'OWNER', true);
  });
  return teamId;
}

export async function renameWorkspace(db: Db, caller: Caller, name: string): Promise<void> {
  if (caller.role !== 'OWNER' && caller.role !== 'ADMIN') throw forbidden(`role ${caller.role} may not change team settings`);
  await db.query('UPDATE teams SET name = $2 WHERE id = $1', [caller.teamId, cleanName(name)]);
}

/**
 * Deletes a team and everything in it (scans with their results, logs and exports, private templates,
 * invites, members). Only its Owner may, and only once the Owner is its last member (as the reference
 * says: "require 0 members"); a user's last team cannot be deleted.
 */
export async function deleteWorkspace(db: Db, caller: Caller, teamId: string): Promise<void> {
  const membership = await store.findMembership(db, teamId, caller.userId);
  if (!membership) throw notFound(`team ${teamId} not found`, 'team_id');
  if (membership.role !== 'OWNER') throw forbidden('only the Owner may delete a team');
  await db.transaction(async (tx) => {
    const members = await store.listMembers(tx, teamId);
    if (members.some((m) => m.user_id !== caller.userId)) {
      throw conflict(`the team still has ${members.length - 1} other member(s): remove them first`, 'team_id');
    }
    const teams = await store.listUserTeams(tx, caller.userId);
    const other = teams.find((t) => t.id !== teamId);
    if (!other) throw badRequest('this is your only team: create another workspace before deleting it', 'team_id');
    await tx.query('DELETE FROM scan_counts WHERE team_id = $1', [teamId]);
    await tx.query('DELETE FROM scans WHERE team_id = $1', [teamId]); // results, logs, exports cascade
    await tx.query('DELETE FROM teams WHERE id = $1', [teamId]); // members, templates, invites cascade
    await tx.query('UPDATE users SET default_team_id = $2 WHERE default_team_id = $1', [teamId, other.id]);
  });
}

/** A one-time invite for a member of the caller's team; the clear token is returned once. */
export async function createInvite(db: Db, teamId: string, userId: number, createdBy: number): Promise<{ token: string; expiresAt: Date }> {
  const token = 'vgi_' + randomBytes(24).toString('base64url');
  const { rows } = await db.query<{ expires_at: Date }>(
    `INSERT INTO team_invites (token_hash, team_id, user_id, created_by, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(days => $5)) RETURNING expires_at`,
    [hash(token), teamId, userId, createdBy, INVITE_TTL_DAYS],
  );
  return { token, expiresAt: rows[0]!.expires_at };
}

/**
 * Redeems an invite once: the membership is accepted and, for a user who has no API key yet, a key is
 * issued and returned (a user who has one keeps it: an invite never revokes a working key). With
 * `passwordHash` the account's console password is set too, for an account that has none yet (an invite
 * must never replace the password of an existing account). A refused invite is not used up.
 */
export async function acceptInvite(db: Db, token: string, passwordHash?: string): Promise<{ email: string; teamId: string; userId: number; apiKey?: string }> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ team_id: string; user_id: number; email: string; has_key: boolean; has_password: boolean }>(
      `UPDATE team_invites i SET used_at = now()
       FROM users u
       WHERE i.token_hash = $1 AND i.used_at IS NULL AND i.expires_at > now() AND u.id = i.user_id
       RETURNING i.team_id, i.user_id, u.email, EXISTS (SELECT 1 FROM api_keys k WHERE k.user_id = i.user_id) AS has_key,
                 u.password_hash IS NOT NULL AS has_password`,
      [hash(token)],
    );
    const row = rows[0];
    if (!row) throw notFound('this invite is unknown, used or expired: ask an Admin for a new one', 'token');
    if (!(await store.findMembership(tx, row.team_id, row.user_id))) throw notFound('the membership this invite was for was removed', 'token');
    if (passwordHash) {
      if (row.has_password) throw conflict('this account already has a password: accept without one and sign in with it', 'password');
      await store.setPasswordHash(tx, Number(row.user_id), passwordHash);
    }
    await store.acceptInvite(tx, row.team_id, row.user_id);
    const apiKey = row.has_key ? undefined : await issueKey(tx, Number(row.user_id));
    return { email: row.email, teamId: row.team_id, userId: Number(row.user_id), apiKey };
  });
}
