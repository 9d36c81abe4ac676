// GET /v2/vulnerability/{id}/timeline: what happened to a vulnerability, for this team. The id is a CVE id
// (any case), an intelligence doc_id or a template id. Events: the detecting template's release and last
// update (the catalogue), each finding's first detection, and its current state as the scans and people
// left it (resolved when fixed, reopened when a later scan saw it again, other statuses as status_change,
// a changed severity as severity_change), each at the finding's last change.
import type { AppContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { badRequest } from '../shared/errors.ts';
import * as store from './timeline-store.ts';

export const TIMELINE_EVENTS = [
  'detected',
  'status_change',
  'resolved',
  'reopened',
  'severity_change',
  'template_released',
  'template_updated',
] as const;

interface TimelineEvent {
  timestamp: string;
  event_type: string;
  old_value?: string;
  new_value?: string;
  description?: string;
}

const iso = (d: Date) => new Date(d).toISOString();

export function parseEventTypes(v: string | undefined): Set<string> | undefined {
  if (!v) return undefined;
  const list = v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const e of list)
    if (!(TIMELINE_EVENTS as readonly string[]).includes(e))
      throw badRequest(`unknown event_type "${e}"; use ${TIMELINE_EVENTS.join(', ')}`, 'event_type');
  return new Set(list);
}

export async function vulnTimeline(ctx: AppContext, teamId: string, id: string, eventTypes?: string) {
  const wanted = parseEventTypes(eventTypes);
  const cve = await store.intelCveId(ctx.db, id);
  const templates = await store.templatesFor(ctx.db, id, cve);
  const templateIds = [...new Set([id, ...templates.map((t) => t.template_id)])];
  const findings = await store.findingsOf(ctx.db, teamId, templateIds);
  if (!cve && !templates.length && !findings.length) throw notFound(`vulnerability ${id} not found`, 'id');

  const events: TimelineEvent[] = [];
  const first = templates[0];
  if (first) {
    events.push({
      timestamp: iso(first.created_at),
      event_type: 'template_released',
      new_value: first.template_id,
      description: `template ${first.template_id} added to the catalogue`,
    });
    const latest = templates.reduce((a, b) => (b.updated_at > a.updated_at ? b : a));
    if (latest.updated_at.getTime() > latest.created_at.getTime())
      events.push({
        timestamp: iso(latest.updated_at),
        event_type: 'template_updated',
        new_value: latest.template_id,
        description: `template ${latest.template_id} updated`,
      });
  }
  for (const f of findings) {
    events.push({
      timestamp: iso(f.created_at),
      event_type: 'detected',
      new_value: 'open',
      description: `finding ${f.id} detected at ${f.matched_at}`,
    });
    const at = iso(f.updated_at);
    if (f.vuln_status === 'fixed')
      events.push({
        timestamp: at,
        event_type: 'resolved',
        old_value: 'open',
        new_value: 'fixed',
        description: `finding ${f.id} no longer seen`,
      });
    else if (f.vuln_status === 'regression')
      events.push({
        timestamp: at,
        event_type: 'reopened',
        old_value: 'fixed',
        new_value: 'regression',
        description: `finding ${f.id} seen again`,
      });
    else if (f.vuln_status !== 'open')
      events.push({
        timestamp: at,
        event_type: 'status_change',
        old_value: 'open',
        new_value: f.vuln_status,
        description: `finding ${f.id}`,
      });
    if (f.original_severity && f.original_severity !== f.severity)
      events.push({
        timestamp: at,
        event_type: 'severity_change',
        old_value: f.original_severity,
        new_value: f.severity,
        description: `finding ${f.id}`,
      });
  }
  events.sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const latest = findings.reduce<store.FindingState | undefined>(
    (a, b) => (!a || b.updated_at >= a.updated_at ? b : a),
    undefined,
  );
  return {
    ...(first
      ? {
          template_released_at: iso(first.created_at),
          template_updated_at: iso(templates.reduce((a, b) => (b.updated_at > a.updated_at ? b : a)).updated_at),
        }
      : {}),
    ...(findings.length
      ? {
          first_detected_at: iso(findings[0]!.created_at),
          last_seen_at: iso(findings.reduce((a, b) => (b.updated_at > a.updated_at ? b : a)).updated_at),
          current_status: latest!.vuln_status,
        }
      : {}),
    events: wanted ? events.filter((e) => wanted.has(e.event_type)) : events,
  };
}
