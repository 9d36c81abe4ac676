// Where a scan's targets and templates come from besides the request itself: the asset inventory and the
// template store. Both are other areas; this file is the one place the scans area talks to them. The
// template store sits below scans and is imported; the asset inventory sits above (its enumerations start
// scans), so the assets area provides it when loaded (assets/targets.ts) and scans never imports assets.
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import { parseTemplate } from '../../engine/index.ts';
import type { ScanTemplate } from './store.ts';
import { resolveTemplates } from '../templates/resolve.ts';

/** The assets a scan request names. */
export interface AssetSelection {
  assets: string[];
  enumerationIds: string[];
  scanAllAssets: boolean;
  assetFilters?: Record<string, unknown>;
}

/** The spec's EnumerationRef (a scan's configuration shows those it names). */
export interface EnumerationRef {
  id: string;
  name: string;
  enumeration_type: string;
  cloudlist_provider_name?: string;
  types: string[];
  total_assets: number;
}

/** The asset inventory as the scans area reads it. */
export interface AssetInventory {
  targets(db: Db, teamId: string, sel: AssetSelection): Promise<string[]>;
  enumerationRefs(db: Db, teamId: string, ids: string[]): Promise<EnumerationRef[]>;
}

let inventory: AssetInventory | undefined;

/** Called once by the assets area when it loads (assets/targets.ts). */
export function provideAssetInventory(i: AssetInventory): void {
  inventory = i;
}

function assetInventory(): AssetInventory {
  if (!inventory)
    throw new Error('the asset inventory is not loaded: import src/platform/assets/targets.ts in this process');
  return inventory;
}

/**
 * Targets from the asset inventory: the named assets, the assets of the named enumerations, or all of the
 * team's, narrowed by asset_filters. An unknown id is a 400 naming it.
 */
export async function resolveAssetTargets(db: Db, teamId: string, sel: AssetSelection): Promise<string[]> {
  if (!sel.assets.length && !sel.enumerationIds.length && !sel.scanAllAssets && sel.assetFilters === undefined)
    return [];
  return assetInventory().targets(db, teamId, sel);
}

export async function enumerationRefs(db: Db, teamId: string, ids: string[]): Promise<EnumerationRef[]> {
  return ids.length ? assetInventory().enumerationRefs(db, teamId, ids) : [];
}

export interface TemplateSelection {
  templates: string[];
  earlyTemplates: string[];
  recommended: boolean;
  all: boolean;
}

export const hasStoreSelection = (s: TemplateSelection) =>
  s.templates.length > 0 || s.earlyTemplates.length > 0 || s.recommended || s.all;

/** Catalogue ids / paths / folders, private ids, early, recommended and all, through the template store. */
export async function resolveStoreTemplates(db: Db, teamId: string, sel: TemplateSelection): Promise<ScanTemplate[]> {
  if (!hasStoreSelection(sel)) return [];
  const rows = await resolveTemplates(db, teamId, {
    templates: sel.templates,
    early_templates: sel.earlyTemplates,
    recommended: sel.recommended,
    all: sel.all,
  });
  // Referenced by store row and digest; the chunk reads the text from the store (see store.loadTemplates).
  return rows.map((r) => ({ templateId: r.id, uri: r.uri, source: 'public', raw: '', refPk: r.pk, digest: r.digest }));
}

/** Inline templates of the request, checked with the engine's loader: a broken one is a 400 naming it. */
export function inlineTemplates(list: { name: string; contents: string }[]): ScanTemplate[] {
  return list.map((t, i) => {
    const res = parseTemplate(t.contents, t.name);
    const issue = res.issues[0];
    if (issue) {
      throw badRequest(
        `private template "${t.name}": ${issue.field ? issue.field + ': ' : ''}${issue.reason}`,
        `private_templates[${i}].contents`,
      );
    }
    if (!res.template || res.notTemplate)
      throw badRequest(`private template "${t.name}" is not a template`, `private_templates[${i}].contents`);
    return { templateId: res.template.id, uri: t.name, source: 'inline', raw: t.contents };
  });
}
