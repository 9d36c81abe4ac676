// /v1/scans/schedule (scan schedules) and /v1/scans/config (named configurations with their deliveries).
// These paths are static, so they win over the scans area's /v1/scans/{scan_id} routes whatever the order.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../errors.ts';
import * as schedules from './schedules.ts';
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
};
