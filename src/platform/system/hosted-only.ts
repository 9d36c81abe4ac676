// Operations of the hosted platform that only its own data can answer: which domains belong together
// (its acquisition, certificate-log and WHOIS corpus) and leaked credentials (its breach corpus). A
// self-hosted instance has neither, so each answers the spec's error body saying so (see hostedOnly), after
// the usual authentication and role check. POST /v1/template/ai is the templates area's (same answer).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import type { Action } from '../auth/permissions.ts';
import { errorResponses, hostedOnly } from '../shared/errors.ts';

/** Any query or body is accepted: whatever is asked, the answer is the same. */
const Anything = Type.Object({}, { additionalProperties: true });

const OPERATIONS: { method: 'GET' | 'POST'; url: string; action: Action; summary: string; what: string }[] = [
  {
    method: 'GET',
    url: '/v1/domain/associated',
    action: 'assets:view',
    summary: 'Associated domains (hosted platform only)',
    what: 'Finding associated domains (acquisitions, certificate logs, WHOIS)',
  },
  {
    method: 'GET',
    url: '/v1/leaks',
    action: 'intel:view',
    summary: 'Leaked credentials (hosted platform only)',
    what: 'Leaked credentials',
  },
  {
    method: 'GET',
    url: '/v1/leaks/stats/domain',
    action: 'intel:view',
    summary: "A domain's leak statistics (hosted platform only)",
    what: 'Leak statistics',
  },
  {
    method: 'GET',
    url: '/v1/leaks/stats/email',
    action: 'intel:view',
    summary: "An email's leak statistics (hosted platform only)",
    what: 'Leak statistics',
  },
  {
    method: 'POST',
    url: '/v1/leaks/export',
    action: 'intel:view',
    summary: 'Export leaked credentials (hosted platform only)',
    what: 'Exporting leaked credentials',
  },
  {
    method: 'POST',
    url: '/v1/leaks/info',
    action: 'intel:view',
    summary: 'A leak by id (hosted platform only)',
    what: 'Leak information',
  },
  {
    method: 'POST',
    url: '/v1/leaks/status',
    action: 'assets:manage',
    summary: "Change leaks' status (hosted platform only)",
    what: 'Leak status',
  },
];

export const hostedOnlyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const op of OPERATIONS) {
    app.route({
      method: op.method,
      url: op.url,
      config: { action: op.action },
      schema: {
        tags: ['hosted-only'],
        summary: op.summary,
        description:
          "Answers 404 with code hosted_only: this operation needs the hosted platform's own data, which a self-hosted instance does not have.",
        ...(op.method === 'GET' ? { querystring: Anything } : { body: Type.Optional(Anything) }),
        response: errorResponses(400, 401, 403, 404),
      },
      handler: async () => {
        throw hostedOnly(op.what);
      },
    });
  }
};
