// The team's scan settings (the hosted platform's /v1/scans/config/exclude and /severity): exclusions every
// scan applies when it plans its targets and templates, and severity overrides applied to findings (stored
// ones at once, new ones as they are written). /verify (check a config, send a test) is monitor/verify.ts.
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { SEVERITIES } from '../configs/documents.ts';
import { scopeFilter } from './targets.ts';
import { recountResults } from './store.ts';
import * as store from './settings-store.ts';

export const EXCLUDE_TYPES = ['scan_target', 'template', 'enumeration_target'] as const;
export type ExcludeType = (typeof EXCLUDE_TYPES)[number];

const iso = (d: Date) => new Date(d).toISOString();

export async function listExcludes(ctx: AppContext, teamId: string) {
  const rows = await store.listExcludes(ctx.db, teamId);
  return {
    data: rows.map((r) => ({
      id: Number(r.id),
      value: r.value,
      exclude_type: r.exclude_type as ExcludeType,
      ...(r.scan_id ? { scan_id: r.scan_id } : {}),
      ...(r.enumeration_id ? { enumeration_id: r.enumeration_id } : {}),
      created_at: iso(r.created_at),
      updated_at: iso(r.updated_at),
    })),
  };
}

export interface ExcludeBody {
  values: string[];
  exclude_type: ExcludeType;
  scan_ids?: string[];
  enumeration_ids?: string[];
}

/** Adds rules: each value once per scope (every scan, the scans named, or the enumerations named). */
export async function addExcludes(ctx: AppContext, teamId: string, body: ExcludeBody): Promise<number> {
  const values = [...new Set(body.values.map((v) => v.trim()))];
  if (!values.length || values.some((v) => !v)) throw badRequest('values must hold non-empty values', 'values');
  values.forEach((v, i) => {
    if (/\s/.test(v))
      throw badRequest(`"${v}" contains spaces; a template id, path or target pattern has none`, `values[${i}]`);
  });
  // Target rules are exclusion patterns, checked as a scan's own exclusions are (host, *.domain, IP, CIDR, URL).
  if (body.exclude_type !== 'template') scopeFilter(values.map((value, i) => ({ value, param: `values[${i}]` })));
  const scanIds = [...new Set(body.scan_ids ?? [])];
  if (scanIds.length) {
    const mine = new Set(await store.teamScanIds(ctx.db, teamId, scanIds));
    const missing = scanIds.filter((id) => !mine.has(id));
    if (missing.length) throw notFound(`scan ${missing[0]} not found`, 'scan_ids');
  }
  const enumIds = [...new Set(body.enumeration_ids ?? [])];
  const scopes: { scanId: string | null; enumerationId: string | null }[] = [
    ...scanIds.map((scanId) => ({ scanId, enumerationId: null })),
    ...enumIds.map((enumerationId) => ({ scanId: null, enumerationId })),
  ];
  if (!scopes.length) scopes.push({ scanId: null, enumerationId: null });
  return store.insertExcludes(
    ctx.db,
    teamId,
    values.flatMap((value) => scopes.map((s) => ({ type: body.exclude_type, value, ...s }))),
  );
}

/** Deletes the team's rules; an id that is not one of them is a 404 and nothing is deleted. */
export async function deleteExcludes(ctx: AppContext, teamId: string, ids: number[]): Promise<number> {
  const wanted = [...new Set(ids.map(String))];
  const mine = new Set(await store.teamExcludeIds(ctx.db, teamId, wanted));
  const missing = wanted.filter((id) => !mine.has(id));
  if (missing.length) throw notFound(`exclusion ${missing[0]} not found`, 'ids');
  return store.deleteExcludes(ctx.db, teamId, wanted);
}

/** The exclusions a scan applies when it plans a run: target patterns and template ids or paths. */
export async function scanExclusions(
  ctx: Pick<AppContext, 'db'>,
  teamId: string,
  scanId: string | undefined,
): Promise<{ targets: string[]; templates: string[] }> {
  const rows = await store.excludesForScan(ctx.db, teamId, scanId);
  return {
    targets: rows.filter((r) => r.exclude_type === 'scan_target').map((r) => r.value),
    templates: rows.filter((r) => r.exclude_type === 'template').map((r) => r.value),
  };
}

/** True when an excluded template value names this template: its id, its path, or a folder of it. */
export function templateExcluded(t: { templateId: string; uri: string }, values: string[]): boolean {
  return values.some((v) => t.templateId === v || t.uri === v || t.uri.startsWith(v.replace(/\/+$/, '') + '/'));
}

// ---- severity overrides ----

const SEVERITY_SET = new Set<string>(SEVERITIES);

function overrideItem(r: store.OverrideRow) {
  return {
    id: Number(r.id),
    template_id: r.template_id,
    original_severity: r.original_severity,
    custom_severity: r.custom_severity,
    ...(r.vuln_id ? { vuln_id: r.vuln_id } : {}),
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

export async function listOverrides(ctx: AppContext, teamId: string) {
  return { custom_severity_mappings: (await store.listOverrides(ctx.db, teamId)).map(overrideItem) };
}

export interface OverrideBody {
  template_id: string;
  custom_severity: string;
  vuln_id?: string;
}

/** The checked override: a known severity, and a template (or finding of it) the team has. */
async function checkOverride(ctx: AppContext, teamId: string, body: OverrideBody) {
  const custom = body.custom_severity.trim().toLowerCase();
  if (!SEVERITY_SET.has(custom))
    throw badRequest(`custom_severity must be one of ${SEVERITIES.join(', ')}`, 'custom_severity');
  const templateId = body.template_id.trim();
  if (!templateId) throw badRequest('template_id is empty', 'template_id');
  if (body.vuln_id) {
    const f = /^[1-9]\d{0,17}$/.test(body.vuln_id)
      ? await store.findingForOverride(ctx.db, teamId, body.vuln_id)
      : undefined;
    if (!f) throw notFound(`finding ${body.vuln_id} not found`, 'vuln_id');
    if (f.template_id !== templateId)
      throw badRequest(`finding ${body.vuln_id} is of template ${f.template_id}, not ${templateId}`, 'vuln_id');
    return { templateId, vulnId: body.vuln_id, original: f.severity, custom };
  }
  const original = await store.engineSeverity(ctx.db, teamId, templateId);
  if (!original)
    throw notFound(`template ${templateId} not found in the catalogue or the team's findings`, 'template_id');
  return { templateId, vulnId: null, original, custom };
}

async function apply(ctx: AppContext, teamId: string, templateIds: string[]): Promise<void> {
  const scans = await store.reapplyOverrides(ctx.db, teamId, [...new Set(templateIds)]);
  for (const scanId of scans) await recountResults(ctx.db, scanId);
}

export async function addOverride(ctx: AppContext, teamId: string, body: OverrideBody): Promise<number> {
  const o = await checkOverride(ctx, teamId, body);
  const id = await ctx.db.transaction(async (tx) => {
    const id = await store.upsertOverride(tx, { teamId, ...o });
    await apply({ ...ctx, db: tx }, teamId, [o.templateId]);
    return id;
  });
  return Number(id);
}

export async function changeOverride(ctx: AppContext, teamId: string, id: string, body: OverrideBody): Promise<void> {
  const before = /^[1-9]\d{0,17}$/.test(id) ? await store.getOverride(ctx.db, teamId, id) : undefined;
  if (!before) throw notFound(`severity mapping ${id} not found`, 'config_id');
  const o = await checkOverride(ctx, teamId, body);
  await ctx.db.transaction(async (tx) => {
    await store.updateOverride(tx, teamId, id, o);
    await apply({ ...ctx, db: tx }, teamId, [before.template_id, o.templateId]);
  });
}

export async function deleteOverrides(ctx: AppContext, teamId: string, ids: number[]): Promise<number> {
  const wanted = [...new Set(ids.map(String))];
  const mine = new Set(await store.teamOverrideIds(ctx.db, teamId, wanted));
  const missing = wanted.filter((id) => !mine.has(id));
  if (missing.length) throw notFound(`severity mapping ${missing[0]} not found`, 'ids');
  return ctx.db.transaction(async (tx) => {
    const templates = await store.deleteOverrides(tx, teamId, wanted);
    await apply({ ...ctx, db: tx }, teamId, templates);
    return templates.length;
  });
}
