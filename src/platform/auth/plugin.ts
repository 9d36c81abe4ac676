// Authentication for every route except the public ones (health, docs, OpenAPI document, console files).
// A caller proves who they are with an API key (X-API-Key) or with the console's session cookie; with the
// cookie, requests that change state must also carry the session's CSRF token. Routes declare what they
// need with `config: { action }`; the permission table decides.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthorized } from '../shared/errors.ts';
import { credential, header } from './credential.ts';
import { hashApiKey } from './keys.ts';
import { can, type Action } from './permissions.ts';
import { authenticate, type Caller } from './service.ts';
import { authenticateSession, sameToken, sessionUser } from './sessions.ts';
import { findUserByKeyHash } from './store.ts';

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

/** Methods a browser may send cross-site without harm; everything else needs the CSRF token. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** With the cookie, a request that changes data must carry the session's CSRF token. */
function checkCsrf(req: FastifyRequest, csrfToken: string): void {
  if (!SAFE_METHODS.has(req.method) && !sameToken(header(req, 'x-csrf-token'), csrfToken)) {
    throw new ApiError(
      403,
      'missing or wrong X-CSRF-Token: requests that change data with the session cookie must send it',
      'csrf_failed',
    );
  }
}

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('caller', null as unknown as Caller);
  app.decorateRequest('session', null);
  app.addHook('onRequest', async (req) => {
    const cfg = req.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for a key.
    if (cfg?.public || !req.routeOptions.url) return;
    const { key, cookie } = credential(req);
    if (cookie) {
      const s = await authenticateSession(app.ctx.db, cookie, header(req, 'x-team-id'));
      checkCsrf(req, s.csrfToken);
      req.caller = s.caller;
      req.session = { token: cookie, csrfToken: s.csrfToken };
    } else {
      req.caller = await authenticate(app.ctx.db, key, header(req, 'x-team-id'));
    }
    // From now on the rate limit counts this credential's requests on their own (not by address).
    app.rateLimitCredentials?.accepted(req);
    if (cfg?.action && !can(req.caller.role, cfg.action)) {
      throw forbidden(`role ${req.caller.role} may not ${describe(cfg.action)}`);
    }
  });
});

/**
 * On a public route: the signed-in user when the request carries a key or the session cookie (with the
 * CSRF token for changes), undefined when it carries neither. A wrong credential is a 401. Only who the
 * user is, not a team: accepting an invite needs no team yet.
 */
export async function identify(req: FastifyRequest): Promise<{ userId: number; email: string } | undefined> {
  const { key, cookie } = credential(req);
  if (key) {
    const user = await findUserByKeyHash(req.server.ctx.db, hashApiKey(key.trim()));
    if (!user) throw unauthorized('invalid API key');
    return { userId: Number(user.id), email: user.email };
  }
  if (!cookie) return undefined;
  const s = await sessionUser(req.server.ctx.db, cookie);
  checkCsrf(req, s.csrfToken);
  return { userId: s.userId, email: s.email };
}

function describe(action: Action): string {
  const [area, verb] = action.split(':');
  return `${verb!.replace('_', ' ')} ${area}`;
}
