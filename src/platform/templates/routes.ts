// /v1/template (a team's private templates), /v1/template/public/{id} and /v2/template/search.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../shared/errors.ts';
import { Facets, TemplateRecord } from './schemas.ts';
import { searchTemplates } from './search.ts';
import * as service from './service.ts';

// Bounds of what users send: a template's text, and the names stored (and indexed) with it.
const TemplateText = Type.String({ maxLength: 1024 * 1024, description: 'template text (YAML), at most 1 MiB' });
const Filename = Type.String({ maxLength: 255 });
const Dir = Type.String({ maxLength: 1024 });

const tags = ['templates'];
const Issue = Type.Object({
  message: Type.String(), field: Type.String({ description: 'the field the problem is about, as http[0].matchers[1].type; empty for the whole text' }),
  line: Type.Optional(Type.Integer({ description: '1-based line in the text' })), column: Type.Optional(Type.Integer()),
});
const Paging = {
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  fields: Type.Optional(Type.String({ description: 'comma-separated Template record fields to return' })),
};
const TemplateId = Type.Object({ template_id: Type.String({ minLength: 1 }) });
const Created = Type.Object({
  message: Type.String(), template_id: Type.String(), template_name: Type.String(), template: Type.Optional(TemplateRecord),
});

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;

  app.get('/v2/template/search', {
    config: { action: 'templates:view' },
    schema: {
      tags: ['template/v2'],
      summary: 'Search templates with filtering, sorting and facets',
      description:
        'q: free words (id, name, description, tags, author, vendor, product) and field:value filters ' +
        '(severity, tags, author, type, dir, vendor, product, is_new, is_early, template_type, cve, id), ANDed; ' +
        'a comma in a value means any of; -field:value negates.',
      querystring: Type.Object({
        scope: Type.Optional(Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('public_private')], { default: 'public_private' })),
        limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 50 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
        fields: Paging.fields,
        sort_asc: Type.Optional(Type.String({ description: 'comma-separated fields to sort ascending' })),
        sort_desc: Type.Optional(Type.String({ description: 'comma-separated fields to sort descending' })),
        q: Type.Optional(Type.String({ maxLength: 2000 })),
        highlight: Type.Optional(Type.Boolean({ default: false, description: 'wrap matched words of name and description in <em></em>' })),
        facet_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 5 })),
      }),
      response: {
        200: Type.Object({
          results: Type.Array(TemplateRecord), total: Type.Integer(), count: Type.Integer(), facets: Facets, message: Type.String(),
        }),
        ...errorResponses(400, 401, 403),
      },
    },
  }, async (req) => searchTemplates(db, req.caller.teamId, req.query));

  app.get('/v1/template', {
    config: { action: 'templates:view' },
    schema: {
      tags, summary: "The team's private templates",
      querystring: Type.Object(Paging),
      response: {
        200: Type.Object({ results: Type.Array(TemplateRecord), message: Type.String(), count: Type.Integer(), total: Type.Integer() }),
        ...errorResponses(400, 401, 403),
      },
    },
  }, async (req) => service.listPrivate(db, req.caller.teamId, req.query));

  app.post('/v1/template', {
    config: { action: 'templates:manage' },
    schema: {
      tags, summary: 'Create a private template (the content must be a valid template)',
      // filename and dir are accepted in the body or, as in the reference, in the query.
      querystring: Type.Object({ filename: Type.Optional(Filename), dir: Type.Optional(Dir) }),
      body: Type.Object({
        template: TemplateText,
        filename: Type.Optional(Filename),
        dir: Type.Optional(Dir),
        prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
      }),
      response: { 200: Created, ...errorResponses(400, 401, 403) },
    },
  }, async (req) => {
    const template = await service.createPrivate(db, req.caller.teamId, {
      ...req.body, filename: req.body.filename ?? req.query.filename, dir: req.body.dir ?? req.query.dir,
    });
    return { message: 'template created', template_id: template.template_id as string, template_name: template.name as string, template };
  });

  app.post('/v1/template/validate', {
    config: { action: 'templates:manage' },
    schema: {
      tags, summary: "Check template text with the validator: each problem with its field and line (the console's editor uses it)",
      body: Type.Object({ template: TemplateText }),
      response: {
        200: Type.Object({
          message: Type.String(), valid: Type.Boolean(),
          errors: Type.Array(Issue), warnings: Type.Array(Issue),
        }),
        ...errorResponses(400, 401, 403),
      },
    },
  }, async (req) => {
    const out = service.checkTemplate(req.body.template);
    return { message: out.valid ? 'valid template' : `${out.errors.length} problem(s)`, ...out };
  });

  app.patch('/v1/template', {
    config: { action: 'templates:manage' },
    schema: {
      tags, summary: 'Update a private template of the team',
      body: Type.Object({
        template: TemplateText,
        template_id: Type.String({ minLength: 1, maxLength: 200 }),
        prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
        filename: Type.Optional(Filename),
        dir: Type.Optional(Dir),
      }),
      response: {
        200: Type.Object({
          message: Type.String(), template_id: Type.String(), template_name: Type.String(), status: Type.Boolean(), template: TemplateRecord,
        }),
        ...errorResponses(400, 401, 403, 404),
      },
    },
  }, async (req) => {
    const { template_id, template: text, ...rest } = req.body;
    const template = await service.updatePrivate(db, req.caller.teamId, template_id, { template: text, ...rest });
    return { message: 'template updated', template_id, template_name: template.name as string, status: true, template };
  });

  app.get('/v1/template/:template_id', {
    config: { action: 'templates:view' },
    schema: {
      tags, summary: 'A private template of the team',
      params: TemplateId,
      querystring: Type.Object({ fields: Paging.fields }),
      response: { 200: Type.Object({ message: Type.String(), template: TemplateRecord }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => ({ message: 'ok', template: await service.getPrivate(db, req.caller.teamId, req.params.template_id, req.query.fields) }));

  app.delete('/v1/template/:template_id', {
    config: { action: 'templates:manage' },
    schema: {
      tags, summary: 'Delete a private template of the team',
      params: TemplateId,
      response: { 200: Type.Object({ message: Type.String(), status: Type.Boolean() }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => {
    await service.deletePrivate(db, req.caller.teamId, req.params.template_id);
    return { message: `template ${req.params.template_id} deleted`, status: true };
  });

  app.get('/v1/template/public/:template_id', {
    config: { action: 'templates:view' },
    schema: {
      tags, summary: 'A public catalogue template by id (or catalogue path)',
      params: TemplateId,
      querystring: Type.Object({ fields: Paging.fields }),
      response: { 200: Type.Object({ message: Type.String(), template: TemplateRecord }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (req) => ({ message: 'ok', template: await service.getPublic(db, req.params.template_id, req.query.fields) }));
};
