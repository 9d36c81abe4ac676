// /v1/scans/schedule (scan schedules) and /v1/scans/config/{config_id}/deliveries (alerts and tickets sent
// for a config). The configs themselves are the configs area's (registered between these two, so routes
// keep their order). These paths are static, so they win over the scans area's /v1/scans/{scan_id} routes
// whatever the order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as schedules from './schedules.ts';
import * as enumerationSchedules from './enumeration-schedules.ts';
import { listDeliveries } from './deliveries.ts';
import { verifyConfig } from './verify.ts';
import * as S from './schemas.ts';
import { ConfigIdParams } from '../configs/schemas.ts';

export const scheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['scans'];

  app.post(
    '/v1/scans/schedule',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Set the schedule of a scan (times are UTC; see docs/schedules.md)',
        body: S.SetScheduleBody,
        response: { 200: S.Message, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      await schedules.setSchedule(ctx, req.caller.teamId, req.body);
      return { message: `schedule of scan ${req.body.scan_id} set` };
    },
  );

  app.post(
    '/v1/scans/schedule/check',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary:
          'Check a schedule before the scan exists (Vigil only): the same checks as setting one, nothing stored; answers its first run',
        body: S.CheckScheduleBody,
        response: { 200: S.ScheduleChecked, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      const c = schedules.checkSchedule({ ...req.body, scan_id: '' }, new Date());
      return { message: 'ok', schedule_next_run: c.nextRun.toISOString(), start_time: c.startTime };
    },
  );

  app.get(
    '/v1/scans/schedule',
    {
      config: { action: 'scans:view' },
      schema: {
        tags,
        summary: 'Scan schedules of the team',
        response: {
          200: Type.Object({ message: Type.String(), schedules: Type.Array(S.Schedule) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => ({ message: 'ok', schedules: await schedules.listSchedules(ctx, req.caller.teamId) }),
  );

  app.delete(
    '/v1/scans/schedule',
    {
      config: { action: 'scans:manage' },
      schema: {
        tags,
        summary: 'Remove the schedule of a scan',
        querystring: Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: S.Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await schedules.deleteSchedule(ctx, req.caller.teamId, req.query.scan_id);
      return { message: `schedule of scan ${req.query.scan_id} removed` };
    },
  );
};

export const deliveryRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const ctags = ['configurations'];

  app.get(
    '/v1/scans/config/:config_id/deliveries',
    {
      config: { action: 'configs:view' },
      schema: {
        tags: ctags,
        summary: 'Alerts and tickets sent for an alerting or reporting config, newest first, with attempts and errors',
        params: ConfigIdParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
        }),
        response: { 200: Type.Array(S.Delivery), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => listDeliveries(ctx, req.caller, req.params.config_id, req.query),
  );

  app.post(
    '/v1/scans/config/verify',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary:
          'Send a test: checks the config text; an alerting config sends one test alert, a reporting config reads its tracker project (nothing stored, no ticket opened)',
        body: S.VerifyConfigBody,
        response: { 200: S.VerifyConfigAnswer, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => verifyConfig(ctx, req.caller, req.body),
  );
};

/** /v1/enumeration/schedule: rescan schedules of enumerations (the assets area's), run by the monitor loop. */
export const enumerationScheduleRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['assets'];

  app.post(
    '/v1/enumeration/schedule',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Set the rescan schedule of an enumeration (times are UTC; frequencies as scan schedules)',
        body: S.SetEnumerationScheduleBody,
        response: { 200: S.Message, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => {
      await enumerationSchedules.setEnumerationSchedule(ctx, req.caller.teamId, req.body);
      return { message: `schedule of enumeration ${req.body.enumeration_id} set` };
    },
  );

  app.get(
    '/v1/enumeration/schedule',
    {
      config: { action: 'assets:view' },
      schema: {
        tags,
        summary: 'Enumeration rescan schedules of the team',
        response: {
          200: Type.Object({ message: Type.String(), schedules: Type.Array(S.EnumerationSchedule) }),
          ...errorResponses(401, 403),
        },
      },
    },
    async (req) => ({
      message: 'ok',
      schedules: await enumerationSchedules.listEnumerationSchedules(ctx, req.caller.teamId),
    }),
  );

  app.delete(
    '/v1/enumeration/schedule',
    {
      config: { action: 'assets:manage' },
      schema: {
        tags,
        summary: 'Remove the rescan schedule of an enumeration',
        querystring: Type.Object({ enumeration_id: Type.String({ minLength: 1, maxLength: 100 }) }),
        response: { 200: S.Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await enumerationSchedules.deleteEnumerationSchedule(ctx, req.caller.teamId, req.query.enumeration_id);
      return { message: `schedule of enumeration ${req.query.enumeration_id} removed` };
    },
  );
};
