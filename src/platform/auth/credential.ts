// The credential a request carries, read one way for everything that asks: authentication (plugin.ts) and
// the rate limit (rate-limit.ts), which must agree on it (an API key header wins over the session cookie).
import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './sessions.ts';

/** A request header's (first) value. */
export const header = (req: FastifyRequest, name: string): string | undefined => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

/** The credential a request carries: an API key header, else the session cookie. */
export function credential(req: FastifyRequest): { key?: string; cookie?: string } {
  const key = header(req, 'x-api-key') ?? header(req, 'x-pdcp-key');
  return key ? { key } : { cookie: req.cookies?.[SESSION_COOKIE] };
}
