// Links CVEs to templates of the public catalogue in the template store (table `templates`, rows with
// team_id NULL, CVEs in cve_ids). The link is kept as the 'template' fact of each CVE; only its key
// (uri, digest, flags) is stored, and the template's content is read from the store when a record is
// computed. `vigil templates import` calls relinkTemplates after changing the catalogue; intel imports
// call linkTemplateFacts themselves.
import type { Db } from '../../db/connection.ts';
import type { TemplateLink } from './facts.ts';
import { recompute } from './recompute.ts';
import * as store from './store.ts';
import { publicCveTemplates } from '../templates/store.ts';

interface Candidate extends TemplateLink {
  cve_ids: string[];
}

/**
 * Of the templates naming a CVE, the one that is about it: generally available before early access, a
 * file named after the CVE, then one in a cves/ folder, then the http protocol, then the first path.
 * (Several templates name CVE-2021-44228, for example, but http/cves/2021/CVE-2021-44228.yaml is its own.)
 */
function rank(cveId: string, c: Candidate): (number | string)[] {
  const base = c.uri
    .slice(c.uri.lastIndexOf('/') + 1)
    .replace(/\.ya?ml$/i, '')
    .toUpperCase();
  return [
    c.is_early ? 1 : 0,
    base === cveId ? 0 : base.startsWith(cveId) ? 1 : 2,
    c.uri.includes('/cves/') ? 0 : 1,
    c.uri.startsWith('http/') ? 0 : 1,
    c.uri,
  ];
}

function better(cveId: string, a: Candidate, b: Candidate): boolean {
  const ra = rank(cveId, a);
  const rb = rank(cveId, b);
  for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! < rb[i]!;
  return false;
}

const CVE = /^CVE-\d{4}-\d{4,}$/;

/** Chooses the linked template of every CVE named by the public catalogue. */
export async function chooseLinks(db: Db): Promise<Map<string, TemplateLink>> {
  // A template names its CVEs in classification.cve-id; some CVE templates only carry the CVE as their id.
  const best = new Map<string, Candidate>();
  for (const { id: templateId, ...row } of await publicCveTemplates(db)) {
    const c: Candidate = { ...row, created_at: new Date(row.created_at).toISOString() };
    for (const raw of [...c.cve_ids, templateId]) {
      const id = raw.trim().toUpperCase();
      if (!CVE.test(id)) continue;
      const seen = best.get(id);
      if (!seen || better(id, c, seen)) best.set(id, c);
    }
  }
  const out = new Map<string, TemplateLink>();
  for (const [id, { cve_ids: _ids, ...link }] of best) out.set(id, link);
  return out;
}

/**
 * Brings the 'template' facts in line with the catalogue: new and changed links are written, links to
 * templates gone from the catalogue are removed. Returns the CVEs whose link changed (their records need
 * recomputing).
 */
export async function linkTemplateFacts(db: Db): Promise<string[]> {
  const links = await chooseLinks(db);
  const rows = [...links].map(([cve_id, data]) => ({ cve_id, data }));
  const changed: string[] = [];
  for (let i = 0; i < rows.length; i += 1000)
    changed.push(...(await store.upsertFacts(db, 'template', rows.slice(i, i + 1000))));
  changed.push(...(await store.deleteFactsExcept(db, 'template', [...links.keys()])));
  return changed;
}

/**
 * Re-links every CVE record to the template catalogue and recomputes the records whose link changed.
 * For the template importer to call after each catalogue import. Returns how many records changed.
 */
export async function relinkTemplates(db: Db): Promise<{ links_changed: number; records_changed: number }> {
  const changed = await linkTemplateFacts(db);
  return { links_changed: changed.length, records_changed: changed.length ? await recompute(db, changed) : 0 };
}
