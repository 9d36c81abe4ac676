// Default team members (GET / POST / DELETE /v1/user/team/default-members): people, by email and role,
// taken into every team created on this instance from then on. It is an instance-wide setting, so only
// the instance owner changes or reads it. A new team invites each default member that has an account
// (status INVITED until they first use the team); emails without an account are kept for later teams.
import type { Db } from '../../db/connection.ts';
import type { Caller } from '../auth/service.ts';
import { parseRole, type Role } from '../auth/permissions.ts';
import * as store from '../auth/store.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { requireInstanceOwner } from './team-creation.ts';
import * as defaults from './default-members-store.ts';

export const DEFAULT_MEMBER_ROLES: Role[] = ['ADMIN', 'MEMBER', 'VIEWER', 'GUEST'];

export async function listDefaultMembers(db: Db, caller: Caller) {
  await requireInstanceOwner(db, caller, 'read or change the default team members');
  return defaults.listDefaultMembers(db);
}

export async function setDefaultMembers(db: Db, caller: Caller, members: { email: string; role: string }[]) {
  await requireInstanceOwner(db, caller, 'read or change the default team members');
  const seen = new Set<string>();
  const rows = members.map((m, i) => {
    const role = parseRole(m.role);
    if (!role || !DEFAULT_MEMBER_ROLES.includes(role))
      throw badRequest(`members[${i}].role must be one of ${DEFAULT_MEMBER_ROLES.join(', ')}`, `members[${i}].role`);
    const email = m.email.trim().toLowerCase();
    if (seen.has(email)) throw badRequest(`members[${i}].email ${email} is listed twice`, `members[${i}].email`);
    seen.add(email);
    return { email, role };
  });
  await defaults.replaceDefaultMembers(db, rows);
  return rows.length;
}

export async function deleteDefaultMembers(db: Db, caller: Caller, email?: string) {
  await requireInstanceOwner(db, caller, 'read or change the default team members');
  const n = await defaults.deleteDefaultMembers(db, email?.trim().toLowerCase());
  if (email && !n) throw notFound(`${email} is not a default team member`, 'email');
  return n;
}

/** Invites the default members with an account into a team just made (inside its transaction). */
export async function addDefaultMembers(tx: Db, teamId: string, ownerId: number): Promise<void> {
  for (const m of await defaults.defaultMemberAccounts(tx)) {
    if (m.user_id === ownerId) continue;
    await store.insertMember(tx, teamId, m.user_id, m.role as Role, false);
  }
}
