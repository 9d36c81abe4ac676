// GET /v1/team/audit_log and /v1/team/audit_log/search (the hosted platform's paths and answer).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import { listAudit, searchAudit } from './audit.ts';

const Entry = Type.Object({
  created_at: Type.String(),
  email: Type.String(),
  action: Type.String({ description: 'METHOD /route, e.g. PATCH /v1/scans/vulns' }),
  status: Type.Integer({ description: "the answer's HTTP status" }),
  method: Type.String(),
  ip: Type.String(),
  path: Type.String({ description: 'the path asked (no query string; credentials in it replaced)' }),
  source: Type.String({ description: 'api (API key), platform (console) or unknown' }),
});
const Answer = Type.Object({ message: Type.String(), data: Type.Array(Entry) });
const Paging = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
};
const tags = ['audit_log'];

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  app.get(
    '/v1/team/audit_log',
    {
      config: { action: 'team:view' },
      schema: {
        tags,
        summary: "The team's audit log: every change a person or key made, newest first",
        querystring: Type.Object({
          email: Type.Optional(Type.String({ maxLength: 320 })),
          action: Type.Optional(Type.String({ maxLength: 300 })),
          start_date: Type.Optional(Type.String({ format: 'date' })),
          end_date: Type.Optional(Type.String({ format: 'date' })),
          time_range: Type.Optional(
            Type.String({ description: 'current_month, last_month, last_3_months, last_6_months, last_12_months' }),
          ),
          source: Type.Optional(Type.String({ description: 'api, platform or unknown' })),
          ...Paging,
        }),
        response: { 200: Answer, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => listAudit(ctx, req.caller.teamId, req.query),
  );
  app.get(
    '/v1/team/audit_log/search',
    {
      config: { action: 'team:view' },
      schema: {
        tags,
        summary: 'Search the audit log: a status code, source, IP, email, HTTP method, or text in the path',
        querystring: Type.Object({
          q: Type.String({ minLength: 1, maxLength: 200 }),
          offset: Paging.offset,
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 100 })),
        }),
        response: { 200: Answer, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => searchAudit(ctx, req.caller.teamId, req.query),
  );
};
