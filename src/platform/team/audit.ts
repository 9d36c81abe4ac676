// The team's audit log: every change a person or key makes (any POST, PUT, PATCH or DELETE by a signed-in
// caller, whatever the area), written once by one hook rather than by each route: who (email), what (the
// operation and the path), when, from where (IP), how (API key or console), and the answer's status.
// Never a body or a query string, and path segments that are credentials (tokens) are replaced, so no
// secret can reach it. Reading: GET /v1/team/audit_log and /v1/team/audit_log/search.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../shared/context.ts';
import { badRequest } from '../shared/errors.ts';
import { appendAudit, auditPage, type AuditRow } from './audit-store.ts';

const CHANGES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Path parameters that carry a credential: never stored. */
const SECRET_PARAM = /token|key|secret|password|invite/i;

/** The request's path with its parameters filled in from the route, credentials replaced, no query. */
export function auditPath(routeUrl: string, params: Record<string, unknown>): string {
  return routeUrl.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) =>
    SECRET_PARAM.test(name) ? '[REDACTED]' : encodeURIComponent(String(params[name] ?? '')),
  );
}

/** Adds the hook that records each change (before the answer is sent, so a reader right after sees it). */
export function registerAuditLog(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    const caller = req.caller;
    const url = req.routeOptions.url;
    if (!CHANGES.has(req.method) || !caller?.teamId || !url) return payload;
    try {
      await appendAudit(app.ctx.db, {
        teamId: caller.teamId,
        userId: caller.userId,
        email: caller.email,
        action: `${req.method} ${url}`,
        method: req.method,
        path: auditPath(url, (req.params ?? {}) as Record<string, unknown>),
        status: reply.statusCode,
        ip: req.ip,
        source: sourceOf(req),
      });
    } catch (err) {
      req.log.error({ err }, 'audit log entry could not be written');
    }
    return payload;
  });
}

function sourceOf(req: FastifyRequest): string {
  if (req.session) return 'platform';
  return req.headers['x-api-key'] || req.headers['x-pdcp-key'] ? 'api' : 'unknown';
}

export interface AuditQuery {
  email?: string;
  action?: string;
  offset?: number;
  limit?: number;
  start_date?: string;
  end_date?: string;
  time_range?: string;
  source?: string;
}

const RANGES: Record<string, string> = {
  current_month: `date_trunc('month', now())`,
  last_month: `now() - interval '1 month'`,
  last_3_months: `now() - interval '3 months'`,
  last_6_months: `now() - interval '6 months'`,
  last_12_months: `now() - interval '12 months'`,
};
const SOURCES = ['api', 'platform', 'unknown'];

function item(r: AuditRow) {
  return { ...r, created_at: new Date(r.created_at).toISOString() };
}

export async function listAudit(ctx: AppContext, teamId: string, q: AuditQuery) {
  const conds: string[] = [];
  const params: unknown[] = [teamId];
  const add = (cond: (n: string) => string, v: unknown) => {
    params.push(v);
    conds.push(cond(`$${params.length}`));
  };
  if (q.email) add((n) => `lower(a.email) = lower(${n})`, q.email);
  if (q.action) add((n) => `a.action = ${n}`, q.action);
  if (q.source) {
    if (!SOURCES.includes(q.source)) throw badRequest(`source must be one of ${SOURCES.join(', ')}`, 'source');
    add((n) => `a.source = ${n}`, q.source);
  }
  if (q.time_range) {
    const since = RANGES[q.time_range];
    if (!since) throw badRequest(`time_range must be one of ${Object.keys(RANGES).join(', ')}`, 'time_range');
    conds.push(`a.created_at >= ${since}`);
  }
  if (q.start_date) add((n) => `a.created_at >= ${n}::date`, q.start_date);
  // end_date includes that whole day.
  if (q.end_date) add((n) => `a.created_at < ${n}::date + 1`, q.end_date);
  const rows = await auditPage(ctx.db, conds, params, q.limit ?? 100, q.offset ?? 0);
  return { message: `${rows.length} entries`, data: rows.map(item) };
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => '\\' + c)}%`;

/**
 * One search box over the log, by what the text looks like: a status code, a source, an IP address, an
 * email, an HTTP method, a path; anything else is looked for in the path and the action.
 */
export async function searchAudit(ctx: AppContext, teamId: string, q: { q: string; offset?: number; limit?: number }) {
  const text = q.q.trim();
  if (!text) throw badRequest('q is empty', 'q');
  const params: unknown[] = [teamId];
  let cond: string;
  if (/^[1-5]\d\d$/.test(text)) {
    params.push(Number(text));
    cond = 'a.status = $2';
  } else if (SOURCES.includes(text.toLowerCase())) {
    params.push(text.toLowerCase());
    cond = 'a.source = $2';
  } else if (/^[0-9.]+$/.test(text) || (text.includes(':') && /^[0-9a-f:.]+$/i.test(text))) {
    params.push(text.endsWith('.') || text.split('.').length < 4 ? `${text}%` : text);
    cond = text.endsWith('.') || text.split('.').length < 4 ? 'a.ip LIKE $2' : 'a.ip = $2';
  } else if (text.includes('@')) {
    params.push(like(text));
    cond = 'a.email ILIKE $2';
  } else if (METHODS.includes(text.toUpperCase())) {
    params.push(text.toUpperCase());
    cond = 'a.method = $2';
  } else {
    params.push(like(text));
    cond = '(a.path ILIKE $2 OR a.action ILIKE $2)';
  }
  const rows = await auditPage(ctx.db, [cond], params, Math.min(q.limit ?? 100, 100), q.offset ?? 0);
  return { message: `${rows.length} entries`, data: rows.map(item) };
}
