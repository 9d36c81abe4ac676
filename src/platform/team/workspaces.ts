// Several teams per user: create a workspace (the caller becomes its Owner, the instance's default members
// are invited: default-members.ts; who may is team-creation.ts's decision), rename it, delete it with its data (Owner only, once no other member is left). Invites:
// invites.ts.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import type { Caller } from '../auth/service.ts';
import * as store from '../auth/store.ts';
import { deleteTeamScans } from '../scans/store.ts';
import { badRequest, conflict, forbidden, notFound } from '../shared/errors.ts';
import { addDefaultMembers } from './default-members.ts';

function cleanName(name: string): string {
  const n = name.trim();
  if (!n) throw badRequest('name must not be empty', 'name');
  return n;
}

/** A new team owned by the caller (whether the caller may create one is asked first: team-creation.ts). */
export async function createWorkspace(db: Db, caller: Caller, name: string): Promise<string> {
  const teamId = randomUUID();
  await db.transaction(async (tx) => {
    await store.insertTeam(tx, teamId, cleanName(name));
    await store.insertMember(tx, teamId, caller.userId, 'OWNER', true);
    await addDefaultMembers(tx, teamId, caller.userId);
  });
  return teamId;
}

export async function renameWorkspace(db: Db, caller: Caller, name: string): Promise<void> {
  if (caller.role !== 'OWNER' && caller.role !== 'ADMIN')
    throw forbidden(`role ${caller.role} may not change team settings`);
  await store.renameTeam(db, caller.teamId, cleanName(name));
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
    await deleteTeamScans(tx, teamId);
    await store.deleteTeam(tx, teamId, other.id);
  });
}
