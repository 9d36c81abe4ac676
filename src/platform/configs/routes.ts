// /v1/scans/config: named configurations (create, list, read, change, delete).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import * as configs from './service.ts';
import * as S from './schemas.ts';

export const configRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const ctags = ['configurations'];
  const { ConfigIdParams } = S;

  app.get(
    '/v1/scans/config',
    {
      config: { action: 'configs:view' },
      schema: {
        tags: ctags,
        summary: 'Configurations of the team (a bare array; the text only for those who may manage configs)',
        querystring: S.ConfigListQuery,
        response: { 200: Type.Array(S.ConfigRecord), ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => configs.listConfigs(ctx, req.caller, req.query),
  );

  app.post(
    '/v1/scans/config',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Add a configuration (YAML text checked against its type; see docs/configs.md)',
        body: S.CreateConfigBody,
        response: { 200: S.ConfigCreated, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => ({ message: 'config created', id: await configs.createConfig(ctx, req.caller, req.body) }),
  );

  app.get(
    '/v1/scans/config/:config_id',
    {
      config: { action: 'configs:view' },
      schema: {
        tags: ctags,
        summary: 'One configuration',
        params: ConfigIdParams,
        querystring: Type.Object({
          config_json: Type.Optional(Type.Boolean({ description: 'the config text as JSON instead of YAML' })),
        }),
        response: { 200: S.ConfigRecord, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => configs.getConfig(ctx, req.caller, req.params.config_id, req.query.config_json === true),
  );

  app.patch(
    '/v1/scans/config/:config_id',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Change a configuration (not a read-only one)',
        params: ConfigIdParams,
        body: S.PatchConfigBody,
        response: { 200: S.ConfigCreated, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await configs.updateConfig(ctx, req.caller, req.params.config_id, req.body);
      return { message: 'config updated', id: req.params.config_id };
    },
  );

  app.delete(
    '/v1/scans/config/:config_id',
    {
      config: { action: 'configs:manage' },
      schema: {
        tags: ctags,
        summary: 'Delete a configuration (not a read-only one)',
        params: ConfigIdParams,
        response: { 200: S.Message, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await configs.deleteConfig(ctx, req.caller, req.params.config_id);
      return { message: `config ${req.params.config_id} deleted` };
    },
  );
};
