// /v1/scans...: create, list, detail, stop, rescan, delete, config, results, scan-log export, finding
// history, import; /v1/export/... for log export state and downloads.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as scans from './service.ts';
import { can } from '../auth/permissions.ts';
import { getResult, listResultsJson, vulnHistory } from './results.ts';
import { resultStats } from './result-stats.ts';
import { appendResults, importResults } from './import.ts';
import { parseLogQuery } from './logs.ts';
import { asyncExport, exportStatus, openDownload, syncExport } from './exports.ts';
import * as S from './schemas.ts';
import { scanAssetExport } from './asset-export.ts';
import { sendExport } from '../shared/export-file.ts';

const tags = ['scans'];
const DeleteResponse = Type.Object({ message: Type.String(), ok: Type.Boolean() });

export const scanRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/v1/scans/:scan_id/asset/export',
    {
      config: { action: 'scans:view' },
      schema: {
        tags: ['scans'],
        summary: 'Export the unique assets (targets) of a scan with their result counts (raw, json or csv)',
        params: Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: Type.Object(
          {
            search: Type.Optional(Type.String({ maxLength: 4096 })),
            format: Type.Optional(Type.String({ maxLength: 10, description: 'raw, json (default) or csv' })),
          },
          { additionalProperties: false },
        ),
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      sendExport(reply, await scanAssetExport(ctx, req.caller.teamId, req.params.scan_id, req.query)),
  );

  // Imports arrive as a raw JSON-lines file, handed over as the request stream (read line by line by
  // the import; this parser only applies to this plugin's routes).
  app.addContentTypeParser(
    ['application/octet-stream', 'application/x-ndjson', 'application/jsonl', 'text/plain'],
    (_req, payload, done) => done(null, payload),
  );

  app.post(
    '/v1/scans',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Create a scan',
        body: S.CreateScanBody,
        response: { 200: S.CreateScanResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const out = await scans.createScan(ctx, req.caller, req.body);
      return {
        message:
          out.status === 'scheduled' ? 'scan stored; it runs when scheduled or rescanned' : 'scan created and queued',
        id: out.id,
        'truncated-scan-targets': out.truncated,
      };
    },
  );

  app.get(
    '/v1/scans',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'List scans',
        querystring: S.ListQuery,
        response: { 200: S.Page(S.ScanListItem), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => scans.listScans(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/scans/results',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['results'],
        summary: "Findings of the team's scans",
        querystring: S.ResultsQuery,
        response: {
          200: Type.Intersect([
            S.Page(S.ResultListItem),
            Type.Object({ stats: Type.Object({ total: Type.Integer() }) }),
          ]),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    // Written as JSON text with each event spliced in unparsed (results.ts); the fields besides the event
    // go through this route's serializer for their schema, so the answer is what the schema above says.
    async (req, reply) => {
      const json = await listResultsJson(
        ctx,
        req.caller.teamId,
        req.query,
        reply.compileSerializationSchema(S.ResultListFields),
      );
      // Already JSON text: Fastify sends a string with a JSON content type as it is.
      return reply.type('application/json; charset=utf-8').send(json as never);
    },
  );

  app.get(
    '/v1/scans/results/stats',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['results'],
        summary:
          "Vigil only: the overview's figures - findings by severity, new and fixed per day, top hosts and templates (each finding once per vuln_hash)",
        querystring: S.ResultStatsQuery,
        response: { 200: S.ResultStats, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => resultStats(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/scans/results/:vuln_id',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['results'],
        summary: "One finding of the team's scans by its vuln_id",
        params: Type.Object({ vuln_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: S.ResultListItem, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => getResult(ctx, req.caller.teamId, req.params.vuln_id),
  );

  app.get(
    '/v1/scans/vulns/history',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['history'],
        summary: 'History of findings (by vuln_hash) across scan runs, newest first',
        querystring: S.HistoryQuery,
        response: { 200: S.HistoryResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => vulnHistory(ctx, req.caller.teamId, req.query.vuln_hash, req.query.history_limit ?? 5),
  );

  app.post(
    '/v1/scans/import',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Import a nuclei JSON-lines results file as an uploaded scan',
        querystring: Type.Object({ name: Type.Optional(Type.String({ maxLength: 500 })) }),
        consumes: ['application/octet-stream', 'application/x-ndjson', 'text/plain'],
        response: { 200: Type.Object({ message: Type.String(), id: Type.String() }), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const out = await importResults(ctx, req.caller, importBody(req.body), req.query.name);
      return { message: `imported ${out.count} results`, id: out.id };
    },
  );

  app.patch(
    '/v1/scans/:scan_id/import',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Add more nuclei JSON-lines results to an uploaded scan (the uploader sends later chunks here)',
        params: Type.Object({ scan_id: Type.String({ maxLength: 200 }) }),
        consumes: ['application/octet-stream', 'application/x-ndjson', 'text/plain'],
        response: {
          200: Type.Object({ message: Type.String(), id: Type.String() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      const out = await appendResults(ctx, req.caller, req.params.scan_id, importBody(req.body));
      return { message: `imported ${out.count} results`, id: out.id };
    },
  );

  app.get(
    '/v1/scans/:scan_id',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'Get a scan',
        params: S.ScanIdParams,
        response: { 200: S.ScanListItem, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => scans.getScan(ctx, req.caller.teamId, req.params.scan_id),
  );

  app.delete(
    '/v1/scans/:scan_id',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Delete a scan with its results and logs',
        params: S.ScanIdParams,
        response: { 200: DeleteResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await scans.deleteScan(ctx, req.caller.teamId, req.params.scan_id);
      return { message: `scan ${req.params.scan_id} deleted`, ok: true };
    },
  );

  app.post(
    '/v1/scans/:scan_id/stop',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Stop a queued or running scan (it ends as failed, reason "stopped")',
        params: S.ScanIdParams,
        response: { 200: DeleteResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      await scans.stopScan(ctx, req.caller.teamId, req.params.scan_id);
      return { message: `scan ${req.params.scan_id} stopped`, ok: true };
    },
  );

  app.post(
    '/v1/scans/:scan_id/rescan',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Run a scan again',
        params: S.ScanIdParams,
        response: { 200: S.CreateScanResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => {
      const out = await scans.rescan(ctx, req.caller.teamId, req.params.scan_id);
      return { message: 'rescan queued', id: out.id, 'truncated-scan-targets': out.truncated };
    },
  );

  app.get(
    '/v1/scans/:scan_id/config',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'Scan configuration',
        params: S.ScanIdParams,
        response: { 200: S.ScanConfig, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => scans.scanConfig(ctx, req.caller.teamId, req.params.scan_id, can(req.caller.role, 'scans:manage')),
  );

  app.get(
    '/v1/scans/:scan_id/scan_log/export',
    {
      config: { action: 'scans:view' },
      schema: {
        tags: ['scan_log'],
        summary: 'Export the scan log: a download link, or an export id with async=true',
        params: S.ScanIdParams,
        querystring: S.LogExportQuery,
        response: {
          200: Type.Object({ url: Type.String() }),
          201: Type.Object({ export_id: Type.String() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req, reply) => {
      const scan = await scans.getScan(ctx, req.caller.teamId, req.params.scan_id);
      const { filter, format } = parseLogQuery(req.query);
      if (req.query.async) {
        return reply
          .code(201)
          .send({ export_id: await asyncExport(ctx, req.caller.teamId, scan.scan_id, filter, format) });
      }
      return { url: await syncExport(ctx, req.caller.teamId, scan.scan_id, filter, format) };
    },
  );

  app.get(
    '/v1/export/:export_id',
    {
      config: { action: 'scans:view' },
      schema: {
        tags: ['scan_log'],
        summary: 'State of an async export, with its download link once ready',
        params: Type.Object({ export_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: S.ExportStatus, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => exportStatus(ctx, req.caller.teamId, req.params.export_id),
  );

  // Public: the unguessable, expiring token in the path is the credential.
  app.get(
    '/v1/export/download/:token',
    {
      config: { public: true },
      schema: {
        tags: ['scan_log'],
        summary: 'Download an export file (link from the export endpoints)',
        params: Type.Object({ token: Type.String({ minLength: 20, maxLength: 200 }) }),
        response: { ...errorResponses(404, 410) },
      },
    },
    async (req, reply) => {
      const file = await openDownload(ctx.db, req.params.token);
      reply.header('content-type', file.contentType);
      reply.header('content-disposition', `attachment; filename="${file.name}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(file.stream);
    },
  );
};

/** The import body as a stream of chunks (a string or buffer when a JSON body or inject gave one). */
function importBody(body: unknown): AsyncIterable<Buffer | string> {
  if (body && typeof (body as AsyncIterable<Buffer>)[Symbol.asyncIterator] === 'function')
    return body as AsyncIterable<Buffer>;
  const whole = typeof body === 'string' || Buffer.isBuffer(body) ? body : '';
  return (async function* () {
    yield whole;
  })();
}
