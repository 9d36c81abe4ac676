// /v1/asset/...: enumerations (create, list, get, update, delete, contents, rescan), the inventory's
// change history, and asset policies with their events.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, MessageBody } from '../shared/errors.ts';
import * as assets from './service.ts';
import * as policies from './policies.ts';
import * as S from './schemas.ts';
import * as labels from './labels.ts';
import * as groups from './groups.ts';
import * as enumerationOps from './enumeration-ops.ts';
import * as exportsOf from './exports.ts';
import * as insights from './insights.ts';
import { sendExport } from '../shared/export-file.ts';
import './targets.ts'; // provides the inventory to the scans area (scans over assets)

const tags = ['assets'];
const OkId = Type.Object({ message: Type.String(), id: Type.String() });

export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/v1/asset/enumerate',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Create an enumeration (runs on the workers)',
        body: S.CreateEnumerationBody,
        response: { 200: S.CreateEnumerationResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ ...(await assets.createEnumeration(ctx, req.caller, req.body)), 'truncated-scan-targets': 0 }),
  );

  app.get(
    '/v1/asset/enumerate',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'List enumerations',
        querystring: S.EnumerationListQuery,
        response: { 200: S.Page(S.EnumerateData), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => assets.listEnumerations(ctx, req.caller.teamId, req.query),
  );

  app.delete(
    '/v1/asset/enumerate',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Delete enumerations (by id) and single assets (by their whole-number ids) in bulk',
        body: S.BulkDeleteBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => ({ message: await enumerationOps.deleteInBulk(ctx, req.caller.teamId, req.body.asset_ids) }),
  );

  app.get(
    '/v1/asset/enumerate/misconfiguration',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary:
          'Risky things discovery saw: expired, mismatched or self-signed certificates, directory listings, exposed panels, open database ports',
        querystring: S.MisconfigurationQuery,
        response: { 200: S.Page(S.Misconfiguration), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => insights.listMisconfigurations(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/asset/policy/suggestion',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary:
          'Asset policies proposed from patterns in the inventory (repeated pages, shared addresses, panels, databases)',
        querystring: S.SuggestionQuery,
        response: {
          200: Type.Object({
            message: Type.String(),
            suggestions: Type.Array(S.PolicySuggestion),
            total: Type.Integer(),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => insights.policySuggestions(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/asset/enumerate/export',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Export the assets of every enumeration (filters as the contents list; raw, json or csv; streamed)',
        querystring: S.ExportQuery,
        response: { ...errorResponses(400, 401, 403) },
      },
    },
    async (req, reply) =>
      sendExport(reply, await exportsOf.inventoryExport(ctx, req.caller.teamId, undefined, req.query)),
  );

  app.get(
    '/v1/asset/enumerate/:enum_id/export',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Export the assets of an enumeration (filters as the contents list; raw, json or csv; streamed)',
        params: Type.Object({ enum_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: S.ExportQuery,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      sendExport(reply, await exportsOf.inventoryExport(ctx, req.caller.teamId, req.params.enum_id, req.query)),
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id/domains/export',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Export the unique input domains of an enumeration (raw, json or csv)',
        params: S.EnumerateIdParams,
        querystring: S.DomainsExportQuery,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) =>
      sendExport(reply, await exportsOf.domainsExport(ctx, req.caller.teamId, req.params.enumerate_id, req.query)),
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id/config',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: "An enumeration's launch configuration (what its next run uses)",
        params: S.EnumerateIdParams,
        response: { 200: S.EnumerationConfigShown, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => enumerationOps.getConfig(ctx, req.caller.teamId, req.params.enumerate_id),
  );

  app.patch(
    '/v1/asset/enumerate/:enumerate_id/config',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary:
          "Change an enumeration's launch configuration (update_type append, the default, adds to lists; replace sets)",
        params: S.EnumerateIdParams,
        querystring: S.ConfigUpdateQuery,
        body: S.EnumerationConfigDoc,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await enumerationOps.patchConfig(
        ctx,
        req.caller.teamId,
        req.params.enumerate_id,
        req.body,
        req.query.update_type,
      );
      return { message: 'enumeration config updated' };
    },
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id/history',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'The runs of an enumeration, newest first',
        params: S.EnumerateIdParams,
        querystring: S.HistoryQuery,
        response: { 200: S.HistoryPage, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => enumerationOps.history(ctx, req.caller.teamId, req.params.enumerate_id, req.query),
  );

  app.get(
    '/v1/asset/enumerate/contents',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Assets of every enumeration of the team, filtered',
        querystring: S.ContentsQuery,
        response: { 200: S.Page(S.EnumerationContent), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => assets.listContents(ctx, req.caller.teamId, undefined, req.query),
  );

  app.patch(
    '/v1/asset/labels',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Add (append), set (replace) or remove (delete) labels on every current asset the filters match',
        querystring: S.LabelUpdateQuery,
        body: S.LabelsByFilterBody,
        response: { 200: S.LabelsByFilterResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => labels.labelByFilter(ctx, req.caller.teamId, req.body, req.query.update_type),
  );

  app.post(
    '/v1/asset/:asset_id/labels',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Add labels to an asset',
        params: S.AssetIdParams,
        body: S.AssetLabelsBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await labels.labelAsset(ctx, req.caller.teamId, req.params.asset_id, req.body.labels, 'append');
      return { message: 'labels added' };
    },
  );

  app.patch(
    '/v1/asset/:asset_id/labels',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: "Change an asset's labels (update_type append, the default; replace; delete)",
        params: S.AssetIdParams,
        querystring: S.LabelUpdateQuery,
        body: S.AssetLabelsBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      const mode = labels.labelModeOf(req.query.update_type);
      await labels.labelAsset(ctx, req.caller.teamId, req.params.asset_id, req.body.labels, mode);
      return { message: 'labels updated' };
    },
  );

  app.delete(
    '/v1/asset/:asset_id/labels',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Remove every label of an asset',
        params: S.AssetIdParams,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await labels.labelAsset(ctx, req.caller.teamId, req.params.asset_id, [], 'replace');
      return { message: 'labels removed' };
    },
  );

  app.post(
    '/v1/asset/enumerate/group',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Create an asset group (by filter, or static) that scans can target by its id in `assets`',
        body: S.GroupBody,
        response: { 200: Type.Object({ id: Type.String() }), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => groups.createGroup(ctx, req.caller, req.body),
  );

  app.get(
    '/v1/asset/enumerate/group',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Asset groups of the team (Vigil)',
        querystring: S.PagingQuery,
        response: { 200: S.Page(S.AssetGroup), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => groups.listGroups(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/asset/enumerate/group/:group_id',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'An asset group (Vigil)',
        params: S.GroupIdParams,
        response: {
          200: Type.Object({ message: Type.String(), data: S.AssetGroup }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => groups.getGroup(ctx, req.caller.teamId, req.params.group_id),
  );

  app.patch(
    '/v1/asset/enumerate/group/:group_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Update an asset group (update_type append, the default, merges the filters; replace overwrites)',
        params: S.GroupIdParams,
        querystring: S.GroupUpdateQuery,
        body: S.GroupBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await groups.updateGroup(ctx, req.caller.teamId, req.params.group_id, req.body, req.query.update_type);
      return { message: 'asset group updated' };
    },
  );

  app.delete(
    '/v1/asset/enumerate/group/:group_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Delete an asset group (its assets stay)',
        params: S.GroupIdParams,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await groups.deleteGroup(ctx, req.caller.teamId, req.params.group_id);
      return { message: 'asset group deleted' };
    },
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Get an enumeration',
        params: S.EnumerateIdParams,
        response: {
          200: Type.Object({ message: Type.String(), data: S.EnumerateData }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => assets.getEnumeration(ctx, req.caller.teamId, req.params.enumerate_id),
  );

  app.patch(
    '/v1/asset/enumerate/:enumerate_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Update an enumeration (applies from its next run)',
        params: S.EnumerateIdParams,
        body: S.UpdateEnumerationBody,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await assets.updateEnumeration(ctx, req.caller.teamId, req.params.enumerate_id, req.body);
      return { message: 'enumeration updated' };
    },
  );

  app.delete(
    '/v1/asset/enumerate/:enumerate_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Delete an enumeration and its assets',
        params: S.EnumerateIdParams,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await assets.deleteEnumeration(ctx, req.caller.teamId, req.params.enumerate_id);
      return { message: 'enumeration deleted' };
    },
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id/contents',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Assets of an enumeration, filtered (AssetFilters as query parameters)',
        params: S.EnumerateIdParams,
        querystring: S.ContentsQuery,
        response: { 200: S.Page(S.EnumerationContent), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => assets.listContents(ctx, req.caller.teamId, req.params.enumerate_id, req.query),
  );

  app.post(
    '/v1/asset/enumerate/:enumerate_id/rescan',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: "Run an enumeration again (changes are written to the assets' history)",
        params: S.EnumerateIdParams,
        response: { 200: S.CreateEnumerationResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (req) => ({
      ...(await assets.rescanEnumeration(ctx, req.caller.teamId, req.params.enumerate_id)),
      'truncated-scan-targets': 0,
    }),
  );

  app.get(
    '/v1/asset/enumerate/:enumerate_id/changelogs',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'What each run of an enumeration changed: the change history of all its assets (newest run first)',
        params: S.EnumerateIdParams,
        querystring: S.EnumerationChangelogQuery,
        response: { 200: S.Page(S.EnumerationChangelogRecord), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => assets.listEnumerationChangelogs(ctx, req.caller.teamId, req.params.enumerate_id, req.query),
  );

  app.get(
    '/v1/asset/:asset_id/changelogs',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Change history of an asset',
        params: S.AssetIdParams,
        querystring: S.ChangelogQuery,
        response: { 200: S.Page(S.ChangelogRecord), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => assets.listChangelogs(ctx, req.caller.teamId, req.params.asset_id, req.query),
  );

  app.get(
    '/v1/asset/:asset_id/screenshot',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'The PNG http_screenshot took of a web asset',
        params: S.AssetIdParams,
        response: { ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req, reply) => {
      const png = await assets.screenshot(ctx, req.caller.teamId, req.params.asset_id);
      reply.header('content-type', 'image/png');
      reply.header('cache-control', 'private, no-store');
      return reply.send(png);
    },
  );

  app.post(
    '/v1/asset/policy',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Create an asset policy',
        body: S.PolicyBody,
        response: { 200: OkId, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'policy created', ...(await policies.createPolicy(ctx, req.caller, req.body)) }),
  );

  app.get(
    '/v1/asset/policy',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'List asset policies',
        querystring: S.PagingQuery,
        response: {
          200: Type.Object({ policies: Type.Array(S.AssetPolicy), total: Type.Integer(), message: Type.String() }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => policies.listPolicies(ctx, req.caller.teamId, req.query),
  );

  app.get(
    '/v1/asset/policy/:policy_id',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Get an asset policy',
        params: S.PolicyIdParams,
        response: {
          200: Type.Object({ data: S.AssetPolicy, message: Type.String() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => policies.getPolicy(ctx, req.caller.teamId, req.params.policy_id),
  );

  app.patch(
    '/v1/asset/policy/:policy_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Update an asset policy (update_type append, the default, merges lists; replace overwrites)',
        params: S.PolicyIdParams,
        querystring: Type.Object({
          update_type: Type.Optional(Type.Union([Type.Literal('append'), Type.Literal('replace')])),
        }),
        body: S.UpdatePolicyBody,
        response: { 200: OkId, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await policies.updatePolicy(ctx, req.caller.teamId, req.params.policy_id, req.body, req.query.update_type);
      return { message: 'policy updated', id: req.params.policy_id };
    },
  );

  app.delete(
    '/v1/asset/policy/:policy_id',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Delete an asset policy',
        params: S.PolicyIdParams,
        response: { 200: MessageBody, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await policies.deletePolicy(ctx, req.caller.teamId, req.params.policy_id);
      return { message: 'policy deleted' };
    },
  );

  app.get(
    '/v1/asset/policy/:policy_id/events',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Actions an asset policy took',
        params: S.PolicyIdParams,
        querystring: S.PagingQuery,
        response: {
          200: Type.Object({
            data: Type.Object({ events: Type.Array(S.ActivityEvent) }),
            total: Type.Integer(),
            limit: Type.Integer(),
            offset: Type.Integer(),
            message: Type.String(),
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => policies.listPolicyEvents(ctx, req.caller.teamId, req.params.policy_id, req.query),
  );
};
