// How a scan applies its configs (resolved once by platform/configs/resolve.ts and passed in): the engine
// settings a scan runs with (scan configs), the templates template configs add, and the template filters
// of scan configs.
import yaml from 'js-yaml';
import type { Db } from '../../db/connection.ts';
import type { ScanOptions } from '../../engine/index.ts';
import type { ScanConfigs } from '../configs/resolve.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import { selectByTagsAndSeverity, tagsAndSeverity } from '../templates/store.ts';
import type { ScanTemplate } from './store.ts';

/** Engine settings of one scan: the runner's own options, plus how many chunks run at once. */
export interface EngineOptions extends Pick<
  ScanOptions,
  'concurrency' | 'bulkSize' | 'rateLimit' | 'timeout' | 'retries' | 'maxHostErrors' | 'vars' | 'headers'
> {
  /** Chunks of the scan that run at once across all workers; each gets rateLimit / parallelism. */
  parallelism?: number;
  /** socks5 proxy from a scan config (the scan's own socks5_proxy wins). */
  socks5Proxy?: string;
}

/** Platform defaults, overridable per deployment (VIGIL_SCAN_RATE_LIMIT and so on). */
export function defaultEngineOptions(env: NodeJS.ProcessEnv = process.env): EngineOptions {
  const num = (v: string | undefined, d: number) =>
    v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d;
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

// Scan config keys (nuclei's option names) mapped to runner options.
const NUMBERS: Record<string, keyof EngineOptions> = {
  'rate-limit': 'rateLimit',
  concurrency: 'concurrency',
  'bulk-size': 'bulkSize',
  timeout: 'timeout',
  retries: 'retries',
  'max-host-error': 'maxHostErrors',
  'chunk-parallelism': 'parallelism',
};

/** The engine settings for a new scan: defaults, then each applying scan config in order. */
export function engineOptionsFor(configs: ScanConfigs): EngineOptions {
  const out = defaultEngineOptions();
  for (const { doc } of configs.scan) {
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
export async function applyTemplateConfigs(
  db: Db,
  teamId: string,
  configs: ScanConfigs,
  templates: ScanTemplate[],
): Promise<ScanTemplate[]> {
  let list = [...templates];
  const seen = new Set(list.map((t) => t.templateId));
  for (const { doc: d } of configs.template) {
    const selectors = [...((d.ids as string[]) ?? []), ...((d.folders as string[]) ?? [])];
    const picked = new Map<number, { id: string; uri: string; pk: number; digest: string }>();
    if (selectors.length)
      for (const r of await resolveTemplates(db, teamId, { templates: selectors })) picked.set(r.pk, r);
    const tags = lower(d.tags);
    const sevs = lower(d.severities);
    if (tags.length || sevs.length) {
      for (const r of await selectByTagsAndSeverity(db, teamId, tags, sevs))
        picked.set(Number(r.pk), { ...r, pk: Number(r.pk) });
    }
    const own: ScanTemplate[] = [...picked.values()].map((r) => ({
      templateId: r.id,
      uri: r.uri,
      source: 'public',
      raw: '',
      refPk: r.pk,
      digest: r.digest,
    }));
    const filtered = await filterTemplates(db, own, {
      tags: [],
      severities: [],
      excludeTags: lower(d['exclude-tags']),
      excludeSeverities: lower(d['exclude-severities']),
      excludeIds: (d['exclude-ids'] as string[]) ?? [],
    });
    for (const t of filtered)
      if (!seen.has(t.templateId)) {
        seen.add(t.templateId);
        list.push(t);
      }
  }
  // Filters of the applying scan configs.
  for (const { doc: d } of configs.scan) {
    const f: TemplateFilter = {
      tags: lower(d.tags),
      excludeTags: lower(d['exclude-tags']),
      severities: lower(d.severity),
      excludeSeverities: lower(d['exclude-severity']),
      excludeIds: [],
    };
    if (f.tags.length || f.excludeTags.length || f.severities.length || f.excludeSeverities.length)
      list = await filterTemplates(db, list, f);
  }
  return list;
}

/** Keeps the templates that pass a filter; store templates are looked up by pk, inline ones parsed. */
async function filterTemplates(db: Db, list: ScanTemplate[], f: TemplateFilter): Promise<ScanTemplate[]> {
  const pks = list.flatMap((t) => (t.refPk !== undefined ? [t.refPk] : []));
  const meta = new Map<number, { tags: string[]; severity: string }>();
  if (pks.length) {
    for (const r of await tagsAndSeverity(db, pks)) meta.set(Number(r.pk), r);
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
    if (f.excludeIds.some((x) => t.templateId === x || t.uri === x || t.uri.startsWith(x.replace(/\/+$/, '') + '/')))
      return false;
    return true;
  });
}

function inlineMeta(raw: string): { tags: string[]; severity: string } {
  try {
    const info =
      ((yaml.load(raw, { schema: yaml.CORE_SCHEMA }) as { info?: { tags?: unknown; severity?: unknown } }) ?? {})
        .info ?? {};
    const tags = Array.isArray(info.tags)
      ? info.tags.map(String)
      : typeof info.tags === 'string'
        ? info.tags.split(',').map((s) => s.trim())
        : [];
    return { tags, severity: typeof info.severity === 'string' ? info.severity : 'unknown' };
  } catch {
    return { tags: [], severity: 'unknown' };
  }
}
