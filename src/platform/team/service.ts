// Team membership rules (spec: "Update team member").
import type { Db } from '../../db/connection.ts';
import type { Caller } from '../auth/service.ts';
import * as store from '../auth/store.ts';
import { can, parseRole, type Role } from '../auth/permissions.ts';
import { badRequest, conflict, forbidden, notFound } from '../shared/errors.ts';

export const MAX_TEAM_MEMBERS = 100;

function roleOf(value: string | undefined, fallback: Role): Role {
  if (value === undefined) return fallback;
  const role = parseRole(value);
  if (!role) throw badRequest(`unknown role "${value}": use ADMIN, MEMBER, VIEWER or GUEST`, 'role');
  return role;
}

async function memberByEmail(db: Db, teamId: string, email: string) {
  const user = await store.findUserByEmail(db, email);
  const member = user && (await store.findMembership(db, teamId, user.id));
  if (!user || !member) throw notFound(`${email} is not a member of this team`, 'email');
  return member;
}

export async function listMembers(db: Db, teamId: string) {
  const rows = await store.listMembers(db, teamId);
  return rows.map((m) => ({
    email: m.email,
    status: m.status,
    role: m.role,
    invited_at: m.invited_at.toISOString(),
    accepted_at: m.accepted_at?.toISOString(),
    last_sign_in: m.last_sign_in?.toISOString(),
  }));
}

/**
 * Adds a member, creating the account when the email is new. A member who has not accepted yet is invited
 * again (with this role; the caller makes a new invite link). The Owner role is never given here.
 */
export async function addMember(db: Db, caller: Caller, email: string, roleText?: string): Promise<number> {
  const role = roleOf(roleText, 'MEMBER');
  if (role === 'OWNER')
    throw badRequest('the Owner role cannot be given to a new member; a team has one Owner', 'role');
  return db.transaction(async (tx) => {
    const members = await store.listMembers(tx, caller.teamId);
    let user = await store.findUserByEmail(tx, email);
    const existing = user && members.find((m) => m.user_id === user!.id);
    if (existing && existing.status !== 'INVITED') throw conflict(`${email} is already a member of this team`, 'email');
    if (existing) {
      await store.updateMemberRole(tx, caller.teamId, existing.user_id, role);
      return existing.user_id;
    }
    if (members.length >= MAX_TEAM_MEMBERS) throw badRequest(`the team already has ${MAX_TEAM_MEMBERS} members`);
    if (!user) user = await store.insertUser(tx, email, caller.teamId);
    await store.insertMember(tx, caller.teamId, user.id, role, false);
    return user.id;
  });
}

/**
 * PATCH /v1/user/team/member under the spec's rules ("Update team member"). With a role it changes an
 * existing member's role; the new role applies from the caller's very next request, because the role is
 * read on every request. Without a role, for the caller's own email, it accepts the caller's invite (the
 * reference titles the endpoint "Accept team invite"; using the key already accepts it).
 */
export async function updateMember(
  db: Db,
  caller: Caller,
  email: string,
  roleText: string | undefined,
): Promise<{ role: Role; accepted?: boolean }> {
  if (roleText === undefined) {
    if (email.toLowerCase() !== caller.email.toLowerCase()) {
      throw badRequest("role is required to change another member's role: ADMIN, MEMBER, VIEWER or GUEST", 'role');
    }
    await store.acceptInvite(db, caller.teamId, caller.userId);
    return { role: caller.role, accepted: true };
  }
  // Rule 1: only an Admin or the Owner changes roles (asked of the one permission table).
  if (!can(caller.role, 'team:manage_members'))
    throw forbidden(`role ${caller.role} may not change roles: an Admin or the Owner can`);
  const role = roleOf(roleText, 'MEMBER');
  const target = await memberByEmail(db, caller.teamId, email);
  // Rules 3 and 4: nobody changes the Owner's role here (an Admin never; the Owner transfers ownership elsewhere).
  if (target.role === 'OWNER') {
    throw forbidden(
      caller.role === 'ADMIN'
        ? "an Admin cannot change the Owner's role"
        : 'the Owner role cannot be changed here; ownership transfer is a separate process',
    );
  }
  // Rules 4 and 5: the Owner role is never given here, so a team keeps exactly one Owner.
  if (role === 'OWNER')
    throw badRequest(
      'the Owner role cannot be given here: a team has one Owner, and ownership transfer is a separate process',
      'role',
    );
  await store.updateMemberRole(db, caller.teamId, target.user_id, role);
  return { role };
}

export async function removeMember(db: Db, caller: Caller, email: string): Promise<void> {
  const target = await memberByEmail(db, caller.teamId, email);
  if (target.role === 'OWNER') throw forbidden('the Owner cannot be removed from the team');
  await store.deleteMember(db, caller.teamId, target.user_id);
}

export async function teamInfo(db: Db, caller: Caller) {
  const teams = await store.listUserTeams(db, caller.userId);
  const workspaces = [];
  for (const t of teams) {
    const members = await store.listMembers(db, t.id);
    workspaces.push({
      id: t.id,
      name: t.name,
      created_at: t.created_at.toISOString(),
      member_count: members.length,
      owner_email: members.find((m) => m.role === 'OWNER')?.email ?? '',
      role: t.role,
    });
  }
  const current = workspaces.find((w) => w.id === caller.teamId);
  return { message: 'ok', name: current?.name, workspaces };
}
