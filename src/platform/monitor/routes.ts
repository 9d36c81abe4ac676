// /v1/scans/schedule (scan schedules) and /v1/scans/config (named configurations with their deliveries).
// These paths are static, so they win over the scans area's /v1/scans/{scan_id} routes whatever the order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as schedules from './schedules.ts';
import * as configs from './configs.ts';
import { listDeliveries } from './deliveries.ts';
import * as S from './schemas.ts';

export const monitorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['scans'];

  app.post('/v1/scans/schedule', {
    config: { action: 'scans:manage' },
    schema: {
      tags, summary: 'Set the schedule of a scan (times are UTC; see docs/schedules.md)', body: S.SetScheduleBody,
      response: { 200: S.Message, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    await schedules.setSchedule(ctx, req.caller.teamId, req.body);
    return { message: `schedule of scan ${req.body.scan_id} set` };
  });

  app.get('/v1/scans/schedule', {
    config: { action: 'scans:view' },
    schema: {
      tags, summary: 'Scan schedules of the team',
      response: { 200: Type.Object({ message: Type.String(), schedules: Type.Array(S.Schedule) }), ...errorResponses(401, 403) },
    },
  }, async (req) => ({ message: 'ok', schedules: await schedules.listSchedules(ctx, req.caller.teamId) }));

  app.delete('/v1/scans/schedule', {
    config: { action: 'scans:manage' },
    schema: {
      tags, summary: 'Remove the schedule of a scan', querystring: Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 100 }) }),
      response: { 200: S.Message, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    await schedules.deleteSchedule(ctx, req.caller.teamId, req.query.scan_id);
    return { message: `schedule of scan ${req.query.scan_id} removed` };
  });

  const ctags = ['configurations'];
  const ConfigIdParams = Type.Object({ config_id: Type.String({ minLength: 1, maxLength: 100 }) });

  app.get('/v1/scans/config', {
    config: { action: 'configs:view' },
    schema: {
      tags: ctags, summary: 'Configurations of the team (a bare array; the text only for those who may manage configs)',
      querystring: S.ConfigListQuery,
      response: { 200: Type.Array(S.ConfigRecord), ...errorResponses(400, 401, 403) },
    },
  }, async (req) => configs.listConfigs(ctx, req.caller, req.query));

  app.post('/v1/scans/config', {
    config: { action: 'configs:manage' },
    schema: {
      tags: ctags, summary: 'Add a configuration (YAML text checked against its type; see docs/configs.md)', body: S.CreateConfigBody,
      response: { 200: S.ConfigCreated, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => ({ message: 'config created', id: await configs.createConfig(ctx, req.caller, req.body) }));

  app.get('/v1/scans/config/:config_id', {
    config: { action: 'configs:view' },
    schema: {
      tags: ctags, summary: 'One configuration', params: ConfigIdParams,
      querystring: Type.Object({ config_json: Type.Optional(Type.Boolean({ description: 'the config text as JSON instead of YAML' })) }),
      response: { 200: S.ConfigRecord, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => configs.getConfig(ctx, req.caller, req.params.config_id, req.query.config_json === true));

  app.patch('/v1/scans/config/:config_id', {
    config: { action: 'configs:manage' },
    schema: {
      tags: ctags, summary: 'Change a configuration (not a read-only one)', params: ConfigIdParams, body: S.PatchConfigBody,
      response: { 200: S.ConfigCreated, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    await configs.updateConfig(ctx, req.caller, req.params.config_id, req.body);
    return { message: 'config updated', id: req.params.config_id };
  });

  app.delete('/v1/scans/config/:config_id', {
    config: { action: 'configs:manage' },
    schema: {
      tags: ctags, summary: 'Delete a configuration (not a read-only one)', params: ConfigIdParams,
      response: { 200: S.Message, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    await configs.deleteConfig(ctx, req.caller, req.params.config_id);
    return { message: `config ${req.params.config_id} deleted` };
  });

  app.get('/v1/scans/config/:config_id/deliveries', {
    config: { action: 'configs:view' },
    schema: {
      tags: ctags, summary: 'Alerts and tickets sent for an alerting or reporting config, newest first, with attempts and errors',
      params: ConfigIdParams,
      querystring: Type.Object({
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
      }),
      response: { 200: Type.Array(S.Delivery), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => listDeliveries(ctx, req.caller, req.params.config_id, req.query));
};
