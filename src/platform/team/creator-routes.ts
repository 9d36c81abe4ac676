// /v1/instance/team-creators: the instance owner decides which users may create teams (under
// VIGIL_TEAM_CREATION=allowed, the default). Instance-wide, so no team role opens it: only the
// instance owner, whichever team the request names.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, MessageBody } from '../shared/errors.ts';
import {
  listTeamCreators,
  requireInstanceOwner,
  setTeamCreator,
  TEAM_CREATION_MODES,
  type TeamCreation,
} from './team-creation.ts';
import { Email } from './schemas.ts';

const tags = ['users'];

export const teamCreatorRoutes: FastifyPluginAsyncTypebox<{ mode: TeamCreation }> = async (app, opts) => {
  const db = app.ctx.db;
  // Before the body is validated, as a route's `action` is: the refusal does not depend on the input.
  app.addHook('preValidation', async (req) => requireInstanceOwner(db, req.caller));

  app.get(
    '/v1/instance/team-creators',
    {
      schema: {
        tags,
        summary: 'Who may create teams besides the instance owner (instance owner only)',
        response: {
          200: Type.Object({
            message: Type.String(),
            mode: Type.Union(
              TEAM_CREATION_MODES.map((m) => Type.Literal(m)),
              { description: 'VIGIL_TEAM_CREATION: the grants count under allowed only' },
            ),
            users: Type.Array(Type.Object({ email: Type.String() })),
          }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => {
      return { message: 'ok', mode: opts.mode, users: await listTeamCreators(db) };
    },
  );

  app.post(
    '/v1/instance/team-creators',
    {
      schema: {
        tags,
        summary: 'Allow a user to create teams (instance owner only)',
        body: Type.Object({ email: Email }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await setTeamCreator(db, req.body.email, true);
      const note =
        opts.mode === 'allowed' ? '' : ` (VIGIL_TEAM_CREATION=${opts.mode}: the grant counts only under allowed)`;
      return { message: `${req.body.email} may create teams${note}` };
    },
  );

  app.delete(
    '/v1/instance/team-creators',
    {
      schema: {
        tags,
        summary: 'Stop a user creating teams; teams they made stay theirs (instance owner only)',
        body: Type.Object({ email: Email }),
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await setTeamCreator(db, req.body.email, false);
      return { message: `${req.body.email} may no longer create teams` };
    },
  );
};
