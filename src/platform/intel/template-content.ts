// The content of linked templates: the 'template' fact of a CVE holds only the link (uri, digest, flags);
// records are computed from the template store's row it points to.
import type { Db } from '../../db/connection.ts';
import type { CveFacts, TemplateFact, TemplateLink } from './facts.ts';
import { publicContents } from '../templates/store.ts';

/**
 * Replaces the stored links of a batch of facts by the full templates read from the store. A link whose
 * template has meanwhile left the catalogue is dropped (the next relink removes it for good).
 */
export async function attachTemplates(db: Db, facts: Map<string, CveFacts>): Promise<void> {
  const uris = new Set<string>();
  // Only CVEs with a record need the content (a CVE feed describes them); links of the others wait.
  const wanted = (f: CveFacts): f is CveFacts & { template: TemplateLink } => !!f.template && !!(f.cve5 || f.nvd2);
  for (const f of facts.values()) if (wanted(f)) uris.add(f.template.uri);
  if (!uris.size) return;
  const byUri = new Map((await publicContents(db, [...uris])).map((r) => [r.uri, r]));
  for (const f of facts.values()) {
    if (!wanted(f)) continue;
    const row = byUri.get(f.template.uri);
    if (!row) {
      delete (f as CveFacts).template;
      continue;
    }
    const full: TemplateFact = {
      ...(f.template as TemplateLink),
      id: row.id,
      name: row.name ?? undefined,
      severity: row.severity?.toLowerCase() ?? undefined,
      type: row.type || undefined,
      description: row.description ?? undefined,
      impact: row.impact ?? undefined,
      remediation: row.remediation ?? undefined,
      author: row.author,
      tags: row.tags,
      classification: row.classification ?? {},
      metadata: row.metadata ?? {},
      ai_meta: row.ai_meta ?? undefined,
      raw: row.raw,
    };
    f.template = full;
  }
}
