// Response shapes of the assets area: the reference's EnumerateData, EnumerationContent, AssetChangelogs,
// AssetPolicy and ActivityEvent records, built from store rows.
import type { AssetRow, ChangelogRow, EnumerationRow, PolicyEventRow, PolicyRow } from './store.ts';

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : undefined);

function elapsed(row: EnumerationRow): string {
  if (!row.started_at) return '';
  const end = row.completed_at ? new Date(row.completed_at).getTime() : Date.now();
  const s = Math.max(0, Math.round((end - new Date(row.started_at).getTime()) / 1000));
  return `${Math.floor(s / 3600)}h${Math.floor((s % 3600) / 60)}m${s % 60}s`;
}

/** Settings shown back: a subfinder provider config holds API keys, so only its presence is shown. */
function shownConfig(c: Record<string, unknown>): Record<string, unknown> {
  const out = { ...c };
  if (out.provider_config) out.provider_config = '****';
  delete out.cloudlist_provider_name;
  return out;
}

/** `cloudlist` for an enumeration that lists cloud accounts, `domain` for one of roots only. */
export function enumerationType(row: Pick<EnumerationRow, 'enumeration_config'>): {
  enumeration_type: string;
  cloudlist_provider_name?: string;
} {
  const c = row.enumeration_config as { cloudlist_config_ids?: string[]; cloudlist_provider_name?: string };
  return c.cloudlist_config_ids?.length
    ? { enumeration_type: 'cloudlist', cloudlist_provider_name: c.cloudlist_provider_name ?? '' }
    : { enumeration_type: 'domain' };
}

export function enumerationView(row: EnumerationRow) {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    failure_reason: row.failure_reason ?? '',
    progress: row.progress,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    completed_at: iso(row.completed_at),
    enumeration_time: elapsed(row),
    enumeration_time_elapsed: elapsed(row),
    ...enumerationType(row),
    ...((row.enumeration_config as { cloudlist_config_ids?: string[] }).cloudlist_config_ids?.length
      ? { cloudlist_config_ids: (row.enumeration_config as { cloudlist_config_ids: string[] }).cloudlist_config_ids }
      : {}),
    root_domains: row.root_domains,
    domain_names: row.root_domains,
    exclusions: row.exclusions,
    steps: row.steps,
    enumeration_ports: row.enumeration_ports ?? '',
    enumeration_config: shownConfig(row.enumeration_config),
    alerting_config_ids: row.alerting_config_ids,
    automatic_vuln_scans: row.automatic_vuln_scans,
    is_rescan: row.run > 1,
    rescan_count: row.run - 1,
    total_assets: row.total_assets,
    new_assets: row.new_assets,
    notices: row.notices,
    is_internal: false,
  };
}

export function assetView(a: AssetRow) {
  const tls = (a.tls ?? {}) as Record<string, unknown>;
  const tlsField = <T>(k: string) => tls[k] as T | undefined;
  return {
    id: Number(a.id),
    enumeration_id: a.enumeration_id,
    enumeration_name: a.enumeration_name,
    name: a.url ?? (a.port ? `${a.host}:${a.port}` : a.host),
    type: a.port === null ? 'dns' : a.status_code !== null ? 'http' : 'port',
    host: a.host,
    port: a.port ?? undefined,
    ip: a.ip,
    cname: a.cname,
    status_code: a.status_code ?? undefined,
    content_length: a.content_length ?? undefined,
    title: a.title ?? undefined,
    webserver: a.webserver ?? undefined,
    technologies: a.technologies,
    favicon: a.favicon ?? undefined,
    chain_status_codes: a.chain_status_codes.map(String),
    redirect_location: a.redirect_location ?? undefined,
    labels: a.labels,
    is_new: a.first_seen_run === a.enumeration_run,
    asset_hash: a.asset_key,
    domain_name: a.host,
    source: a.sources.map((s) => ({ source: s, metadata: {} })),
    is_screenshot: a.has_screenshot ?? false,
    tls_subject_cn: tlsField<string>('subject_cn'),
    tls_subject_org: tlsField<string>('subject_org'),
    tls_subject_an: tlsField<string[]>('subject_an'),
    tls_issuer_org: tlsField<string>('issuer_org'),
    tls_serial_number: tlsField<string>('serial_number'),
    tls_not_before: tlsField<string>('not_before'),
    tls_not_after: tlsField<string>('not_after'),
    tls_expired: tlsField<boolean>('expired'),
    tls_self_signed: tlsField<boolean>('self_signed'),
    tls_mismatched: tlsField<boolean>('mismatched'),
    tls_version: tlsField<string>('version'),
    tls_versions: tlsField<string[]>('versions'),
    created_at: iso(a.created_at)!,
    updated_at: iso(a.updated_at)!,
    last_seen_at: iso(a.last_seen_at)!,
    is_internal: false,
  };
}

export function changelogView(c: ChangelogRow) {
  const s = c.snapshot as Record<string, any>;
  return {
    id: Number(c.id),
    asset_id: c.asset_id,
    enumeration_id: c.enumeration_id,
    name: String(s.name ?? s.host ?? ''),
    event_type: c.event_type,
    run: c.run,
    host: s.host,
    port: s.port ?? undefined,
    ip: Array.isArray(s.ip) ? s.ip.join(',') : undefined,
    status_code: s.status_code ?? undefined,
    content_length: s.content_length ?? undefined,
    title: s.title ?? undefined,
    webserver: s.webserver ?? undefined,
    technologies: s.technologies ?? [],
    cname: s.cname ?? [],
    labels: s.labels ?? [],
    is_new: c.event_type === 'appeared',
    change_event: c.change_event,
    created_at: iso(c.created_at)!,
    updated_at: iso(c.created_at)!,
  };
}

export function policyView(p: PolicyRow) {
  return {
    id: p.id,
    name: p.name,
    policy_type: p.policy_type,
    policies: p.policies,
    alerting_config_ids: p.alerting_config_ids,
    labels: p.labels,
    enumeration_ids: p.enumeration_ids,
    metadata: p.metadata,
    apply_to_existing: p.apply_to_existing,
    created_at: iso(p.created_at)!,
    updated_at: iso(p.updated_at)!,
    last_executed_at: iso(p.last_executed_at),
  };
}

export function policyEventView(e: PolicyEventRow, policyName: string) {
  return {
    id: e.id,
    event_type: e.event_type,
    subject_type: 'asset_policy',
    subject_id: e.policy_id,
    subject_name: policyName,
    asset_policy_id: e.policy_id,
    status: e.status,
    error_message: e.error_message ?? undefined,
    message_payload: e.message_payload,
    created_at: iso(e.created_at)!,
    updated_at: iso(e.updated_at)!,
  };
}
