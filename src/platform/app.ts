// buildApp(): the whole HTTP API as one Fastify instance. `vigil serve` listens with it; tests drive it
// with inject(). Routes are thin; the rules live in each area's service.ts.
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, ErrorBody, MessageBody } from './errors.ts';
import { authPlugin } from './auth/plugin.ts';
import { areas } from './areas.ts';
import type { AppContext } from './context.ts';

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: ctx.log,
    bodyLimit: 32 * 1024 * 1024,
    genReqId: () => randomUUID(),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('ctx', ctx);
  app.addSchema(ErrorBody);
  app.addSchema(MessageBody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Vigil API', version: '1.0', description: 'Self-hosted vulnerability scanning platform' },
      components: {
        securitySchemes: {
          'X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        },
      },
      security: [{ 'X-API-Key': [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) ?? `def-${i}` },
  });
  // The docs UI's own routes are public. The hook must exist before the UI plugin adds its routes.
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/')) route.config = { ...(route.config as object), public: true };
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { persistAuthorization: true } });
  app.get('/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());

  app.setErrorHandler((err: FastifyError | ApiError, req, reply) => {
    if (err instanceof ApiError) return reply.code(err.status).send(err.body());
    if ((err as FastifyError).validation) {
      const v = (err as FastifyError).validation![0]!;
      const missing = (v.params as { missingProperty?: string }).missingProperty;
      const extra = (v.params as { additionalProperty?: string }).additionalProperty;
      const where = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const param = missing ? (where ? `${where}.${missing}` : missing) : extra ? (where ? `${where}.${extra}` : extra) : where || (err as FastifyError).validationContext;
      const message = missing
        ? `${param} is required`
        : extra
          ? `${param} is not a known field`
          : `${param || 'request'} ${v.message ?? 'is invalid'}`;
      return reply.code(400).send({ message, code: 'invalid_request', param, status: 400 } satisfies ErrorBody);
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      // Fastify's own client errors (bad JSON, wrong content type, body too large) are about the body.
      const fromParser = /^FST_ERR_CTP_/.test((err as FastifyError).code ?? '');
      const body: ErrorBody = { message: err.message, code: CLIENT_ERROR_CODES[status] ?? 'bad_request', status };
      if (fromParser) body.param = 'body';
      return reply.code(status).send(body);
    }
    const errorId = randomUUID();
    req.log.error({ err, error_id: errorId }, 'unexpected error');
    return reply.code(500).send({ message: 'internal error', code: 'internal', error_id: errorId, status: 500 } satisfies ErrorBody);
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({ message: `no route ${req.method} ${req.url.split('?')[0]}`, code: 'not_found', status: 404 } satisfies ErrorBody);
  });

  await app.register(authPlugin);
  for (const area of areas) await app.register(area);
  return app as unknown as FastifyInstance;
}

const CLIENT_ERROR_CODES: Record<number, string> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};
