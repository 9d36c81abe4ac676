// The API rate limit (VIGIL_RATE_LIMIT requests per minute). Who a request is counted against:
// - a credential (API key, else the console's session cookie) this process has seen accepted: that
//   credential, so every key and every console user has a budget of its own, also behind one proxy address;
// - anything else (no credential, or one not yet seen accepted: a guessed or invented one): the client
//   address. So inventing a new key or cookie per request gains nothing over sending none.
// The console's own files (its pages and build files, answered from disk with no database work) and the
// health check are not counted: a cold page load fetches some 20-35 files, which would otherwise use up
// the budget of the API calls the same pages make.
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isApiPath, requestPath } from '../shared/api-path.ts';
import { ApiError } from '../shared/errors.ts';
import { Lru } from '../shared/lru.ts';
import { credential } from './credential.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Present while the rate limit is on: authentication tells it which credentials were accepted. */
    rateLimitCredentials?: AcceptedCredentials;
  }
  interface FastifyContextConfig {
    /** A console file or page route (src/platform/console/routes.ts): not counted by the rate limit. */
    consoleFile?: boolean;
  }
}

/** A short, one-way name of the request's credential (never the credential itself), or undefined. */
function credentialName(req: FastifyRequest): string | undefined {
  const { key, cookie } = credential(req);
  const secret = key ? 'k' + key.trim() : cookie ? 's' + cookie : '';
  return secret ? createHash('sha256').update(secret).digest('base64url').slice(0, 22) : undefined;
}

/**
 * The credentials this process has accepted lately (their names only), bounded: the least recently used
 * is forgotten first, and its next request is counted against its address until it is accepted again.
 */
export class AcceptedCredentials {
  private readonly seen: Lru<number>;
  // Each request's credential name, hashed once: by bucket() as the request arrives, read again by
  // accepted() once authentication has accepted it.
  private readonly names = new WeakMap<FastifyRequest, string | undefined>();
  constructor(
    max = 50_000,
    private readonly ttlMs = 10 * 60_000,
  ) {
    this.seen = new Lru(max);
  }

  accepted(req: FastifyRequest): void {
    const name = this.names.has(req) ? this.names.get(req) : credentialName(req);
    if (name) this.seen.set(name, Date.now());
  }

  /** The name to count the request against: its credential's once accepted, else its address. */
  bucket(req: FastifyRequest): string {
    const name = credentialName(req);
    this.names.set(req, name);
    const at = name ? this.seen.get(name) : undefined;
    if (name && at !== undefined && Date.now() - at < this.ttlMs) return 'c:' + name;
    return 'ip:' + req.ip;
  }
}

/** Requests never counted: the health check, and the console's files and pages (never an API path). */
function uncounted(req: FastifyRequest): boolean {
  if (req.url === '/healthz') return true;
  return req.routeOptions.config?.consoleFile === true && !isApiPath(requestPath(req.url));
}

/** Registers the limit as one app-level hook; call it before authentication's hook (and after the cookie parser). */
export async function registerRateLimit(app: FastifyInstance, perMinute: number): Promise<void> {
  const credentials = new AcceptedCredentials();
  app.decorate('rateLimitCredentials', credentials);
  await app.register(rateLimit, { global: false });
  const limit = app.rateLimit({
    max: perMinute,
    timeWindow: 60_000,
    cache: 50_000,
    keyGenerator: (req) => credentials.bucket(req),
    errorResponseBuilder: (_req, c) =>
      new ApiError(
        429,
        `rate limit reached: ${c.max} requests per minute; retry in ${Math.ceil(c.ttl / 1000)} s`,
        'rate_limited',
      ),
  });
  // Skipped before the limiter rather than through its allowList, which it asks only after computing the
  // key: a console file would otherwise cost its credential's hash for nothing.
  app.addHook('onRequest', async (req, reply) => {
    if (!uncounted(req)) await limit.call(app, req, reply);
  });
}
