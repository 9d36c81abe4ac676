// The ten facets of a search answer. Two sources give the same intermediate counts (facet-store.ts): the
// facet counts table (a search without q) and one aggregate query over the matching templates.
export interface FacetStats {
  buckets: Record<string, number>;
  missing: number;
  other: number;
  total: number;
}

export const FACET_KEYS = [
  'is_new',
  'creation_stats',
  'author',
  'is_early',
  'dir',
  'product',
  'severity',
  'tags',
  'type',
  'vendor',
] as const;
export type FacetKey = (typeof FACET_KEYS)[number];

/** Age buckets of creation_stats, newest first; each template falls in exactly one. */
export const CREATION_BUCKETS = ['last_week', 'last_month', 'last_year', 'older'] as const;

/** Facets whose buckets are the most frequent values; `array` ones count a template once per value. */
export const VALUE_FACETS: { key: FacetKey; expr: string; array?: boolean }[] = [
  { key: 'severity', expr: 'severity' },
  { key: 'type', expr: "NULLIF(type, '')" },
  { key: 'dir', expr: 'dir' },
  { key: 'vendor', expr: 'vendor' },
  { key: 'product', expr: 'product' },
  { key: 'tags', expr: 'tags', array: true },
  { key: 'author', expr: 'author', array: true },
];

/** What both sources deliver; `top` holds the top facet_size values of each value facet. */
export interface FacetCounts {
  total: number;
  /** Per value facet: templates without a value. */
  missing: Record<string, number>;
  /** Per value facet: values counted (templates with a value; for arrays the sum of their lengths). */
  valued: Record<string, number>;
  /** is_new / is_early -> { true: n, false: n }. */
  flags: Record<'is_new' | 'is_early', Record<'true' | 'false', number>>;
  ages: Record<string, number>;
  top: { facet: string; value: string; n: number }[];
}

export function emptyCounts(): FacetCounts {
  return {
    total: 0,
    missing: {},
    valued: {},
    flags: { is_new: { true: 0, false: 0 }, is_early: { true: 0, false: 0 } },
    ages: {},
    top: [],
  };
}

export function assembleFacets(c: FacetCounts, size: number): Record<FacetKey, FacetStats> {
  const facets = Object.fromEntries(
    FACET_KEYS.map((k) => [k, { buckets: {}, missing: 0, other: 0, total: c.total }]),
  ) as Record<FacetKey, FacetStats>;
  const shown: Record<string, number> = {};
  for (const row of c.top) {
    facets[row.facet as FacetKey].buckets[row.value] = row.n;
    shown[row.facet] = (shown[row.facet] ?? 0) + row.n;
  }
  for (const f of VALUE_FACETS) {
    facets[f.key].missing = c.missing[f.key] ?? 0;
    facets[f.key].other = (c.valued[f.key] ?? 0) - (shown[f.key] ?? 0);
  }
  for (const flag of ['is_new', 'is_early'] as const) {
    facets[flag].buckets = Object.fromEntries(
      (Object.entries(c.flags[flag]) as [string, number][])
        .filter(([, v]) => v > 0)
        .sort((x, y) => y[1] - x[1])
        .slice(0, size),
    );
    facets[flag].other = c.total - Object.values(facets[flag].buckets).reduce((x, y) => x + y, 0);
  }
  for (const age of CREATION_BUCKETS) facets.creation_stats.buckets[age] = c.ages[age] ?? 0;
  return facets;
}
