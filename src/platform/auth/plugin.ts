// Authentication for every route except the public ones (health, docs, OpenAPI document). Routes declare
// what they need with `config: { action }`; the permission table decides.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { forbidden } from '../errors.ts';
import { can, type Action } from './permissions.ts';
import { authenticate, type Caller } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    caller: Caller;
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

export const authPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('caller', null as unknown as Caller);
  app.addHook('onRequest', async (req) => {
    const cfg = req.routeOptions.config;
    // Unknown routes fall through to the 404 handler without asking for a key.
    if (cfg?.public || !req.routeOptions.url) return;
    const key = header(req, 'x-api-key') ?? header(req, 'x-pdcp-key');
    req.caller = await authenticate(app.ctx.db, key, header(req, 'x-team-id'));
    if (cfg?.action && !can(req.caller.role, cfg.action)) {
      throw forbidden(`role ${req.caller.role} may not ${describe(cfg.action)}`);
    }
  });
});

function describe(action: Action): string {
  const [area, verb] = action.split(':');
  return `${verb!.replace('_', ' ')} ${area}`;
}
