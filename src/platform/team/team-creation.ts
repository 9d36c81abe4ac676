// Who may create a team. Creating one makes the caller its Owner, free to upload templates and run scans
// there, so it is the instance's decision, not any member's: VIGIL_TEAM_CREATION
//   owner     only the instance owner (the first account, made by the first start);
//   allowed   the instance owner and the users it allowed (the default);
//   everyone  every user.
// The instance owner allows users with POST /v1/instance/team-creators (or the operator with
// `vigil users allow-teams EMAIL`).
import type { Db } from '../../db/connection.ts';
import type { Caller } from '../auth/service.ts';
import * as store from '../auth/store.ts';
import { forbidden, notFound } from '../shared/errors.ts';

export const TEAM_CREATION_MODES = ['owner', 'allowed', 'everyone'] as const;
export type TeamCreation = (typeof TEAM_CREATION_MODES)[number];

/** The setting's value, or a start-up error naming it (a typo must not open or close anything silently). */
export function teamCreationMode(value: string | undefined): TeamCreation {
  const v = (value ?? '').trim().toLowerCase() || 'allowed';
  if (!(TEAM_CREATION_MODES as readonly string[]).includes(v)) {
    throw new Error(`VIGIL_TEAM_CREATION must be owner, allowed or everyone (not "${value}")`);
  }
  return v as TeamCreation;
}

export interface TeamCreationRights {
  isInstanceOwner: boolean;
  canCreateTeam: boolean;
}

export async function teamCreationRights(db: Db, mode: TeamCreation, userId: number): Promise<TeamCreationRights> {
  const r = await store.findTeamCreationRights(db, userId);
  const can = r.is_instance_owner || mode === 'everyone' || (mode === 'allowed' && r.may_create_teams);
  return { isInstanceOwner: r.is_instance_owner, canCreateTeam: can };
}

export async function checkMayCreateTeam(db: Db, mode: TeamCreation, caller: Caller): Promise<void> {
  if ((await teamCreationRights(db, mode, caller.userId)).canCreateTeam) return;
  throw forbidden(
    mode === 'owner'
      ? 'only the instance owner may create teams on this server (VIGIL_TEAM_CREATION=owner)'
      : 'only the instance owner and the users they allowed may create teams on this server: ask the instance owner',
  );
}

export async function requireInstanceOwner(db: Db, caller: Caller, what = 'decide who creates teams'): Promise<void> {
  if (!(await store.findTeamCreationRights(db, caller.userId)).is_instance_owner) {
    throw forbidden(`only the instance owner (the first account) may ${what}`);
  }
}

/** Allows a user to create teams, or stops them (teams they made stay theirs). */
export async function setTeamCreator(db: Db, email: string, allowed: boolean): Promise<void> {
  if (!(await store.setMayCreateTeams(db, email, allowed))) throw notFound(`no user has the email ${email}`, 'email');
}

export async function listTeamCreators(db: Db): Promise<{ email: string }[]> {
  return store.listTeamCreators(db);
}
