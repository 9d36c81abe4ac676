// /v1/template (a team's private templates), the public catalogue (/v1/template/public, its early-access set
// /v1/template/early, its scan profiles /v1/template/profiles), sharing by link (/v1/template/share),
// /v2/template/search, and POST /v1/template/ai (hosted platform only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses, hostedOnly } from '../shared/errors.ts';
import { TemplateRecord, TemplateSearchAnswer } from './schemas.ts';
import { searchTemplates, searchTemplatesJson, templateRecordsOn } from './search.ts';
import * as service from './service.ts';
import * as profiles from './profile-service.ts';

// Bounds of what users send: a template's text, and the names stored (and indexed) with it.
const TemplateText = Type.String({ maxLength: 1024 * 1024, description: 'template text (YAML), at most 1 MiB' });
const Filename = Type.String({ maxLength: 255 });
const Dir = Type.String({ maxLength: 1024 });

const tags = ['templates'];
const Issue = Type.Object({
  message: Type.String(),
  field: Type.String({
    description: 'the field the problem is about, as http[0].matchers[1].type; empty for the whole text',
  }),
  line: Type.Optional(Type.Integer({ description: '1-based line in the text' })),
  column: Type.Optional(Type.Integer()),
});
const Paging = {
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  fields: Type.Optional(Type.String({ description: 'comma-separated Template record fields to return' })),
};
const Selectors = Type.Record(Type.String(), Type.Union([Type.Array(Type.String()), Type.Boolean()]), {
  description: 'the supported keys of the profile as written (lists lower-cased, except paths; code: a boolean)',
});
const Profile = Type.Object(
  {
    name: Type.String({ description: 'file name without extension, as `nuclei -profile NAME`' }),
    file: Type.String({ description: 'catalogue path of the profile file' }),
    description: Type.Union([Type.String(), Type.Null()], { description: "the file's leading comment" }),
    selectors: Selectors,
    unsupported: Type.Array(Type.String(), { description: 'keys of the file that Vigil does not apply' }),
    template_count: Type.Integer({ description: 'public catalogue templates (not early access) it selects' }),
  },
  { title: 'TemplateProfile' },
);
const TemplateId = Type.Object({ template_id: Type.String({ minLength: 1 }) });
const Created = Type.Object({
  message: Type.String(),
  template_id: Type.String(),
  template_name: Type.String(),
  template: Type.Optional(TemplateRecord),
});

const List = Type.Object({
  results: Type.Array(TemplateRecord),
  message: Type.String(),
  count: Type.Integer(),
  total: Type.Integer(),
});
const Strs = Type.Array(Type.String({ maxLength: 320 }), { maxItems: 100 });
const ShareType = Type.Union([Type.Literal('unlisted'), Type.Literal('organization'), Type.Literal('users')], {
  description: 'only unlisted (anyone with the link) is available here; organization and users answer 400',
});
const Ttl = Type.String({
  maxLength: 20,
  description: 'how long the link works, from now: 30m, 12h, 7d, 2w (m is minutes); default 7d, at most 365d',
});
const ShareMeta = Type.Object(
  {
    template_id: Type.String(),
    share_type: Type.String(),
    ttl: Type.String(),
    expires_at: Type.String({ format: 'date-time' }),
    organizations: Type.Array(Type.String()),
    users_email: Type.Array(Type.String()),
  },
  { title: 'SharedTemplateMetaData' },
);
const SharedTemplate = Type.Object(
  {
    ...TemplateRecord.properties,
    share_type: Type.Optional(Type.String()),
    ttl: Type.Optional(Type.String()),
    expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'when the link stops working' })),
    users_email: Type.Optional(Type.Array(Type.String())),
    organizations: Type.Optional(Type.Array(Type.String())),
  },
  { title: 'SharedTemplate' },
);

export const templateRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const db = app.ctx.db;

  app.get(
    '/v2/template/search',
    {
      config: { action: 'templates:view' },
      schema: {
        tags: ['template/v2'],
        summary: 'Search templates with filtering, sorting and facets',
        description:
          'q: free words (id, name, description, tags, author, vendor, product) and field:value filters ' +
          '(severity, tags, author, type, dir, vendor, product, is_new, is_early, template_type, cve, id), ANDed; ' +
          'a comma in a value means any of; -field:value negates.',
        querystring: Type.Object({
          scope: Type.Optional(
            Type.Union([Type.Literal('public'), Type.Literal('private'), Type.Literal('public_private')], {
              default: 'public_private',
            }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 50 })),
          offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
          fields: Paging.fields,
          sort_asc: Type.Optional(Type.String({ description: 'comma-separated fields to sort ascending' })),
          sort_desc: Type.Optional(Type.String({ description: 'comma-separated fields to sort descending' })),
          q: Type.Optional(Type.String({ maxLength: 2000 })),
          highlight: Type.Optional(
            Type.Boolean({ default: false, description: 'wrap matched words of name and description in <em></em>' }),
          ),
          facet_size: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 5 })),
        }),
        response: {
          200: TemplateSearchAnswer,
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req, reply) => {
      // The records come as the stored JSON texts (record-json.ts), the rest as this schema says; with
      // VIGIL_TEMPLATE_RECORDS=off the answer is built from the columns and serialized here (the same bytes).
      if (!templateRecordsOn()) return searchTemplates(db, req.caller.teamId, req.query);
      const text = await searchTemplatesJson(db, req.caller.teamId, req.query);
      // (The type provider types send() as the schema's object; the text is that object serialized.)
      return reply.type('application/json; charset=utf-8').send(text as never);
    },
  );

  app.get(
    '/v1/template',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: "The team's private templates",
        querystring: Type.Object(Paging),
        response: {
          200: Type.Object({
            results: Type.Array(TemplateRecord),
            message: Type.String(),
            count: Type.Integer(),
            total: Type.Integer(),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => service.listPrivate(db, req.caller.teamId, req.query),
  );

  app.post(
    '/v1/template',
    {
      config: { action: 'templates:manage' },
      schema: {
        tags,
        summary: 'Create a private template (the content must be a valid template)',
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
    },
    async (req) => {
      const template = await service.createPrivate(db, req.caller.teamId, {
        ...req.body,
        filename: req.body.filename ?? req.query.filename,
        dir: req.body.dir ?? req.query.dir,
      });
      return {
        message: 'template created',
        template_id: template.template_id as string,
        template_name: template.name as string,
        template,
      };
    },
  );

  app.post(
    '/v1/template/validate',
    {
      config: { action: 'templates:manage' },
      schema: {
        tags,
        summary:
          "Check template text with the validator: each problem with its field and line (the console's editor uses it)",
        body: Type.Object({ template: TemplateText }),
        response: {
          200: Type.Object({
            message: Type.String(),
            valid: Type.Boolean(),
            errors: Type.Array(Issue),
            warnings: Type.Array(Issue),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => {
      const out = service.checkTemplate(req.body.template);
      return { message: out.valid ? 'valid template' : `${out.errors.length} problem(s)`, ...out };
    },
  );

  app.patch(
    '/v1/template',
    {
      config: { action: 'templates:manage' },
      schema: {
        tags,
        summary: 'Update a private template of the team',
        body: Type.Object({
          template: TemplateText,
          template_id: Type.String({ minLength: 1, maxLength: 200 }),
          prompt: Type.Optional(Type.String({ maxLength: 10_000 })),
          filename: Type.Optional(Filename),
          dir: Type.Optional(Dir),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            template_id: Type.String(),
            template_name: Type.String(),
            status: Type.Boolean(),
            template: TemplateRecord,
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      const { template_id, template: text, ...rest } = req.body;
      const template = await service.updatePrivate(db, req.caller.teamId, template_id, { template: text, ...rest });
      return {
        message: 'template updated',
        template_id,
        template_name: template.name as string,
        status: true,
        template,
      };
    },
  );

  app.get(
    '/v1/template/:template_id',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'A private template of the team',
        params: TemplateId,
        querystring: Type.Object({ fields: Paging.fields }),
        response: {
          200: Type.Object({ message: Type.String(), template: TemplateRecord }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({
      message: 'ok',
      template: await service.getPrivate(db, req.caller.teamId, req.params.template_id, req.query.fields),
    }),
  );

  app.delete(
    '/v1/template/:template_id',
    {
      config: { action: 'templates:manage' },
      schema: {
        tags,
        summary: 'Delete a private template of the team',
        params: TemplateId,
        response: {
          200: Type.Object({ message: Type.String(), status: Type.Boolean() }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => {
      await service.deletePrivate(db, req.caller.teamId, req.params.template_id);
      return { message: `template ${req.params.template_id} deleted`, status: true };
    },
  );

  // Vigil's own (the hosted platform has no profiles operation): nuclei-templates' profiles/*.yml.
  app.get(
    '/v1/template/profiles',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: "The catalogue's scan profiles (profiles/*.yml) with the number of templates each selects",
        description:
          "Vigil's own operation. Profiles are kept by `vigil templates import` from the checkout's profiles/ " +
          'folder; a profile selects public catalogue templates by tags, include-tags, exclude-tags, severity, ' +
          'exclude-severity, type, exclude-type, author, template-id, exclude-id, templates, exclude-templates ' +
          'and code, as nuclei does; other keys (such as var) are listed in `unsupported` and not applied.',
        response: {
          200: Type.Object({ message: Type.String(), results: Type.Array(Profile), count: Type.Integer() }),
          ...errorResponses(401, 403),
        },
      },
    },
    async () => profiles.listProfiles(db),
  );

  app.get(
    '/v1/template/profiles/:name',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'A scan profile resolved to the catalogue templates it selects (paths, as POST /v1/scans takes)',
        description: "Vigil's own operation; see GET /v1/template/profiles.",
        params: Type.Object({
          name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9][A-Za-z0-9._-]*$' }),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            profile: Profile,
            templates: Type.Array(Type.String(), { description: 'catalogue paths of the selected templates' }),
            template_ids: Type.Array(Type.String(), { description: 'their template ids, in the same order' }),
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => profiles.resolveProfile(db, req.params.name),
  );

  app.get(
    '/v1/template/public/:template_id',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'A public catalogue template by id (or catalogue path)',
        params: TemplateId,
        querystring: Type.Object({ fields: Paging.fields }),
        response: {
          200: Type.Object({ message: Type.String(), template: TemplateRecord }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({ message: 'ok', template: await service.getPublic(db, req.params.template_id, req.query.fields) }),
  );

  app.get(
    '/v1/template/public',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'The public catalogue as a list, by path (early-access templates are in /v1/template/early)',
        querystring: Type.Object(Paging),
        response: { 200: List, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => service.listPublic(db, false, req.query),
  );

  app.get(
    '/v1/template/early',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'Early-access templates: the set imported with `vigil templates import DIR --early`, by path',
        description:
          'The release feed (`vigil templates update`) has no early-access set; the list is empty until one is imported.',
        querystring: Type.Object(Paging),
        response: { 200: List, ...errorResponses(400, 401, 403) },
      },
    },
    async (req) => service.listPublic(db, true, req.query),
  );

  app.get(
    '/v1/template/early/:id',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: 'An early-access template by id (or catalogue path)',
        params: Type.Object({ id: Type.String({ minLength: 1 }) }),
        querystring: Type.Object({ fields: Paging.fields }),
        response: {
          200: Type.Object({ message: Type.String(), template: TemplateRecord }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({ message: 'ok', template: await service.getEarly(db, req.params.id, req.query.fields) }),
  );

  app.get(
    '/v1/template/share',
    {
      config: { action: 'templates:view' },
      schema: {
        tags,
        summary: "The team's shared templates with each link's type, ttl and expiry (never the link itself)",
        querystring: Type.Object({
          ...Paging,
          sort_asc: Type.Optional(
            Type.String({
              maxLength: 200,
              description: 'comma-separated: created_at, updated_at, expires_at, name, template_id',
            }),
          ),
          sort_desc: Type.Optional(Type.String({ maxLength: 200 })),
        }),
        response: {
          200: Type.Object({
            results: Type.Array(SharedTemplate),
            message: Type.String(),
            count: Type.Integer(),
            total: Type.Integer(),
          }),
          ...errorResponses(400, 401, 403),
        },
      },
    },
    async (req) => service.listShares(db, req.caller.teamId, req.query),
  );

  app.post(
    '/v1/template/share',
    {
      config: { action: 'templates:share' },
      schema: {
        tags,
        summary:
          'Share a private template read-only by link; the answer shows the link once (sharing again replaces it)',
        body: Type.Object({
          template_id: Type.String({ minLength: 1, maxLength: 200 }),
          share_type: Type.Optional(ShareType),
          ttl: Type.Optional(Ttl),
          organizations: Type.Optional(Strs),
          emails: Type.Optional(Strs),
        }),
        response: {
          200: Type.Object({
            message: Type.String(),
            result: Type.Object({
              ...ShareMeta.properties,
              share_token: Type.String({
                description: 'the credential of the link; stored only as a hash, shown only in this answer',
              }),
              share_path: Type.String({
                description: 'GET this path (on this server) to read the template; no API key needed',
              }),
            }),
          }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({
      message: 'template shared: keep the link, it is not shown again',
      result: await service.shareTemplate(db, req.caller.teamId, req.body),
    }),
  );

  app.get(
    '/v1/template/share/:template_id',
    {
      // The link's token is the credential, as in the hosted platform (anyone with the link reads).
      config: { public: true },
      schema: {
        tags,
        summary: 'Read a shared template through its link (the path the share answered); read-only',
        params: Type.Object({ template_id: Type.String({ minLength: 1, description: "the link's token" }) }),
        querystring: Type.Object({ fields: Paging.fields }),
        response: {
          200: Type.Object({ message: Type.String(), result: SharedTemplate }),
          ...errorResponses(400, 404, 410),
        },
      },
    },
    async (req) => ({ message: 'ok', result: await service.readShared(db, req.params.template_id, req.query.fields) }),
  );

  app.patch(
    '/v1/template/share/:template_id',
    {
      config: { action: 'templates:share' },
      schema: {
        tags,
        summary: "Change how long a private template's link works (ttl from now); the link stays the same",
        params: TemplateId,
        body: Type.Object({
          ttl: Type.Optional(Ttl),
          share_type: Type.Optional(ShareType),
          users: Type.Optional(Type.Array(Type.Integer(), { maxItems: 100 })),
          emails: Type.Optional(Strs),
          organizations: Type.Optional(Strs),
        }),
        response: {
          200: Type.Object({ message: Type.String(), result: ShareMeta }),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    async (req) => ({
      message: 'share updated',
      result: await service.updateShare(db, req.caller.teamId, req.params.template_id, req.body),
    }),
  );

  app.delete(
    '/v1/template/share/:template_id',
    {
      config: { action: 'templates:share' },
      schema: {
        tags,
        summary: "Revoke a private template's link (the template itself stays)",
        params: TemplateId,
        response: { 200: Type.Object({ message: Type.String() }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (req) => {
      await service.unshare(db, req.caller.teamId, req.params.template_id);
      return { message: `template ${req.params.template_id} is no longer shared` };
    },
  );

  app.post(
    '/v1/template/ai',
    {
      config: { action: 'templates:manage' },
      schema: {
        tags,
        summary: 'Generate a template with AI (hosted platform only)',
        description:
          "Answers 404 with code hosted_only: generation runs on the hosted platform's AI engine, which a self-hosted instance does not have.",
        body: Type.Object({
          prompt: Type.String({ maxLength: 10_000 }),
          retest: Type.Optional(Type.Boolean()),
          disableAutoSave: Type.Optional(Type.Boolean()),
          images: Type.Optional(Type.Array(Type.String(), { maxItems: 10 })),
        }),
        response: errorResponses(400, 401, 403, 404),
      },
    },
    async () => {
      throw hostedOnly('Generating templates with AI');
    },
  );
};
