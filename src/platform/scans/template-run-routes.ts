// POST /v1/template/run: the template editor's one-off run (Vigil's own; the hosted API has none). It sits
// with the scans because it runs under a scan's rules and roles; template-run.ts does the work.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { ErrorBody, errorResponses } from '../shared/errors.ts';
import { RUN_LIMITS, runTemplateOnce } from './template-run.ts';

const Issue = Type.Object({
  message: Type.String(),
  field: Type.String({ description: 'the field the problem is about; empty for the whole text' }),
  line: Type.Optional(Type.Integer({ description: '1-based line in the text' })),
  column: Type.Optional(Type.Integer()),
});
const Header = Type.Tuple([Type.String(), Type.String()]);
const Step = Type.Object(
  {
    block: Type.Integer({ description: "index of the request block in the template's http list" }),
    request: Type.Object({
      method: Type.String(),
      url: Type.String(),
      headers: Type.Array(Header),
      body: Type.String({ description: `cut at ${RUN_LIMITS.body} characters` }),
      body_truncated: Type.Boolean(),
    }),
    response: Type.Optional(
      Type.Object({
        status: Type.Integer(),
        headers: Type.Array(Header),
        body: Type.String({ description: `cut at ${RUN_LIMITS.body} characters` }),
        body_truncated: Type.Boolean(),
        duration_ms: Type.Number(),
      }),
    ),
    error: Type.Optional(Type.String({ description: 'why no response came (refused connection, timeout, error)' })),
    denied: Type.Optional(Type.Boolean({ description: 'the deny list refused the connection' })),
    matchers: Type.Array(
      Type.Object({
        index: Type.Integer(),
        name: Type.Optional(Type.String()),
        type: Type.String(),
        part: Type.Optional(Type.String()),
        negative: Type.Optional(Type.Boolean()),
        internal: Type.Optional(Type.Boolean()),
        matched: Type.Boolean(),
      }),
    ),
    matchers_condition: Type.Union([Type.Literal('and'), Type.Literal('or')]),
    matched: Type.Boolean({ description: "the block's verdict on this response, matchers-condition applied" }),
    extractors: Type.Array(
      Type.Object({
        index: Type.Integer(),
        name: Type.Optional(Type.String()),
        type: Type.String(),
        internal: Type.Optional(Type.Boolean()),
        values: Type.Array(Type.String()),
      }),
    ),
  },
  { title: 'TemplateRunStep' },
);
const RunAnswer = Type.Object(
  {
    message: Type.String(),
    template_id: Type.String(),
    target: Type.String(),
    matched: Type.Boolean(),
    stopped: Type.Optional(
      Type.Union([Type.Literal('time'), Type.Literal('requests')], { description: 'the cap that ended the run early' }),
    ),
    duration_ms: Type.Integer(),
    requests_sent: Type.Integer(),
    requests_shown: Type.Integer(),
    requests: Type.Array(Step),
    events: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: "result events (nuclei's JSON fields; request and response cut)",
    }),
    notices: Type.Array(Type.String()),
    warnings: Type.Array(Issue),
  },
  { title: 'TemplateRunResult' },
);
const InvalidTemplateBody = Type.Object(
  { ...ErrorBody.properties, errors: Type.Optional(Type.Array(Issue)) },
  { title: 'TemplateRunError' },
);

export const templateRunRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/v1/template/run',
    {
      // Only roles that may start scans: a run sends a scan's traffic.
      config: { action: 'scans:manage' },
      schema: {
        tags: ['templates'],
        summary:
          "Run template text once against one target (Vigil's own, for the editor): each request and response, matcher and extractor outcomes; records no scan",
        body: Type.Object(
          {
            template: Type.String({ maxLength: 1024 * 1024, description: 'template text (YAML), at most 1 MiB' }),
            target: Type.String({ minLength: 1, maxLength: 4096, description: 'one URL, host or address' }),
            max_seconds: Type.Optional(
              Type.Integer({
                minimum: 1,
                maximum: RUN_LIMITS.seconds,
                description: `time cap in seconds (default and most ${RUN_LIMITS.seconds})`,
              }),
            ),
          },
          { additionalProperties: false },
        ),
        response: {
          200: RunAnswer,
          400: InvalidTemplateBody,
          ...errorResponses(401, 403, 429),
        },
      },
    },
    async (req, reply) => {
      // A client that goes away (the editor closed) stops the run: nobody is left to read its answer.
      const ac = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) ac.abort(new Error('the client closed the connection'));
      };
      reply.raw.once('close', onClose);
      try {
        return await runTemplateOnce(app.ctx, req.caller.teamId, req.body, ac.signal);
      } finally {
        reply.raw.off('close', onClose);
      }
    },
  );
};
