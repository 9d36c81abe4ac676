// Where a scan's targets and templates come from besides the request itself: the asset inventory and the
// template store. Both are other areas; this file is the one place the scans area talks to them.
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import { parseTemplate } from '../../engine/template/parse.ts';
import type { ScanTemplate } from './store.ts';
import { resolveTemplates } from '../templates/resolve.ts';
import { assetTargets, enumerationRefs, type AssetSelection } from '../assets/targets.ts';

export type { AssetSelection };
export { enumerationRefs };

/**
 * Targets from the asset inventory (src/platform/assets/targets.ts): the named assets, the assets of the
 * named enumerations, or all of the team's, narrowed by asset_filters. An unknown id is a 400 naming it.
 */
export async function resolveAssetTargets(db: Db, teamId: string, sel: AssetSelection): Promise<string[]> {
  return assetTargets(db, teamId, sel);
}

export interface TemplateSelection {
  templates: string[];
  earlyTemplates: string[];
  recommended: boolean;
  all: boolean;
}

export const hasStoreSelection = (s: TemplateSelection) => s.templates.length > 0 || s.earlyTemplates.length > 0 || s.recommended || s.all;

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
      throw badRequest(`private template "${t.name}": ${issue.field ? issue.field + ': ' : ''}${issue.reason}`, `private_templates[${i}].contents`);
    }
    if (!res.template || res.notTemplate) throw badRequest(`private template "${t.name}" is not a template`, `private_templates[${i}].contents`);
    return { templateId: res.template.id, uri: t.name, source: 'inline', raw: t.contents };
  });
}
