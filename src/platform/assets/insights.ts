// What the inventory itself says: misconfigurations discovery saw (GET /v1/asset/enumerate/misconfiguration)
// and asset policies proposed from patterns in it (GET /v1/asset/policy/suggestion). Both are computed
// from the current assets when asked, so they follow every run and every deletion without a table of
// their own.
import { createHash } from 'node:crypto';
import type { AppContext } from '../shared/context.ts';
import { badRequest } from '../shared/errors.ts';
import { pageEnvelope } from '../shared/paging.ts';
import { normalizeFilters, type AssetFiltersInput } from './filters.ts';
import * as store from './store.ts';
import { assetView } from './views.ts';

/** Database and cache services that should not face the internet. */
export const DATABASE_PORTS: Record<number, string> = {
  1433: 'Microsoft SQL Server',
  1521: 'Oracle Database',
  2379: 'etcd',
  3306: 'MySQL',
  5432: 'PostgreSQL',
  5984: 'CouchDB',
  6379: 'Redis',
  7687: 'Neo4j',
  8086: 'InfluxDB',
  9042: 'Cassandra',
  9200: 'Elasticsearch',
  11211: 'Memcached',
  27017: 'MongoDB',
};

/** Technologies (as the technology templates name them) that are administration or operations panels. */
export const PANEL_TECHNOLOGIES = [
  'adminer',
  'airflow',
  'argocd',
  'cpanel',
  'grafana',
  'jenkins',
  'jupyter',
  'kibana',
  'pgadmin',
  'phpmyadmin',
  'plesk',
  'portainer',
  'prometheus',
  'rabbitmq',
  'sonarqube',
  'tomcat-manager',
  'traefik',
  'webmin',
];
const isPanel = (tech: string) => {
  const t = tech.toLowerCase();
  return PANEL_TECHNOLOGIES.some((p) => t === p || t.startsWith(p + ':') || t.startsWith(p + ' ')) || /panel/.test(t);
};

export const FINDING_TYPES = [
  'expired_certificate',
  'mismatched_certificate',
  'self_signed_certificate',
  'directory_listing',
  'exposed_panel',
  'open_database_port',
] as const;
type FindingType = (typeof FINDING_TYPES)[number];

const SEVERITY: Record<FindingType, string> = {
  expired_certificate: 'medium',
  mismatched_certificate: 'low',
  self_signed_certificate: 'low',
  directory_listing: 'medium',
  exposed_panel: 'medium',
  open_database_port: 'high',
};

const day = (d: Date) => new Date(d).toISOString().slice(0, 10);

function findingsOf(a: store.AssetRow) {
  const v = assetView(a);
  const base = { host: a.host, ...(a.port ? { port: a.port } : {}), ip: a.ip, ...(a.url ? { url: a.url } : {}) };
  const out: { type: FindingType; event: Record<string, unknown> }[] = [];
  if (v.tls_expired) out.push({ type: 'expired_certificate', event: { ...base, not_after: v.tls_not_after } });
  if (v.tls_mismatched)
    out.push({
      type: 'mismatched_certificate',
      event: { ...base, subject_cn: v.tls_subject_cn, subject_an: v.tls_subject_an },
    });
  if (v.tls_self_signed)
    out.push({ type: 'self_signed_certificate', event: { ...base, subject_cn: v.tls_subject_cn } });
  if (a.title && /^(Index of \/|Directory listing for)/i.test(a.title))
    out.push({ type: 'directory_listing', event: { ...base, title: a.title } });
  const panels = a.technologies.filter(isPanel);
  if (panels.length) out.push({ type: 'exposed_panel', event: { ...base, technologies: panels } });
  if (a.port && DATABASE_PORTS[a.port])
    out.push({ type: 'open_database_port', event: { ...base, service: DATABASE_PORTS[a.port] } });
  return out.map((f) => ({
    id: `${f.type}-${a.id}`,
    enumeration_id: a.enumeration_id,
    finding_type: f.type,
    host: a.host,
    severity: SEVERITY[f.type],
    status: 'open',
    event: f.event,
    created_at: day(a.created_at),
    updated_at: day(a.updated_at),
  }));
}

export async function listMisconfigurations(
  ctx: AppContext,
  teamId: string,
  q: { limit?: number; offset?: number; search?: string; finding_type?: string },
) {
  if (q.finding_type !== undefined && !(FINDING_TYPES as readonly string[]).includes(q.finding_type))
    throw badRequest(`finding_type must be one of ${FINDING_TYPES.join(', ')}`, 'finding_type');
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const rows = await store.misconfigurationCandidates(
    ctx.db,
    teamId,
    Object.keys(DATABASE_PORTS).map(Number),
    q.search?.trim() || undefined,
  );
  const all = rows.flatMap(findingsOf).filter((f) => !q.finding_type || f.finding_type === q.finding_type);
  return pageEnvelope(all.slice(offset, offset + limit), all.length, offset, limit);
}

// ---- policy suggestions

interface Suggestion {
  id: string;
  category: string;
  title: string;
  reason: string;
  severity: string;
  suggested_policy: { name: string; policy_type: string; policies: Record<string, unknown>; labels?: string[] };
  affected_count: number;
  affected_percentage: number;
  sample_assets: Record<string, unknown>[];
}

const sid = (...parts: string[]) => createHash('sha256').update(parts.join('\0')).digest('hex').slice(0, 16);

export async function policySuggestions(
  ctx: AppContext,
  teamId: string,
  q: { enumeration_id?: string; limit?: number; threshold?: number },
) {
  const limit = q.limit ?? 5;
  const threshold = q.threshold ?? 10;
  if (q.enumeration_id && !(await store.getEnumeration(ctx.db, teamId, q.enumeration_id)))
    throw badRequest(`unknown enumeration "${q.enumeration_id}"`, 'enumeration_id');
  const c = await store.inventoryCounts(ctx.db, teamId, q.enumeration_id, limit);
  const pct = (n: number) => (c.total ? Math.round((n / c.total) * 1000) / 10 : 0);
  const scope = q.enumeration_id ? { enumeration_ids: [q.enumeration_id] } : {};
  const out: Omit<Suggestion, 'sample_assets'>[] = [];

  // Bad data: one page served on many names (parking, default or error pages), one address behind many
  // names (wildcard DNS), error answers.
  for (const t of c.titles) {
    if (pct(t.n) < threshold || t.value.includes(',')) continue;
    out.push({
      id: sid('repeated_title', t.value),
      category: 'repeated_title',
      title: `${t.n} assets share the title "${t.value}"`,
      reason: `${pct(t.n)}% of the assets answer with the same page title: usually a default, parking or error page rather than distinct services`,
      severity: 'low',
      suggested_policy: {
        name: `Label repeated title: ${t.value.slice(0, 80)}`,
        policy_type: 'set_label',
        policies: { ...scope, title: t.value },
        labels: ['repeated-title'],
      },
      affected_count: t.n,
      affected_percentage: pct(t.n),
    });
  }
  for (const ip of c.ips) {
    if (pct(ip.n) < threshold) continue;
    out.push({
      id: sid('ip_concentration', ip.value),
      category: 'ip_concentration',
      title: `${ip.n} names resolve to ${ip.value}`,
      reason: `${pct(ip.n)}% of the assets point at one address: often wildcard DNS or a shared front end`,
      severity: 'low',
      suggested_policy: {
        name: `Label names on ${ip.value}`,
        policy_type: 'set_label',
        policies: { ...scope, ip: ip.value },
        labels: ['shared-ip'],
      },
      affected_count: ip.n,
      affected_percentage: pct(ip.n),
    });
  }
  for (const s of c.statuses) {
    if (pct(s.n) < threshold) continue;
    out.push({
      id: sid('error_status', s.value),
      category: 'error_status',
      title: `${s.n} assets answer HTTP ${s.value}`,
      reason: `${pct(s.n)}% of the web assets answer with an error status`,
      severity: 'info',
      suggested_policy: {
        name: `Label HTTP ${s.value} answers`,
        policy_type: 'set_label',
        policies: { ...scope, status_code: s.value },
        labels: [`http-${s.value}`],
      },
      affected_count: s.n,
      affected_percentage: pct(s.n),
    });
  }
  // Important assets: panels and databases, whatever their share.
  for (const t of c.technologies.filter((t) => isPanel(t.value)).slice(0, limit)) {
    out.push({
      id: sid('exposed_panel', t.value),
      category: 'exposed_panel',
      title: `${t.n} exposed ${t.value} panel${t.n === 1 ? '' : 's'}`,
      reason: 'administration panels are worth watching: alert when one appears',
      severity: 'medium',
      suggested_policy: {
        name: `Alert on ${t.value}`,
        policy_type: 'alert',
        policies: { ...scope, technologies: t.value },
      },
      affected_count: t.n,
      affected_percentage: pct(t.n),
    });
  }
  for (const p of c.ports.filter((p) => DATABASE_PORTS[Number(p.value)]).slice(0, limit)) {
    const service = DATABASE_PORTS[Number(p.value)]!;
    out.push({
      id: sid('open_database_port', p.value),
      category: 'open_database_port',
      title: `${p.n} ${service} port${p.n === 1 ? '' : 's'} (${p.value}) open`,
      reason: `${service} answered on port ${p.value}: databases should not be reachable from outside`,
      severity: 'high',
      suggested_policy: {
        name: `Label ${service} ports`,
        policy_type: 'set_label',
        policies: { ...scope, port: p.value },
        labels: ['database'],
      },
      affected_count: p.n,
      affected_percentage: pct(p.n),
    });
  }
  const suggestions: Suggestion[] = [];
  for (const s of out) {
    const { rows } = await store.listAssets(ctx.db, {
      teamId,
      filter: normalizeForSample(s.suggested_policy.policies),
      limit: 3,
      noTotal: true,
    });
    suggestions.push({
      ...s,
      sample_assets: rows.map((r) => ({ id: Number(r.id), name: assetView(r).name, host: r.host })),
    });
  }
  return { message: 'ok', suggestions, total: suggestions.length };
}

const normalizeForSample = (p: Record<string, unknown>) => normalizeFilters(p as AssetFiltersInput);
