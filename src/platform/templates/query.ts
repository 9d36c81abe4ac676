// The search language of GET /v2/template/search `q`: free words plus `field:value` filters, all ANDed.
//   wordpress rce severity:critical,high tags:cve -type:workflow author:"pdteam" cve:CVE-2021-44228
// A comma inside a value means "any of"; a leading '-' negates a filter. Quotes keep spaces in a value.
import { badRequest } from '../shared/errors.ts';

export type FilterKind = 'text' | 'array' | 'bool' | 'upperArray';

/** Filter name in q -> column and how values compare. Aliases map to the same column. */
export const FILTERS: Record<string, { column: string; kind: FilterKind; lower?: boolean }> = {
  id: { column: 'id', kind: 'text' },
  severity: { column: 'severity', kind: 'text', lower: true },
  tags: { column: 'tags', kind: 'array', lower: true },
  tag: { column: 'tags', kind: 'array', lower: true },
  author: { column: 'author', kind: 'array' },
  type: { column: 'type', kind: 'text', lower: true },
  dir: { column: 'dir', kind: 'text' },
  vendor: { column: 'vendor', kind: 'text', lower: true },
  product: { column: 'product', kind: 'text', lower: true },
  is_new: { column: 'is_new', kind: 'bool' },
  is_early: { column: 'is_early', kind: 'bool' },
  template_type: { column: 'template_type', kind: 'text', lower: true },
  cve: { column: 'cve_ids', kind: 'upperArray' },
  cve_id: { column: 'cve_ids', kind: 'upperArray' },
  'cve-id': { column: 'cve_ids', kind: 'upperArray' },
};

export interface Filter {
  name: string;
  column: string;
  kind: FilterKind;
  values: string[];
  negate: boolean;
}

export interface ParsedQuery {
  /** Free words, lower case, as typed (e.g. "log4j", "cve-2021-44228"). */
  words: string[];
  filters: Filter[];
}

/** Splits q on spaces outside double quotes; quotes are removed. */
function tokens(q: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  let has = false;
  for (const ch of q) {
    if (ch === '"') {
      quoted = !quoted;
      has = true;
    } else if (!quoted && /\s/.test(ch)) {
      if (has) out.push(cur);
      cur = '';
      has = false;
    } else {
      cur += ch;
      has = true;
    }
  }
  if (quoted) throw badRequest('q has an unclosed double quote', 'q');
  if (has) out.push(cur);
  return out;
}

export function parseQuery(q: string | undefined): ParsedQuery {
  const parsed: ParsedQuery = { words: [], filters: [] };
  for (const token of tokens(q ?? '')) {
    const m = /^(-?)([A-Za-z_][\w-]*):(.*)$/s.exec(token);
    if (!m) {
      const word = token.trim().toLowerCase();
      if (word) parsed.words.push(word);
      continue;
    }
    const [, neg, rawName, rawValue] = m;
    const name = rawName!.toLowerCase();
    const spec = FILTERS[name];
    if (!spec) {
      throw badRequest(
        `unknown filter "${rawName}" in q; use one of ${[...new Set(Object.keys(FILTERS))].join(', ')}`,
        'q',
      );
    }
    const values = rawValue!
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    if (values.length === 0) throw badRequest(`filter "${rawName}" in q has no value`, 'q');
    const normalized = values.map((v) => {
      if (spec.kind === 'bool') {
        const b = v.toLowerCase();
        if (b !== 'true' && b !== 'false') throw badRequest(`filter "${rawName}" takes true or false, got "${v}"`, 'q');
        return b;
      }
      if (spec.kind === 'upperArray') return v.toUpperCase();
      return spec.lower ? v.toLowerCase() : v;
    });
    parsed.filters.push({ name, column: spec.column, kind: spec.kind, values: normalized, negate: neg === '-' });
  }
  return parsed;
}

/**
 * A free word as a prefix tsquery over the 'simple' configuration: "CVE-2021-4422" -> cve:* & 2021:* & 4422:*.
 * Only letters and digits reach the tsquery, so no input can break its syntax. Empty when the word has none.
 */
export function wordTsquery(word: string): string {
  const parts = word.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return parts.map((p) => `${p}:*`).join(' & ');
}
