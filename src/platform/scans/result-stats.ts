// GET /v1/scans/results/stats (Vigil only): what the console's overview shows, computed by the database
// in a few grouped queries rather than by the browser from a sample of findings.
import type { AppContext } from '../shared/context.ts';
import { badRequest } from '../shared/errors.ts';
import * as store from './result-stats-store.ts';

/** Statuses that still call for action: what the overview counts unless asked for every status. */
export const OPEN_STATUSES = ['open', 'triaged', 'fix_in_progress'];
const SCOPES = ['open', 'all'] as const;

export interface StatsQuery {
  days?: number;
  status?: string;
  scan_id?: string;
}

export async function resultStats(ctx: AppContext, teamId: string, q: StatsQuery) {
  const days = q.days ?? 30;
  const status = q.status ?? 'open';
  if (!(SCOPES as readonly string[]).includes(status))
    throw badRequest(`status must be one of ${SCOPES.join(', ')}`, 'status');
  const scope: store.StatsScope = {
    teamId,
    statuses: status === 'open' ? OPEN_STATUSES : undefined,
    scanId: q.scan_id,
  };
  const [severity, perDay, hosts, templates] = await Promise.all([
    store.severityCounts(ctx.db, scope),
    store.perDay(ctx.db, scope, days),
    store.topHosts(ctx.db, scope, 10),
    store.topTemplates(ctx.db, scope, 10),
  ]);
  return {
    message: 'ok',
    status,
    days,
    total: Object.values(severity).reduce((a, b) => a + b, 0),
    severity,
    per_day: perDay,
    top_hosts: hosts,
    top_templates: templates,
  };
}
