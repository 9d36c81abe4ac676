// /v1/user, /v1/user/apikey/rotate, /v1/user/team, /v1/user/team/member and the invites
// (/v1/user/invite/...); /v1/instance/team-creators in creator-routes.ts.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, MessageBody } from '../shared/errors.ts';
import { issueKey } from '../auth/service.ts';
import { MAX_PASSWORD } from '../auth/password-rules.ts';
import { identify } from '../auth/plugin.ts';
import { createSession } from '../auth/sessions.ts';
import { setSessionCookie } from '../auth/routes.ts';
import * as store from '../auth/store.ts';
import * as team from './service.ts';
import { inviteMailer, mailInvite } from './invite-mail.ts';
import { acceptInvite, createInvite, INVITE_TTL_DAYS, lookupInvite } from './invites.ts';
import { createWorkspace, deleteWorkspace, renameWorkspace } from './workspaces.ts';
import { checkMayCreateTeam, requireInstanceOwner, teamCreationMode, teamCreationRights } from './team-creation.ts';
import type { FastifyRequest } from 'fastify';
import { teamCreatorRoutes } from './creator-routes.ts';
import { teamSettingsRoutes } from './settings-routes.ts';
import { auditRoutes } from './audit-routes.ts';
import { Email } from './schemas.ts';
import * as defaultMembers from './default-members.ts';

const TeamMember = Type.Object({
  email: Type.String(),
  status: Type.String(),
  role: Type.String({ description: 'OWNER, ADMIN, MEMBER, VIEWER or GUEST' }),
  invited_at: Type.Optional(Type.String()),
  accepted_at: Type.Optional(Type.String()),
  last_sign_in: Type.Optional(Type.String()),
});

const tags = ['users'];

export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;
  // Read once: a wrong value stops the start with a message naming the setting.
  const creation = teamCreationMode(app.ctx.config.teamCreation);
  await app.register(teamCreatorRoutes, { mode: creation });
  await app.register(teamSettingsRoutes);
  await app.register(auditRoutes);

  app.get(
    '/v1/user',
    {
      schema: {
        tags,
        summary: 'Who am I',
        response: {
          200: Type.Object({
            message: Type.String(),
            email: Type.String(),
            name: Type.String({
              description: "the user's name, or the email's local part when none is set (nuclei's key check reads it)",
            }),
            user_id: Type.Integer(),
            team_id: Type.String(),
            team_name: Type.Optional(Type.String()),
            role: Type.String(),
            is_team_owner: Type.Boolean(),
            is_read_only: Type.Boolean(),
            teams: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), role: Type.String() })),
            can_create_team: Type.Boolean({
              description:
                "whether POST /v1/user/team is open to the caller (VIGIL_TEAM_CREATION, the instance owner's grants)",
            }),
            is_instance_owner: Type.Boolean({ description: 'the first account: decides who may create teams' }),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => {
      const c = req.caller;
      const teams = await store.listUserTeams(db, c.userId);
      const user = await store.findUserByEmail(db, c.email);
      const rights = await teamCreationRights(db, creation, c.userId);
      return {
        message: 'ok',
        email: c.email,
        name: user?.name || c.email.split('@')[0]!,
        user_id: c.userId,
        team_id: c.teamId,
        team_name: teams.find((t) => t.id === c.teamId)?.name,
        role: c.role,
        is_team_owner: c.role === 'OWNER',
        is_read_only: !['OWNER', 'ADMIN'].includes(c.role),
        teams: teams.map((t) => ({ id: t.id, name: t.name, role: t.role })),
        can_create_team: rights.canCreateTeam,
        is_instance_owner: rights.isInstanceOwner,
      };
    },
  );

  app.post(
    '/v1/user/apikey/rotate',
    {
      schema: {
        tags,
        summary: 'Rotate API key: the old key stops working at once',
        response: { 200: Type.Object({ message: Type.String(), api_key: Type.String() }), ...errorResponses(401) },
      },
    },
    async (req) => ({
      message: 'API key rotated; the previous key no longer works',
      api_key: await issueKey(db, req.caller.userId),
    }),
  );

  const ownerOnly = async (req: FastifyRequest) =>
    requireInstanceOwner(db, req.caller, 'read or change the default team members');

  app.get(
    '/v1/user/team/default-members',
    {
      // Before the body is checked: a caller who may not change the setting learns nothing from it.
      preValidation: ownerOnly,
      schema: {
        tags,
        summary: 'Members invited into every new team of this instance (instance owner only)',
        response: {
          200: Type.Object({
            message: Type.String(),
            members: Type.Array(Type.Object({ email: Type.String(), role: Type.String() })),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => ({ message: 'ok', members: await defaultMembers.listDefaultMembers(db, req.caller) }),
  );

  app.post(
    '/v1/user/team/default-members',
    {
      // Before the body is checked: a caller who may not change the setting learns nothing from it.
      preValidation: ownerOnly,
      schema: {
        tags,
        summary: 'Set (replace) the members invited into every new team (instance owner only)',
        body: Type.Object(
          {
            members: Type.Array(
              Type.Object(
                { email: Email, role: Type.String({ maxLength: 20, description: 'ADMIN, MEMBER, VIEWER or GUEST' }) },
                { additionalProperties: false },
              ),
              { maxItems: 1000 },
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const n = await defaultMembers.setDefaultMembers(db, req.caller, req.body.members);
      return { message: `${n} default team member${n === 1 ? '' : 's'} set` };
    },
  );

  app.delete(
    '/v1/user/team/default-members',
    {
      // Before the body is checked: a caller who may not change the setting learns nothing from it.
      preValidation: ownerOnly,
      schema: {
        tags,
        summary: 'Remove one default team member (by email) or all of them (instance owner only)',
        // No body, or {} removes every default member.
        body: Type.Union([Type.Object({ email: Type.Optional(Email) }, { additionalProperties: false }), Type.Null()]),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await defaultMembers.deleteDefaultMembers(db, req.caller, req.body?.email);
      return { message: `${n} default team member${n === 1 ? '' : 's'} removed` };
    },
  );

  app.get(
    '/v1/user/team',
    {
      schema: {
        tags,
        summary: 'Teams of the caller',
        response: {
          200: Type.Object({
            message: Type.String(),
            name: Type.Optional(Type.String()),
            workspaces: Type.Array(
              Type.Object({
                id: Type.String(),
                name: Type.String(),
                created_at: Type.String(),
                member_count: Type.Integer(),
                owner_email: Type.String(),
                role: Type.String(),
              }),
            ),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => team.teamInfo(db, req.caller),
  );

  app.get(
    '/v1/user/team/member',
    {
      config: { action: 'team:view' },
      schema: {
        tags,
        summary: 'List team members',
        response: {
          200: Type.Object({
            message: Type.String(),
            max_team_members: Type.Integer(),
            members: Type.Array(TeamMember),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => ({
      message: 'ok',
      max_team_members: team.MAX_TEAM_MEMBERS,
      members: await team.listMembers(db, req.caller.teamId),
    }),
  );

  app.post(
    '/v1/user/team/member',
    {
      config: { action: 'team:manage_members' },
      schema: {
        tags,
        summary:
          'Add a team member (creates the account when new; a member who has not accepted yet gets a new invite)',
        body: Type.Object({ email: Email, role: Type.Optional(Type.String({ maxLength: 20 })) }),
        response: {
          200: Type.Object({
            message: Type.String(),
            invite_token: Type.String({
              description:
                'one-time token redeemed at POST /v1/user/invite/accept: a new account sets its password there and gets its API key; an existing account accepts it signed in as itself. Shown only here',
            }),
            invite_expires_at: Type.String(),
            account: Type.Union([Type.Literal('new'), Type.Literal('existing')], {
              description: 'new: the link sets the account up; existing: the member signs in and accepts',
            }),
          }),
          ...errorResponses(400, 401, 403, 409),
        },
      },
    },
    async (req) => {
      const userId = await team.addMember(db, req.caller, req.body.email, req.body.role);
      const invite = await createInvite(db, req.caller.teamId, userId, req.caller.userId);
      // With an SMTP alerting config the link is also mailed to the member (in the background).
      const smtp = await inviteMailer(app.ctx, req.caller.teamId);
      if (smtp) {
        const info = await team.teamInfo(db, req.caller);
        void mailInvite(app.ctx, smtp, {
          teamId: req.caller.teamId,
          teamName: String((info as { name?: string }).name ?? ''),
          email: req.body.email,
          token: invite.token,
          expiresAt: invite.expiresAt,
          account: invite.account,
        });
      }
      const how =
        invite.account === 'new'
          ? 'they set their password with it'
          : 'they already have an account: they sign in and accept it';
      return {
        message: `${req.body.email} added to the team; ${smtp ? 'the invite link was emailed to them, and ' : ''}hand them the invite token (valid ${INVITE_TTL_DAYS} days, usable once): ${how}`,
        invite_token: invite.token,
        invite_expires_at: invite.expiresAt.toISOString(),
        account: invite.account,
      };
    },
  );

  const Token = Type.String({ minLength: 10, maxLength: 200 });

  app.post(
    '/v1/user/invite/lookup',
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'Whose invite a token is, to which team, and how it is accepted (the invite page asks before anything is done)',
        security: [],
        body: Type.Object({ token: Token }),
        response: {
          200: Type.Object({
            message: Type.String(),
            email: Type.String(),
            team_id: Type.String(),
            team_name: Type.String(),
            expires_at: Type.String(),
            accept_with: Type.Union([Type.Literal('password'), Type.Literal('sign_in')], {
              description:
                'password: the account is set up with this invite (choose a password); sign_in: the account exists, sign in as it and then accept',
            }),
          }),
          ...errorResponses(400, 404),
        },
      },
    },
    async (req) => ({ message: 'ok', ...(await lookupInvite(db, req.body.token)) }),
  );

  app.post(
    '/v1/user/invite/accept',
    {
      // Public: a new account has no credentials yet. An existing account sends its key or session (with
      // the CSRF token) and must be the invited one.
      config: { public: true },
      schema: {
        tags,
        summary:
          'Redeem a team invite. A new account (made by the invite) sets its password here (and is signed in) and gets its API key once; ' +
          'an existing account accepts while signed in as itself (API key or session), and the invite never changes its password or key',
        security: [],
        body: Type.Object({
          token: Token,
          password: Type.Optional(Type.String({ maxLength: MAX_PASSWORD })),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            email: Type.String(),
            team_id: Type.String(),
            api_key: Type.Optional(Type.String()),
            csrf_token: Type.Optional(
              Type.String({ description: "when a password was set: the new session's CSRF token" }),
            ),
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (req, reply) => {
      const caller = await identify(req);
      const out = await acceptInvite(db, { token: req.body.token, password: req.body.password, caller });
      let csrf: string | undefined;
      if (out.passwordSet) {
        const s = await createSession(db, out.userId);
        setSessionCookie(req, reply, s.token);
        csrf = s.csrfToken;
      }
      return {
        message: out.apiKey ? 'invite accepted; this is your API key, shown only now' : 'invite accepted',
        email: out.email,
        team_id: out.teamId,
        ...(out.apiKey ? { api_key: out.apiKey } : {}),
        ...(csrf ? { csrf_token: csrf } : {}),
      };
    },
  );

  app.post(
    '/v1/user/team',
    {
      // Asked before the body is validated, as a route's `action` is.
      preValidation: async (req) => checkMayCreateTeam(db, creation, req.caller),
      schema: {
        tags,
        summary:
          'Create a workspace (team); the caller becomes its Owner. Open to the instance owner and, by VIGIL_TEAM_CREATION, the users it allowed or everyone',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: {
          200: Type.Object({ message: Type.String(), team_id: Type.String() }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => {
      const teamId = await createWorkspace(db, req.caller, req.body.name);
      return {
        message: `workspace ${req.body.name.trim()} created; send X-Team-Id: ${teamId} to work in it`,
        team_id: teamId,
      };
    },
  );

  app.patch(
    '/v1/user/team',
    {
      config: { action: 'team:manage_settings' },
      schema: {
        tags,
        summary: 'Rename the current team (X-Team-Id or the default one)',
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      await renameWorkspace(db, req.caller, req.body.name);
      return { message: `team renamed to ${req.body.name.trim()}` };
    },
  );

  app.delete(
    '/v1/user/team',
    {
      schema: {
        tags,
        summary: 'Delete a team with all its data (its Owner only, once no other member is left)',
        body: Type.Object({ team_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await deleteWorkspace(db, req.caller, req.body.team_id);
      return { message: `team ${req.body.team_id} and its data deleted` };
    },
  );

  app.patch(
    '/v1/user/team/member',
    {
      // No route-level action: a member of any role may accept their own invite; role changes ask the
      // permission table in the service (rule 1).
      schema: {
        tags,
        summary: "Change a member's role (or, without role, accept your own team invite)",
        body: Type.Object({
          email: Email,
          role: Type.Optional(
            Type.String({
              description:
                'ADMIN, MEMBER, VIEWER or GUEST (any letter case); the Owner role cannot be given or taken here',
            }),
          ),
        }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const out = await team.updateMember(db, req.caller, req.body.email, req.body.role);
      return {
        message: out.accepted
          ? `team invite accepted; your role is ${out.role}`
          : `${req.body.email} is now ${out.role}`,
      };
    },
  );

  app.delete(
    '/v1/user/team/member',
    {
      config: { action: 'team:manage_members' },
      schema: {
        tags,
        summary: 'Remove a team member',
        body: Type.Object({ email: Email }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await team.removeMember(db, req.caller, req.body.email);
      return { message: `${req.body.email} removed from the team` };
    },
  );
};
