// GET /v2/vulnerability/search, GET /v2/vulnerability/filters and GET /v2/vulnerability/{id}.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import { SearchResponse, Vulnerability } from './schema.ts';
import * as intel from './service.ts';
import { vulnerabilityFilters } from './filters.ts';

const tags = ['vulnerability'];

export const intelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;
  app.addSchema(Vulnerability);

  app.get(
    '/v2/vulnerability/search',
    {
      config: { action: 'intel:view' },
      schema: {
        tags,
        summary: 'Full text search on vulnerabilities',
        querystring: Type.Object({
          q: Type.Optional(
            Type.String({
              maxLength: 4000,
              description: 'field:value, ranges (cvss_score:>7, age_in_days:<30), &&, ||, NOT, parentheses, free text',
            }),
          ),
          limit: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'The numbers of items to return' }),
          ),
          offset: Type.Optional(Type.Integer({ minimum: 0, default: 0, description: 'The numbers of items to skip' })),
          sort_asc: Type.Optional(Type.String({ description: 'Sort results in ascending order (CSV field names)' })),
          sort_desc: Type.Optional(Type.String({ description: 'Sort results in descending order (CSV field names)' })),
          fields: Type.Optional(Type.String({ description: 'List of fields to return (comma separated)' })),
          term_facets: Type.Optional(Type.String({ description: 'Fields to count values of (comma separated)' })),
          range_facets: Type.Optional(
            Type.String({ description: 'Numeric fields to count by range (comma separated)' }),
          ),
          facets: Type.Optional(Type.String({ description: 'Alias of term_facets' })),
          facet_size: Type.Optional(
            Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'Number of facets to return' }),
          ),
          highlight: Type.Optional(
            Type.Boolean({ description: 'Accepted for compatibility; results are not highlighted' }),
          ),
        }),
        response: { 200: SearchResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (req) => intel.search(db, req.query),
  );

  app.get(
    '/v2/vulnerability/filters',
    {
      config: { action: 'intel:view' },
      schema: {
        tags,
        summary: 'The fields the vulnerability search accepts: type, facets, sorting, examples and values',
        response: {
          200: Type.Array(
            Type.Object({
              field: Type.String(),
              data_type: Type.String(),
              description: Type.String(),
              facet_possible: Type.Boolean(),
              can_sort: Type.Boolean(),
              examples: Type.Array(Type.String()),
              search_analyzer: Type.String(),
              enum_values: Type.Array(Type.String()),
            }),
          ),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => vulnerabilityFilters(),
  );

  app.get(
    '/v2/vulnerability/:id',
    {
      config: { action: 'intel:view' },
      schema: {
        tags,
        summary: 'Get vulnerability by id (a CVE id in any letter case, or a doc_id)',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: Type.Object({
          fields: Type.Optional(Type.String({ description: 'Fields to return (comma separated)' })),
        }),
        response: { 200: Type.Object({ data: Type.Ref(Vulnerability) }), ...errorResponses(400, 404, 500) },
      },
    },
    async (req, reply) => {
      const answer = await intel.lookup(db, req.params.id, req.query.fields);
      if ('data' in answer) return answer;
      // Already JSON: Fastify sends a Buffer as it is, with the content type given.
      // (The type provider types send() as the schema's object; the bytes are that object serialised.)
      return reply.type('application/json; charset=utf-8').send(answer.bytes as never);
    },
  );
};
