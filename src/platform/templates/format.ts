// Stored row -> the API's Template record, and the `fields` parameter (which record fields to return).
import { badRequest } from '../shared/errors.ts';
import type { TemplateRow } from './store.ts';

/** Every field of the Template record, and the column it is read from. */
export const RECORD_COLUMNS: Record<string, string> = {
  uri: 'uri',
  id: 'id',
  name: 'name',
  author: 'author',
  tags: 'tags',
  severity: 'severity',
  type: 'type',
  dir: 'dir',
  ref: 'ref',
  vendor: 'vendor',
  product: 'product',
  classification: 'classification',
  metadata: 'metadata',
  digest: 'digest',
  created_at: 'created_at',
  updated_at: 'updated_at',
  release_tag: 'release_tag',
  is_early: 'is_early',
  raw: 'raw',
  template_id: 'template_id',
  description: 'description',
  filename: 'filename',
  impact: 'impact',
  ai_meta: 'ai_meta',
  references: 'refs',
  template_type: 'template_type',
  is_draft: 'is_draft',
  is_github: 'is_github',
  is_new: 'is_new',
  is_svcteam: 'is_svcteam',
  remediation: 'remediation',
  // Vigil's own: whether a trusted key signed the template (its `# digest:` line), and whose.
  is_signed: 'signed_by',
  signed_by: 'signed_by',
};
export const RECORD_FIELDS = Object.keys(RECORD_COLUMNS);

/** `fields=id,name,tags` -> the field list; absent or empty -> every field. Unknown names are a 400. */
export function parseFields(fields: string | undefined): string[] {
  const list = (fields ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (list.length === 0) return RECORD_FIELDS;
  for (const f of list) {
    if (!(f in RECORD_COLUMNS))
      throw badRequest(`unknown field "${f}" in fields; known fields: ${RECORD_FIELDS.join(', ')}`, 'fields');
  }
  return [...new Set(list)];
}

/** The SELECT list for a set of record fields. */
export function columnsFor(fields: string[]): string {
  return [...new Set(fields.map((f) => RECORD_COLUMNS[f]!))].join(', ');
}

export type TemplateRecord = Record<string, unknown>;

/** Builds the record with only the wanted fields; NULL columns are left out rather than sent as null. */
export function toRecord(row: Partial<TemplateRow>, fields: string[] = RECORD_FIELDS): TemplateRecord {
  const out: TemplateRecord = {};
  for (const f of fields) {
    const v = (row as Record<string, unknown>)[RECORD_COLUMNS[f]!];
    if (f === 'is_signed') {
      out[f] = v !== null && v !== undefined;
      continue;
    }
    if (v === null || v === undefined) continue;
    out[f] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}
