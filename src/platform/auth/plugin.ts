// Authentication for every route except the public ones (health, docs, OpenAPI document, console files).
// A caller proves who they are with an API key (X-API-Key) or with the console's session cookie; with the
// cookie, requests that change state must also carry the session's CSRF token. Routes declare what they
// need with `config: { action }`; the permission table decides.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden } from '../errors.ts';
import { can, type Action } from './permissions.ts';
import { authenticate, type Caller } from './service.ts';
import { authenticateSession, sameToken, SESSION_COOKIE } from './sessions.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
    /** Set when the caller signed in with the console's cookie (not with an API key). */
    session: { token: string; csrfToken: string } | null;
  }
  interface FastifyContextConfig {
    /** Permission the route needs; omit for routes any authenticated caller may use. */
    action?: Action;
    /** true for routes that need no API key. */
    public?: boolean;
  }
}

const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** Methods a browser may send cross-site without harm; everything else needs the CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (req) => {
    const cfg = req.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for a key.
    if (cfg?.public || !req.routeOptions.url) return;
    const key = header(req, 'x-api-key') ?? header(req, 'x-pdcp-key');
    const cookie = key ? undefined : req.cookies?.[SESSION_COOKIE];
    if (cookie) {
      const s = await authenticateSession(app.ctx.db, cookie, header(req, 'x-team-id'));
      if (!SAFE_METHODS.has(req.method) && !sameToken(header(req, 'x-csrf-token'), s.csrfToken)) {
        throw new ApiError(403, 'missing or wrong X-CSRF-Token: requests that change data with the session cookie must send it', 'csrf_failed');
      }
      req.caller = s.caller;
      req.session = { token: cookie, csrfToken: s.csrfToken };
    } else {
      req.caller = await authenticate(app.ctx.db, key, header(req, 'x-team-id'));
    }
    if (cfg?.action && !can(req.caller.role, cfg.action)) {
      throw forbidden(`role ${req.caller.role} may not ${describe(cfg.action)}`);
    }
  });
});

function describe(action: Action): string {
  const [area, verb] = action.split(':');
  return `${verb!.replace('_', ' ')} ${area}`;
}
