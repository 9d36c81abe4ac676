// /v1/user, /v1/user/apikey/rotate, /v1/user/team and /v1/user/team/member.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, MessageBody } from '../errors.ts';
import { issueKey } from '../auth/service.ts';
import * as store from '../auth/store.ts';
import * as team from './service.ts';

const TeamMember = Type.Object({
  email: Type.String(),
  status: Type.String(),
  role: Type.String({ description: 'OWNER, ADMIN, MEMBER, VIEWER or GUEST' }),
  invited_at: Type.Optional(Type.String()),
  accepted_at: Type.Optional(Type.String()),
  last_sign_in: Type.Optional(Type.String()),
});

const Email = Type.String({ minLength: 3, maxLength: 320, pattern: '^[^\\s@]+@[^\\s@]+$' });
const tags = ['users'];

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;

  app.get('/v1/user', {
    schema: {
      tags, summary: 'Who am I',
      response: {
        200: Type.Object({
          message: Type.String(), email: Type.String(), user_id: Type.Integer(), team_id: Type.String(),
          team_name: Type.Optional(Type.String()), role: Type.String(), is_team_owner: Type.Boolean(), is_read_only: Type.Boolean(),
          teams: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() })),
        }),
        ...errorResponses(401, 403),
      },
    },
  }, async (req) => {
    const c = req.caller;
    const teams = await store.listUserTeams(db, c.userId);
    return {
      message: 'ok', email: c.email, user_id: c.userId, team_id: c.teamId,
      team_name: teams.find((t) => t.id === c.teamId)?.name, role: c.role,
      is_team_owner: c.role === 'OWNER', is_read_only: !['OWNER', 'ADMIN'].includes(c.role),
      teams: teams.map((t) => ({ id: t.id, name: t.name, role: t.role })),
    };
  });

  app.post('/v1/user/apikey/rotate', {
    schema: {
      tags, summary: 'Rotate API key: the old key stops working at once',
      response: { 200: Type.Object({ message: Type.String(), api_key: Type.String() }), ...errorResponses(401) },
    },
  }, async (req) => ({ message: 'API key rotated; the previous key no longer works', api_key: await issueKey(db, req.caller.userId) }));

  app.get('/v1/user/team', {
    schema: {
      tags, summary: 'Teams of the caller',
      response: {
        200: Type.Object({
          message: Type.String(), name: Type.Optional(Type.String()),
          workspaces: Type.Array(Type.Object({
            id: Type.String(), name: Type.String(), created_at: Type.String(), member_count: Type.Integer(),
            owner_email: Type.String(), role: Type.String(),
          })),
        }),
        ...errorResponses(401, 403),
      },
    },
  }, async (req) => team.teamInfo(db, req.caller));

  app.get('/v1/user/team/member', {
    config: { action: 'team:view' },
    schema: {
      tags, summary: 'List team members',
      response: {
        200: Type.Object({ message: Type.String(), max_team_members: Type.Integer(), members: Type.Array(TeamMember) }),
        ...errorResponses(401, 403),
      },
    },
  }, async (req) => ({
    message: 'ok', max_team_members: team.MAX_TEAM_MEMBERS, members: await team.listMembers(db, req.caller.teamId),
  }));

  app.post('/v1/user/team/member', {
    config: { action: 'team:manage_members' },
    schema: {
      tags, summary: 'Add a team member (creates the account when new)',
      body: Type.Object({ email: Email, role: Type.Optional(Type.String()) }),
      response: { 200: MessageBody, ...errorResponses(400, 401, 403, 409) },
    },
  }, async (req) => {
    await team.addMember(db, req.caller, req.body.email, req.body.role);
    return { message: `${req.body.email} added to the team` };
  });

  app.patch('/v1/user/team/member', {
    // No route-level action: a member of any role may accept their own invite; role changes ask the
    // permission table in the service (rule 1).
    schema: {
      tags, summary: "Change a member's role (or, without role, accept your own team invite)",
      body: Type.Object({
        email: Email,
        role: Type.Optional(Type.String({ description: 'ADMIN, MEMBER, VIEWER or GUEST (any letter case); the Owner role cannot be given or taken here' })),
      }),
      response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    const out = await team.updateMember(db, req.caller, req.body.email, req.body.role);
    return { message: out.accepted ? `team invite accepted; your role is ${out.role}` : `${req.body.email} is now ${out.role}` };
  });

  app.delete('/v1/user/team/member', {
    config: { action: 'team:manage_members' },
    schema: {
      tags, summary: 'Remove a team member',
      body: Type.Object({ email: Email }),
      response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    await team.removeMember(db, req.caller, req.body.email);
    return { message: `${req.body.email} removed from the team` };
  });
};
