// /v1/user/team/settings: a team's settings that are not its name. allow_unsigned_templates lets the
// team's scans run code and javascript templates no trusted key signed: a risk only the Owner takes
// (everyone in the team may read it, with the signers the platform trusts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import { setTeamAllowsUnsigned, teamAllowsUnsigned } from '../auth/store.ts';
import { platformSigners } from '../templates/signing.ts';

const tags = ['users'];

const TeamSettings = Type.Object({
  message: Type.String(),
  allow_unsigned_templates: Type.Boolean({
    description:
      "the team's scans run code and javascript templates that no trusted key signed (default false: they are refused, counted in the scan log)",
  }),
  trusted_signers: Type.Array(Type.String(), {
    description:
      "common names of the trusted template-signing certificates: ProjectDiscovery's, then the operator's (VIGIL_TEMPLATE_CERTIFICATES)",
  }),
});

export const teamSettingsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;
  const answer = async (teamId: string, message: string) => ({
    message,
    allow_unsigned_templates: await teamAllowsUnsigned(db, teamId),
    trusted_signers: platformSigners().signers,
  });

  app.get(
    '/v1/user/team/settings',
    {
      config: { action: 'team:view' },
      schema: {
        tags,
        summary: "The current team's settings: unsigned code and javascript templates, trusted signers",
        response: { 200: TeamSettings, ...errorResponses(401, 403) },
      },
    },
    async (req) => answer(req.caller.teamId, 'ok'),
  );

  app.patch(
    '/v1/user/team/settings',
    {
      config: { action: 'team:trust_unsigned_templates' },
      schema: {
        tags,
        summary: 'Change the team settings (Owner only): whether unsigned code and javascript templates run',
        body: Type.Object({ allow_unsigned_templates: Type.Boolean() }, { additionalProperties: false }),
        response: { 200: TeamSettings, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const allow = req.body.allow_unsigned_templates;
      await setTeamAllowsUnsigned(db, req.caller.teamId, allow);
      req.log.info({ team_id: req.caller.teamId, allow_unsigned_templates: allow }, 'team setting changed');
      return answer(
        req.caller.teamId,
        allow
          ? "the team's scans now run code and javascript templates no trusted key signed"
          : "the team's scans refuse code and javascript templates no trusted key signed",
      );
    },
  );
};
