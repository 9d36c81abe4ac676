// Which templates a scan runs: the scans area turns the request's template selectors into template texts.
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import * as store from './store.ts';

export interface TemplateSelectors {
  /** Catalogue template ids, catalogue paths (uri), folders (uri prefix, e.g. "http/cves/2021"),
   *  and the team's private templates (template_id, or the template's own id). */
  templates?: string[];
  /** Early-access catalogue templates by id, path or folder; "all" selects every early template. */
  early_templates?: string[];
  /** The catalogue minus info severity, only what the engine runs (RECOMMENDED_TYPES, no flow), without RECOMMENDED_EXCLUDED_TAGS. */
  recommended?: boolean;
  /** Every generally available catalogue template (not early ones, not private ones). */
  all?: boolean;
}

/** A template a selector chose: its store row and digest (scans reference it; the text stays in the store). */
export interface ResolvedTemplate {
  id: string;
  uri: string;
  pk: number;
  digest: string;
}

// Recommended scans select only templates this engine runs: http ones without flow (tcp and javascript
// join when their protocols are built). A template the scan cannot run is never chosen for it.
export const RECOMMENDED_TYPES = ['http'];
export const RECOMMENDED_EXCLUDED_TAGS = ['tech', 'dos', 'fuzz', 'creds-stuffing', 'token-spray', 'osint'];

const norm = (s: string) => s.trim().replace(/^\.\//, '').replace(/\/+$/, '');

/**
 * Resolves selectors to a de-duplicated list ordered by uri. A selector that matches nothing is a 400
 * naming it (param `templates` or `early_templates`), so a typo never silently scans with fewer templates.
 */
export async function resolveTemplates(
  db: Db,
  teamId: string,
  selectors: TemplateSelectors,
): Promise<ResolvedTemplate[]> {
  const found = new Map<number, ResolvedTemplate>();
  const keep = (rows: ResolvedTemplate[]) => {
    for (const r of rows) found.set(Number(r.pk), { id: r.id, uri: r.uri, pk: Number(r.pk), digest: r.digest });
  };

  if (selectors.all) {
    keep(await store.generalTemplates(db));
  } else if (selectors.recommended) {
    keep(await store.recommendedTemplates(db, RECOMMENDED_TYPES, RECOMMENDED_EXCLUDED_TAGS));
  }

  const named = [...new Set((selectors.templates ?? []).map(norm).filter(Boolean))];
  if (named.length) {
    const rows = await store.matchSelectors(db, named, teamId);
    unmatched(rows, 'templates', 'matches no catalogue template, catalogue folder or private template');
    keep(rows.filter((r) => r.pk !== null) as ResolvedTemplate[]);
  }

  const early = [...new Set((selectors.early_templates ?? []).map(norm).filter(Boolean))];
  if (early.length) {
    const rows = await store.matchEarlySelectors(db, early);
    unmatched(rows, 'early_templates', 'matches no early-access template');
    keep(rows.filter((r) => r.pk !== null) as ResolvedTemplate[]);
  }

  return [...found.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
}

function unmatched(rows: { sel: string; pk: number | null }[], param: string, what: string): void {
  const missing = [...new Set(rows.filter((r) => r.pk === null).map((r) => r.sel))];
  if (missing.length) throw badRequest(`${param}: ${missing.map((m) => `"${m}"`).join(', ')} ${what}`, param);
}
