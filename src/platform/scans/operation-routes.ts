// Scan operations and the team's scan settings, with the hosted platform's paths and bodies:
// PATCH /v1/scans/{scan_id}, DELETE /v1/scans, PATCH /v1/scans/{scan_id}/config, GET /v1/scans/scan_ips,
// GET /v1/scans/history, GET /v1/scans/{scanId}/history; /v1/scans/config/exclude, /v1/scans/config/severity,
// PATCH /v1/scans/config/{config_id}/severity, POST /v1/scans/config/verify; and a vulnerability's timeline
// for the team (GET /v2/vulnerability/{id}/timeline), which reads the team's findings.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as ops from './operations.ts';
import * as settings from './scan-settings.ts';
import { AssetFilters, ScanIdParams } from './schemas.ts';
import { vulnTimeline } from './timeline.ts';

const Str = Type.String({ maxLength: 4096 });
const StrList = Type.Array(Str, { maxItems: 10_000 });
const Message = Type.Object({ message: Type.String() });
const IdList = Type.Array(Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }), {
  minItems: 1,
  maxItems: 1000,
});

const ScanConfigUpdateItem = Type.Object(
  {
    targets: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100_000 })),
    assets_lists: Type.Optional(StrList),
    templates: Type.Optional(StrList),
    early_templates: Type.Optional(StrList),
    scan_config_ids: Type.Optional(StrList),
    report_config_ids: Type.Optional(StrList),
    alerting_config_ids: Type.Optional(StrList),
    enumeration_ids: Type.Optional(Type.Array(Type.Object({ id: Str }), { maxItems: 1000 })),
    socks5_proxy: Type.Optional(Str),
    agent_id: Type.Optional(Str),
    agent_tags: Type.Optional(StrList),
    agent_networks: Type.Optional(StrList),
    agent_behavior: Type.Optional(Type.Union([Type.Literal('distribute'), Type.Literal('mirror')])),
    scan_all_assets: Type.Optional(Type.Boolean()),
    asset_filters: Type.Optional(AssetFilters),
  },
  { additionalProperties: false },
);

const HistoryQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10 })),
  start_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
  end_date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD' })),
  time_range: Type.Optional(
    Type.Union(
      ['current_month', 'last_month', 'last_3_months', 'last_6_months', 'last_12_months', 'all_time'].map((t) =>
        Type.Literal(t),
      ),
    ),
  ),
});

const HistoryItem = Type.Object({
  scan_id: Type.String(),
  name: Type.String(),
  status: Type.String(),
  time: Type.String(),
  scan_time: Type.String(),
  severity: Type.Record(Type.String(), Type.Integer()),
  total_target: Type.Integer(),
  total_templates: Type.Integer(),
  total_request: Type.Integer(),
  completed_request: Type.Integer(),
  total_result: Type.Integer(),
  error_details: Type.Optional(Type.String()),
  rescan_count: Type.Integer({ description: 'which run of the scan (0 the first)' }),
});
const HistoryResponse = Type.Object({
  message: Type.String(),
  current_page: Type.Integer(),
  result_count: Type.Integer(),
  total_results: Type.Integer(),
  total_pages: Type.Integer(),
  data: Type.Array(HistoryItem),
  total_scan_run: Type.Integer(),
  total_unique_scan_run: Type.Integer(),
  total_completed_request: Type.Integer(),
});

const ExcludeType = Type.Union(settings.EXCLUDE_TYPES.map((t) => Type.Literal(t)));
const ExcludedTemplate = Type.Object({
  id: Type.Integer(),
  value: Type.String(),
  exclude_type: ExcludeType,
  scan_id: Type.Optional(Type.String()),
  enumeration_id: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

const SeverityBody = Type.Object({
  template_id: Type.String({ minLength: 1, maxLength: 1000 }),
  custom_severity: Type.String({ minLength: 1, maxLength: 20 }),
  vuln_id: Type.Optional(Type.String({ maxLength: 20 })),
});
const SeverityMapping = Type.Object({
  id: Type.Integer(),
  template_id: Type.String(),
  original_severity: Type.String(),
  custom_severity: Type.String(),
  vuln_id: Type.Optional(Type.String()),
  created_at: Type.String(),
  updated_at: Type.String(),
});

export const operationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['scans'];
  const ctags = ['configurations'];

  app.patch(
    '/v1/scans/:scan_id',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: "Rename a scan (the hosted platform's scan metadata)",
        params: ScanIdParams,
        body: Type.Object({ name: Type.String({ minLength: 1, maxLength: 500 }) }),
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await ops.renameScan(ctx, req.caller.teamId, req.params.scan_id, req.body.name);
      return { message: `scan ${req.params.scan_id} renamed` };
    },
  );

  app.delete(
    '/v1/scans',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Delete scans by id, with their results and logs (all of them, or none when one is not found)',
        body: Type.Object({
          scan_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems: 1000 }),
        }),
        response: {
          200: Type.Object({ message: Type.String(), ok: Type.Boolean() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      const n = await ops.deleteScans(ctx, req.caller.teamId, req.body.scan_ids);
      return { message: `${n} scan${n === 1 ? '' : 's'} deleted`, ok: true };
    },
  );

  app.patch(
    '/v1/scans/:scan_id/config',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: "Change a scan's settings for its next runs (lists appended to, or replaced with update_type=replace)",
        params: ScanIdParams,
        querystring: Type.Object({
          update_type: Type.Optional(
            Type.Union([Type.Literal('append'), Type.Literal('replace')], { default: 'append' }),
          ),
        }),
        body: ScanConfigUpdateItem,
        response: { 200: Type.Object({ ok: Type.Boolean() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await ops.updateScanConfig(ctx, req.caller.teamId, req.params.scan_id, req.body, req.query.update_type);
      return { ok: true };
    },
  );

  app.get(
    '/v1/scans/scan_ips',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'The addresses scans come from (VIGIL_SCAN_IPS, else this host’s interface addresses)',
        response: {
          200: Type.Object({ ips: Type.Array(Type.Object({ ip: Type.String() })) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => ops.scanIps(),
  );

  app.get(
    '/v1/scans/history',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: "Runs of the team's scans, newest first",
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ops.history(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/scans/:scan_id/history',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'Runs of one scan, newest first',
        params: ScanIdParams,
        querystring: HistoryQuery,
        response: { 200: HistoryResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ops.history(ctx, req.caller.teamId, req.query, req.params.scan_id),
  );

  // ---- exclusions ----

  app.get(
    '/v1/scans/config/exclude',
    {
      config: { action: 'configs:view' },
      schema: {
        tags: ctags,
        summary: 'Templates and targets the team’s scans skip',
        response: { 200: Type.Object({ data: Type.Array(ExcludedTemplate) }), ...errorResponses(401, 403) },
      },
    },
    async (req) => settings.listExcludes(ctx, req.caller.teamId),
  );

  app.post(
    '/v1/scans/config/exclude',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Add templates or targets every scan skips (or only the scans / enumerations named)',
        body: Type.Object({
          values: Type.Array(Type.String({ minLength: 1, maxLength: 4096 }), { minItems: 1, maxItems: 1000 }),
          exclude_type: ExcludeType,
          scan_ids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
          enumeration_ids: Type.Optional(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 })),
        }),
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await settings.addExcludes(ctx, req.caller.teamId, req.body);
      return { message: `${n} exclusion${n === 1 ? '' : 's'} added` };
    },
  );

  app.delete(
    '/v1/scans/config/exclude',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Delete exclusions by id',
        body: Type.Object({ ids: IdList }),
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await settings.deleteExcludes(ctx, req.caller.teamId, req.body.ids);
      return { message: `${n} exclusion${n === 1 ? '' : 's'} deleted` };
    },
  );

  // ---- severity overrides ----

  app.get(
    '/v1/scans/config/severity',
    {
      config: { action: 'configs:view' },
      schema: {
        tags: ctags,
        summary: 'Custom severities of templates (or single findings)',
        response: {
          200: Type.Object({ custom_severity_mappings: Type.Array(SeverityMapping) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => settings.listOverrides(ctx, req.caller.teamId),
  );

  app.post(
    '/v1/scans/config/severity',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: "Give a template's findings (or one finding, vuln_id) a custom severity",
        body: SeverityBody,
        response: {
          200: Type.Object({ id: Type.Integer(), message: Type.String() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({
      id: await settings.addOverride(ctx, req.caller.teamId, req.body),
      message: 'severity mapping saved and applied',
    }),
  );

  app.delete(
    '/v1/scans/config/severity',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Delete custom severities by id (the findings get their severity back)',
        body: Type.Object({ ids: IdList }),
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const n = await settings.deleteOverrides(ctx, req.caller.teamId, req.body.ids);
      return { message: `${n} severity mapping${n === 1 ? '' : 's'} deleted` };
    },
  );

  app.patch(
    '/v1/scans/config/:config_id/severity',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Change a custom severity',
        params: Type.Object({ config_id: Type.String({ minLength: 1, maxLength: 20 }) }),
        body: SeverityBody,
        response: { 200: Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await settings.changeOverride(ctx, req.caller.teamId, req.params.config_id, req.body);
      return { message: 'severity mapping updated and applied' };
    },
  );

  app.get(
    '/v2/vulnerability/:id/timeline',
    {
      config: { action: 'results:view' },
      schema: {
        tags: ['vulnerability'],
        summary: "A vulnerability's timeline for the team: template release and update, detections, state changes",
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }),
        querystring: Type.Object({
          event_type: Type.Optional(Type.String({ maxLength: 500, description: 'comma-separated event types' })),
        }),
        response: {
          200: Type.Object({
            template_released_at: Type.Optional(Type.String()),
            template_updated_at: Type.Optional(Type.String()),
            first_detected_at: Type.Optional(Type.String()),
            last_seen_at: Type.Optional(Type.String()),
            current_status: Type.Optional(Type.String()),
            events: Type.Array(
              Type.Object({
                timestamp: Type.String(),
                event_type: Type.String(),
                old_value: Type.Optional(Type.String()),
                new_value: Type.Optional(Type.String()),
                description: Type.Optional(Type.String()),
              }),
            ),
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => vulnTimeline(ctx, req.caller.teamId, req.params.id, req.query.event_type),
  );
};
