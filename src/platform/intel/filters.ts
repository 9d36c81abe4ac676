// GET /v2/vulnerability/filters: the fields of the vulnerability search language, described from the
// tables the search itself uses (query.ts's fields and sorts, service.ts's facets), so the list cannot
// drift from what search accepts.
import { SEARCH_FIELDS, SORT_FIELDS } from './query.ts';
import { RANGES, TERM_FACETS } from './service.ts';
import { SEVERITIES } from '../configs/documents.ts';

const DATA_TYPES = {
  text: 'string',
  num: 'number',
  bool: 'boolean',
  date: 'datetime',
  array: 'array',
  age: 'number',
  contains: 'string',
} as const;

const EXAMPLES: Record<keyof typeof DATA_TYPES, (f: string) => string[]> = {
  text: (f) => [`${f}:value`, `${f}:val*`],
  num: (f) => [`${f}:>7`, `${f}:<=3`],
  bool: (f) => [`${f}:true`],
  date: (f) => [`${f}:>2024-01-01`],
  array: (f) => [`${f}:CWE-79`],
  age: (f) => [`${f}:<30`],
  contains: (f) => [`${f}:"remote code"`],
};

export function vulnerabilityFilters() {
  return Object.entries(SEARCH_FIELDS).map(([field, f]) => ({
    field,
    data_type: DATA_TYPES[f.kind],
    description:
      f.kind === 'contains'
        ? `words in the ${field} (free-text match)`
        : f.kind === 'age'
          ? 'days since the CVE was published'
          : `the vulnerability's ${field.replace(/_/g, ' ')}`,
    facet_possible: TERM_FACETS.includes(field) || field in RANGES,
    can_sort: field in SORT_FIELDS,
    examples: EXAMPLES[f.kind](field),
    search_analyzer: f.kind === 'contains' ? 'standard' : 'keyword',
    enum_values: field === 'severity' ? [...SEVERITIES] : f.kind === 'bool' ? ['true', 'false'] : [],
  }));
}
