// Scan configurations as the scans area uses them: the engine settings a scan runs with (scan configs),
// the templates template configs add, the template filters of scan configs, and the names of the configs a
// scan references. The configs themselves live in src/platform/monitor/ (table `configs`).
import yaml from 'js-yaml';
import type { Db } from '../../db/connection.ts';
import type { ScanOptions } from '../../engine/runner/types.ts';
import { badRequest } from '../shared/errors.ts';
import { configsFor, type ConfigRow } from '../monitor/config-store.ts';
import { CONFIG_TYPES } from '../monitor/config-schemas.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import type { ScanTemplate } from './store.ts';

/** Engine settings of one scan: the runner's own options, plus how many chunks run at once. */
export interface EngineOptions
  extends Pick<ScanOptions, 'concurrency' | 'bulkSize' | 'rateLimit' | 'timeout' | 'retries' | 'maxHostErrors' | 'vars' | 'headers'> {
  /** Chunks of the scan that run at once across all workers; each gets rateLimit / parallelism. */
  parallelism?: number;
  /** socks5 proxy from a scan config (the scan's own socks5_proxy wins). */
  socks5Proxy?: string;
}

/** Platform defaults, overridable per deployment (VIGIL_SCAN_RATE_LIMIT and so on). */
export function defaultEngineOptions(env: NodeJS.ProcessEnv = process.env): EngineOptions {
  const num = (v: string | undefined, d: number) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
  return {
    concurrency: num(env.VIGIL_SCAN_CONCURRENCY, 25),
    bulkSize: num(env.VIGIL_SCAN_BULK_SIZE, 25),
    rateLimit: num(env.VIGIL_SCAN_RATE_LIMIT, 150),
    timeout: num(env.VIGIL_SCAN_TIMEOUT, 10),
    retries: num(env.VIGIL_SCAN_RETRIES, 1),
    // Fixed when the scan is created, so every worker agrees on the scan's slot count.
    parallelism: num(env.VIGIL_SCAN_CHUNK_PARALLELISM, 4),
  };
}

export interface ConfigSelection {
  scan_config_ids?: string[];
  reporting_config_ids?: string[];
  alerting_config_ids?: string[];
  disable_global_scan_config?: boolean;
}

function parse(c: ConfigRow): Record<string, unknown> {
  try {
    const doc = yaml.load(c.config, { schema: yaml.CORE_SCHEMA });
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  } catch {
    return {}; // stored configs were checked when written
  }
}

/**
 * Every referenced config id must be a config of the team of the right type: `scan_config_ids` takes scan
 * and template configs, the others their own type. A wrong one is a 400 naming it.
 */
export async function checkConfigRefs(db: Db, teamId: string, body: ConfigSelection): Promise<void> {
  const lists: [keyof ConfigSelection, string[]][] = [
    ['scan_config_ids', ['scan', 'template', 'remediation', 'vuln_score']],
    ['reporting_config_ids', ['reporting']],
    ['alerting_config_ids', ['alerting']],
  ];
  for (const [field, types] of lists) {
    const ids = (body[field] as string[] | undefined) ?? [];
    if (!ids.length) continue;
    const found = new Set((await configsFor(db, teamId, ids, types, false)).map((c) => c.id));
    const bad = ids.findIndex((id) => !found.has(id));
    if (bad >= 0) throw badRequest(`${field}[${bad}]: no ${types.join(' or ')} config "${ids[bad]}" in this team`, `${field}[${bad}]`);
  }
}

/** The scan configs that apply to a scan: those it names, then the team's global ones unless disabled. */
async function scanConfigs(db: Db, teamId: string, body: ConfigSelection): Promise<ConfigRow[]> {
  const rows = await configsFor(db, teamId, body.scan_config_ids ?? [], ['scan'], !body.disable_global_scan_config);
  // Globals first, then the scan's own in the order it lists them, so the scan's own settings win.
  const order = body.scan_config_ids ?? [];
  return [...rows.filter((r) => !order.includes(r.id)), ...order.flatMap((id) => rows.filter((r) => r.id === id))];
}

// Scan config keys (nuclei's option names) mapped to runner options.
const NUMBERS: Record<string, keyof EngineOptions> = {
  'rate-limit': 'rateLimit', concurrency: 'concurrency', 'bulk-size': 'bulkSize', timeout: 'timeout', retries: 'retries',
  'max-host-error': 'maxHostErrors', 'chunk-parallelism': 'parallelism',
};

/** The engine settings for a new scan: defaults, then each applying scan config in order. */
export async function engineOptionsFor(db: Db, teamId: string, body: ConfigSelection): Promise<EngineOptions> {
  const out = defaultEngineOptions();
  for (const c of await scanConfigs(db, teamId, body)) {
    const doc = parse(c);
    for (const [k, v] of Object.entries(doc)) {
      const key = NUMBERS[k];
      if (key && Number.isFinite(Number(v))) (out as Record<string, number>)[key] = Number(v);
    }
    for (const kv of (doc.var as string[] | undefined) ?? []) {
      const i = kv.indexOf('=');
      out.vars = { ...(out.vars ?? {}), [kv.slice(0, i)]: kv.slice(i + 1) };
    }
    for (const h of (doc.header as string[] | undefined) ?? []) {
      const i = h.indexOf(':');
      out.headers = [...(out.headers ?? []), [h.slice(0, i).trim(), h.slice(i + 1).trim()]];
    }
    if (typeof doc.proxy === 'string') out.socks5Proxy = doc.proxy;
  }
  return out;
}

interface TemplateFilter {
  tags: string[];
  excludeTags: string[];
  severities: string[];
  excludeSeverities: string[];
  excludeIds: string[];
}

const lower = (v: unknown) => ((v as string[] | undefined) ?? []).map((s) => String(s).toLowerCase());

/**
 * Templates a scan's configs add (template configs in scan_config_ids), and the scan configs' filters
 * (tags, exclude-tags, severity, exclude-severity) applied to the whole template list.
 */
export async function applyTemplateConfigs(db: Db, teamId: string, body: ConfigSelection, templates: ScanTemplate[]): Promise<ScanTemplate[]> {
  const ids = body.scan_config_ids ?? [];
  const tplConfigs = ids.length ? await configsFor(db, teamId, ids, ['template'], false) : [];
  let list = [...templates];
  const seen = new Set(list.map((t) => t.templateId));
  for (const c of tplConfigs) {
    const d = parse(c);
    const selectors = [...((d.ids as string[]) ?? []), ...((d.folders as string[]) ?? [])];
    const picked = new Map<number, { id: string; uri: string; pk: number; digest: string }>();
    if (selectors.length) for (const r of await resolveTemplates(db, teamId, { templates: selectors })) picked.set(r.pk, r);
    const tags = lower(d.tags);
    const sevs = lower(d.severities);
    if (tags.length || sevs.length) {
      const { rows } = await db.query<{ pk: number; id: string; uri: string; digest: string }>(
        `SELECT pk, id, uri, digest FROM templates
         WHERE ((team_id IS NULL AND NOT is_early) OR team_id = $1)
           AND ($2::text[] = '{}' OR tags && $2::text[]) AND ($3::text[] = '{}' OR severity = ANY($3::text[]))
         ORDER BY uri LIMIT 100000`,
        [teamId, tags, sevs],
      );
      for (const r of rows) picked.set(Number(r.pk), { ...r, pk: Number(r.pk) });
    }
    const own: ScanTemplate[] = [...picked.values()].map((r) => ({ templateId: r.id, uri: r.uri, source: 'public', raw: '', refPk: r.pk, digest: r.digest }));
    const filtered = await filterTemplates(db, own, {
      tags: [], severities: [], excludeTags: lower(d['exclude-tags']), excludeSeverities: lower(d['exclude-severities']),
      excludeIds: (d['exclude-ids'] as string[]) ?? [],
    });
    for (const t of filtered) if (!seen.has(t.templateId)) { seen.add(t.templateId); list.push(t); }
  }
  // Filters of the applying scan configs.
  for (const c of await scanConfigs(db, teamId, body)) {
    const d = parse(c);
    const f: TemplateFilter = {
      tags: lower(d.tags), excludeTags: lower(d['exclude-tags']), severities: lower(d.severity),
      excludeSeverities: lower(d['exclude-severity']), excludeIds: [],
    };
    if (f.tags.length || f.excludeTags.length || f.severities.length || f.excludeSeverities.length) list = await filterTemplates(db, list, f);
  }
  return list;
}

/** Keeps the templates that pass a filter; store templates are looked up by pk, inline ones parsed. */
async function filterTemplates(db: Db, list: ScanTemplate[], f: TemplateFilter): Promise<ScanTemplate[]> {
  const pks = list.flatMap((t) => (t.refPk !== undefined ? [t.refPk] : []));
  const meta = new Map<number, { tags: string[]; severity: string }>();
  if (pks.length) {
    const { rows } = await db.query<{ pk: number; tags: string[]; severity: string }>('SELECT pk, tags, severity FROM templates WHERE pk = ANY($1::bigint[])', [pks]);
    for (const r of rows) meta.set(Number(r.pk), r);
  }
  return list.filter((t) => {
    let m = t.refPk !== undefined ? meta.get(t.refPk) : undefined;
    if (!m) m = inlineMeta(t.raw);
    const tags = m.tags.map((x) => x.toLowerCase());
    const sev = m.severity.toLowerCase();
    if (f.tags.length && !tags.some((x) => f.tags.includes(x))) return false;
    if (f.excludeTags.some((x) => tags.includes(x))) return false;
    if (f.severities.length && !f.severities.includes(sev)) return false;
    if (f.excludeSeverities.includes(sev)) return false;
    if (f.excludeIds.some((x) => t.templateId === x || t.uri === x || t.uri.startsWith(x.replace(/\/+$/, '') + '/'))) return false;
    return true;
  });
}

function inlineMeta(raw: string): { tags: string[]; severity: string } {
  try {
    const info = ((yaml.load(raw, { schema: yaml.CORE_SCHEMA }) as { info?: { tags?: unknown; severity?: unknown } }) ?? {}).info ?? {};
    const tags = Array.isArray(info.tags) ? info.tags.map(String) : typeof info.tags === 'string' ? info.tags.split(',').map((s) => s.trim()) : [];
    return { tags, severity: typeof info.severity === 'string' ? info.severity : 'unknown' };
  } catch {
    return { tags: [], severity: 'unknown' };
  }
}

/**
 * ConfigRef records ({id, name, config_type, provider_name}): the referenced ids in request order, then the
 * team's global configs of the type that apply too (unless the scan disabled them).
 */
export async function configRefs(db: Db, teamId: string, ids: string[], type: string, withGlobal = false) {
  const types = [type, ...(type === 'scan' ? ['template', 'remediation', 'vuln_score'] : [])];
  const rows = ids.length || withGlobal ? await configsFor(db, teamId, ids, types, withGlobal) : [];
  const found = new Map(rows.map((c) => [c.id, c]));
  const ref = (c: ConfigRow | undefined, id: string) => ({ id, name: c?.name ?? id, config_type: c?.config_type ?? type, provider_name: c?.provider_name ?? '' });
  // Global configs that apply through the same flag: scan, remediation and vuln_score ones for scans.
  const globalTypes = type === 'scan' ? ['scan', 'remediation', 'vuln_score'] : [type];
  const globals = rows.filter((c) => c.is_global && globalTypes.includes(c.config_type) && !ids.includes(c.id));
  return [...ids.map((id) => ref(found.get(id), id)), ...globals.map((c) => ref(c, c.id))];
}

/** The team's configs of the given ids, any type (the assets area reads subfinder credentials with it). */
export async function loadConfigs(db: Db, teamId: string, ids: string[]): Promise<ConfigRow[]> {
  if (ids.length === 0) return [];
  return configsFor(db, teamId, ids, [...CONFIG_TYPES], false);
}
