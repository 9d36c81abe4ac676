// Workflows in platform scans: the templates a scan's workflows name (by catalogue path, folder or tag)
// are read from the public catalogue when the chunk loads its templates, and handed to the engine with
// the scan's own templates, marked as dependencies: they run only when a workflow calls them.
import type { Db } from '../../db/connection.ts';
import { parseTemplate, workflowRefs } from '../../engine/index.ts';
import type { ScanTemplate } from './store.ts';
import { workflowTemplates } from '../templates/store.ts';

/** At most this many templates are loaded for the workflows of one scan. */
const MAX_DEPENDENCIES = 5_000;

export interface DependencyTemplate {
  raw: string;
  uri: string;
  payloadFiles?: Record<string, string[]>;
}

export async function workflowDependencies(db: Db, rows: ScanTemplate[]): Promise<DependencyTemplate[]> {
  const paths = new Set<string>();
  const tags = new Set<string>();
  for (const r of rows) {
    if (!/^workflows\s*:/m.test(r.raw)) continue;
    const t = parseTemplate(r.raw, r.uri).template;
    if (!t?.workflows?.length) continue;
    const refs = workflowRefs(t.workflows);
    refs.paths.forEach((p) => paths.add(p));
    refs.tags.forEach((x) => tags.add(x.toLowerCase()));
  }
  if (paths.size === 0 && tags.size === 0) return [];
  const found = await workflowTemplates(db, [...paths], [...tags], MAX_DEPENDENCIES);
  return found.map((f) => ({ raw: f.raw, uri: f.uri, ...(f.payload_files ? { payloadFiles: f.payload_files } : {}) }));
}
