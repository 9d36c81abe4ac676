// Findings exports, as the hosted platform's API has them: GET/POST /v1/scans/{scan_id}/export,
// POST /v1/scans/results/export and GET /v1/scans/vuln/{vuln_id}/export. type json, csv or pdf (the
// platform's), sarif or markdown (Vigil's); the file streams as the answer, or with async=true an export
// job builds it and GET /v1/export/{export_id} gives its link.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import { getScan } from './service.ts';
import { asyncResultsExport, streamResults, type ResultsExportRequest } from './exports.ts';
import { RESULT_EXTENSIONS, RESULT_FORMATS } from './result-formats.ts';
import { getResult } from './results.ts';
import type { ResultFilterBody } from './result-filter.ts';

const tags = ['export'];
const Str = Type.String({ maxLength: 1000 });
const List = <T extends TSchema>(item: T) => Type.Optional(Type.Array(item, { maxItems: 10_000 }));

const TypeQuery = Type.Optional(
  Type.Union(
    RESULT_FORMATS.map((f) => Type.Literal(f)),
    { description: 'json, csv, pdf (the hosted platform), sarif (SARIF 2.1.0) or markdown; default json' },
  ),
);
const ExportQuery = Type.Object({
  type: TypeQuery,
  async: Type.Optional(Type.Boolean({ description: 'build the file in a job; answers 201 with its export_id' })),
});

const FilterFields = {
  ids: List(Type.String({ maxLength: 20 })),
  vuln_status: Type.Optional(Str),
  severity: List(Type.String({ maxLength: 20 })),
  host: List(Str),
  domain: List(Str),
  port: List(Type.Integer({ minimum: 0, maximum: 65535 })),
  template: List(Str),
  search: Type.Optional(Str),
  category: List(Str),
  is_internal: Type.Optional(Type.Boolean()),
};
const ScanFilterBody = Type.Object(FilterFields);
const ResultsFilterBody = Type.Object({
  ...FilterFields,
  scan_ids: List(Type.String({ maxLength: 200 })),
  time: Type.Optional(
    Type.Union(
      ['last_day', 'last_week', 'last_month', 'last_3_months', 'last_6_months', 'last_12_months', 'all_time'].map((t) =>
        Type.Literal(t),
      ),
    ),
  ),
  start_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
  end_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
});

const responses = {
  201: Type.Object({ export_id: Type.String() }),
  ...errorResponses(400, 401, 403, 404),
};

export const exportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  /** Streams the file, or queues its job and answers 201. */
  async function answer(reply: FastifyReply, e: ResultsExportRequest, async: boolean | undefined) {
    if (async) return reply.code(201).send({ export_id: await asyncResultsExport(ctx, e) });
    const file = streamResults(ctx.db, e);
    reply.header('content-type', file.contentType);
    reply.header('content-disposition', `attachment; filename="${file.name}"`);
    reply.header('cache-control', 'no-store');
    return reply.send(file.stream);
  }

  app.get(
    '/v1/scans/:scan_id/export',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: "Export a scan's findings",
        params: Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: ExportQuery,
        response: responses,
      },
    },
    async (req, reply) => {
      const scan = await getScan(ctx, req.caller.teamId, req.params.scan_id);
      const e = { teamId: req.caller.teamId, scanId: scan.scan_id, filter: {}, format: req.query.type ?? 'json' };
      return answer(reply, e, req.query.async);
    },
  );

  app.post(
    '/v1/scans/:scan_id/export',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: "Export a scan's findings that match a filter",
        params: Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: ExportQuery,
        body: Type.Optional(ScanFilterBody),
        response: responses,
      },
    },
    async (req, reply) => {
      const scan = await getScan(ctx, req.caller.teamId, req.params.scan_id);
      const filter: ResultFilterBody = req.body ?? {};
      const e = { teamId: req.caller.teamId, scanId: scan.scan_id, filter, format: req.query.type ?? 'json' };
      return answer(reply, e, req.query.async);
    },
  );

  app.post(
    '/v1/scans/results/export',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: "Export the team's findings that match a filter (across scans)",
        querystring: ExportQuery,
        body: Type.Optional(ResultsFilterBody),
        response: responses,
      },
    },
    async (req, reply) => {
      const filter: ResultFilterBody = req.body ?? {};
      const e = { teamId: req.caller.teamId, scanId: null, filter, format: req.query.type ?? 'json' };
      return answer(reply, e, req.query.async);
    },
  );

  app.get(
    '/v1/scans/vuln/:vuln_id/export',
    {
      config: { action: 'results:view' },
      schema: {
        tags,
        summary: 'Export one finding',
        params: Type.Object({ vuln_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object({ type: TypeQuery }),
        response: errorResponses(400, 401, 403, 404),
      },
    },
    async (req, reply) => {
      // A finding of another team, or no finding, is a 404 (not an empty file).
      const finding = await getResult(ctx, req.caller.teamId, req.params.vuln_id);
      const format = req.query.type ?? 'json';
      const file = streamResults(ctx.db, {
        teamId: req.caller.teamId,
        scanId: null,
        filter: { ids: [finding.vuln_id] },
        format,
      });
      reply.header('content-type', file.contentType);
      reply.header(
        'content-disposition',
        `attachment; filename="finding-${finding.vuln_id}.${RESULT_EXTENSIONS[format]}"`,
      );
      reply.header('cache-control', 'no-store');
      return reply.send(file.stream);
    },
  );
};
