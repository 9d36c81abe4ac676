// buildApp(): the whole HTTP API as one Fastify instance. `vigil serve` listens with it; tests drive it
// with inject(). Routes are thin; the rules live in each area's service.ts.
import { readFileSync } from 'node:fs';
import { observeRequest } from './shared/metrics.ts';
import { randomUUID } from 'node:crypto';
import cookie from '@fastify/cookie';
import Fastify, { LogController, type FastifyError, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, ErrorBody, MessageBody } from './shared/errors.ts';
import { authPlugin } from './auth/plugin.ts';
import { registerRateLimit } from './auth/rate-limit.ts';
import { areas } from './areas.ts';
import { registerInputChecks } from './shared/input.ts';
import { registerAuditLog } from './team/audit.ts';
import type { AppContext } from './shared/context.ts';

export interface RouteAccess {
  method: string;
  url: string;
  /** The permission the route asks (src/platform/auth/permissions.ts); none: any signed-in caller. */
  action?: string;
  public: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    routeTable: RouteAccess[];
  }
}

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const app = Fastify({
    ...httpsOptions(ctx.config),
    loggerInstance: ctx.log,
    bodyLimit: 32 * 1024 * 1024,
    genReqId: () => randomUUID(),
    // Requests are logged by the onResponse hook below, with secrets taken out of the URL.
    logController: new LogController({ disableRequestLogging: true }),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    // Errors Fastify answers before any route (a URL that does not decode, ...) use the spec's body too.
    frameworkErrors: (err, _req, reply) => {
      const status = (err as FastifyError).statusCode ?? 400;
      (reply as unknown as { code(n: number): { send(b: unknown): void } })
        .code(status)
        .send({ message: err.message, code: CLIENT_ERROR_CODES[status] ?? 'bad_request', status } satisfies ErrorBody);
    },
    // Errors of the connection itself (headers too large: 431, a malformed request line: 400) are written
    // to the socket directly; they carry the spec's body as well.
    clientErrorHandler: (err, socket) => {
      const code = (err as { code?: string }).code;
      const status = code === 'HPE_HEADER_OVERFLOW' ? 431 : code === 'HPE_URI_TOO_LONG' ? 414 : 400;
      const message =
        status === 431
          ? 'request headers are too large'
          : status === 414
            ? 'the URL is too long'
            : 'malformed HTTP request';
      const body = JSON.stringify({
        message,
        code: status === 400 ? 'bad_request' : status === 431 ? 'headers_too_large' : 'uri_too_long',
        status,
      });
      if (socket.writable) {
        socket.end(
          `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : status === 414 ? 'URI Too Long' : 'Bad Request'}\r\n` +
            `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
        );
      } else socket.destroy(err);
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('ctx', ctx);
  if (ctx.config.tlsCert && ctx.config.hstsMaxAge > 0) {
    // Over HTTPS, browsers are told to use nothing else for this host, so a plain-HTTP link cannot strip
    // TLS (and the session cookie with it). Without includeSubDomains: other hosts of the domain are not ours.
    const hsts = `max-age=${ctx.config.hstsMaxAge}`;
    app.addHook('onSend', async (_req, reply) => {
      reply.header('strict-transport-security', hsts);
    });
  }
  app.addHook('onResponse', async (req, reply) => {
    req.log.info(
      { method: req.method, url: redactUrl(req.url), status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
    observeRequest(req.method, req.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
  });
  registerInputChecks(app as unknown as FastifyInstance);
  registerAuditLog(app as unknown as FastifyInstance);
  app.addSchema(ErrorBody);
  app.addSchema(MessageBody);

  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Vigil API', version: '1.0', description: 'Self-hosted vulnerability scanning platform' },
      components: {
        securitySchemes: {
          'X-API-Key': { type: 'apiKey', in: 'header', name: 'X-API-Key' },
          // The console's session (POST /v1/auth/sign-in); changes also need the X-CSRF-Token header.
          session: { type: 'apiKey', in: 'cookie', name: 'vigil_session' },
        },
      },
      security: [{ 'X-API-Key': [] }, { session: [] }],
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (json.$id as string) ?? `def-${i}` },
  });
  // Every route with what it requires, for the role x operation matrix test (so no route escapes it).
  const routeTable: RouteAccess[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    const cfg = (route.config ?? {}) as { action?: string; public?: boolean };
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        action: cfg.action,
        public: cfg.public === true || route.url === '/docs' || route.url.startsWith('/docs/'),
      });
    }
  });
  // The docs UI's own routes are public. The hook must exist before the UI plugin adds its routes.
  app.addHook('onRoute', (route) => {
    if (route.url === '/docs' || route.url.startsWith('/docs/'))
      route.config = { ...(route.config as object), public: true };
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
      const param = missing
        ? where
          ? `${where}.${missing}`
          : missing
        : extra
          ? where
            ? `${where}.${extra}`
            : extra
          : where || (err as FastifyError).validationContext;
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
    return reply
      .code(500)
      .send({ message: 'internal error', code: 'internal', error_id: errorId, status: 500 } satisfies ErrorBody);
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404).send({
      message: `no route ${req.method} ${req.url.split('?')[0]}`,
      code: 'not_found',
      status: 404,
    } satisfies ErrorBody);
  });

  // The cookie parser first: the rate limit counts a console user's requests by their session.
  await app.register(cookie);
  // One app-level hook, before authentication's: key guessing without a valid key is limited too.
  if (ctx.config.rateLimitPerMinute > 0)
    await registerRateLimit(app as unknown as FastifyInstance, ctx.config.rateLimitPerMinute);
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

/** What each replacement of redactUrl needs: a query, or the path of a download or share link. */
const MAY_HOLD_SECRET = /[?&]|\/v1\/export\/download\/|\/v1\/template\/share\//;

/**
 * A URL as it may be logged: download and template share tokens (each the credential of its link) and any
 * key-, token- or password-like query value are replaced.
 */
export function redactUrl(url: string): string {
  // Most URLs have nothing to replace: one test instead of three replacements (this runs on every request).
  if (!MAY_HOLD_SECRET.test(url)) return url;
  return url
    .replace(/(\/v1\/export\/download\/)[^/?#]+/, '$1[REDACTED]')
    .replace(/(\/v1\/template\/share\/)vts_[^/?#]*/, '$1[REDACTED]')
    .replace(/([?&](?:[^=&]*(?:key|token|secret|password|session|invite)[^=&]*)=)[^&#]*/gi, '$1[REDACTED]');
}

/** HTTPS when a certificate and key are configured; both or neither (a half setting is a start-up error). */
function httpsOptions(config: AppContext['config']): { https?: { cert: Buffer; key: Buffer } } {
  if (!config.tlsCert && !config.tlsKey) return {};
  if (!config.tlsCert || !config.tlsKey)
    throw new Error(
      'HTTPS needs both a certificate and a key (--tls-cert and --tls-key, or VIGIL_TLS_CERT and VIGIL_TLS_KEY)',
    );
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(
        `cannot read the TLS ${what} ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      );
    }
  };
  return { https: { cert: read(config.tlsCert, 'certificate'), key: read(config.tlsKey, 'key') } };
}
