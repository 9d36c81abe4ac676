// The ten facets of a search answer. Two sources give the same intermediate counts: the facet counts
// table (facet-counts.ts, a search without q) and one aggregate query over the matching templates (here).
import type { Db } from '../../db/connection.ts';

export interface FacetStats {
  buckets: Record<string, number>;
  missing: number;
  other: number;
  total: number;
}

export const FACET_KEYS = ['is_new', 'creation_stats', 'author', 'is_early', 'dir', 'product', 'severity', 'tags', 'type', 'vendor'] as const;
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

/** Lower age limits of the creation_stats buckets (older has none), as one-time subqueries of now(). */
const AGE_LIMITS: Record<string, string | null> = {
  last_week: "(SELECT now() - interval '7 days')",
  last_month: "(SELECT now() - interval '30 days')",
  last_year: "(SELECT now() - interval '365 days')",
  older: null,
};

/** SQL condition: created_at falls in the bucket (between its limit and the previous bucket's). */
function ageFilterSql(bucket: string): string {
  const i = CREATION_BUCKETS.indexOf(bucket as (typeof CREATION_BUCKETS)[number]);
  const lower = AGE_LIMITS[bucket];
  const upper = i > 0 ? AGE_LIMITS[CREATION_BUCKETS[i - 1]!] : null;
  return [lower && `created_at >= ${lower}`, upper && `created_at < ${upper}`].filter(Boolean).join(' AND ');
}

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
    total: 0, missing: {}, valued: {}, flags: { is_new: { true: 0, false: 0 }, is_early: { true: 0, false: 0 } }, ages: {}, top: [],
  };
}

export function assembleFacets(c: FacetCounts, size: number): Record<FacetKey, FacetStats> {
  const facets = Object.fromEntries(FACET_KEYS.map((k) => [k, { buckets: {}, missing: 0, other: 0, total: c.total }])) as Record<FacetKey, FacetStats>;
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

/**
 * Counts over the matching templates in one query: the matching rows are read once (a materialised CTE of
 * the few columns facets need), then one aggregate row with every count, plus the top `size` values of each
 * value facet (hash aggregate + bounded sort). Ties are broken by value in C collation, as in the counts
 * table, so both sources and both backends agree. `source` is the FROM list and WHERE clause.
 */
export async function countMatches(db: Db, source: string, values: unknown[], size: number): Promise<FacetCounts> {
  const n = `$${values.length + 1}`;
  const counts: [string, string][] = [['total', 'count(*)']];
  for (const f of VALUE_FACETS) {
    counts.push(
      f.array ? [`valued:${f.key}`, `COALESCE(sum(cardinality(${f.expr})), 0)`] : [`valued:${f.key}`, `count(${f.expr})`],
      f.array ? [`missing:${f.key}`, `count(*) FILTER (WHERE cardinality(${f.expr}) = 0)`] : [`missing:${f.key}`, `count(*) - count(${f.expr})`],
    );
  }
  for (const flag of ['is_new', 'is_early']) {
    counts.push([`${flag}:true`, `count(*) FILTER (WHERE ${flag})`], [`${flag}:false`, `count(*) FILTER (WHERE NOT ${flag})`]);
  }
  for (const bucket of CREATION_BUCKETS) counts.push([`age:${bucket}`, `count(*) FILTER (WHERE ${ageFilterSql(bucket)})`]);
  // An array's values come from unnest in the select list (one ProjectSet node), cheaper than a lateral join.
  const tops = VALUE_FACETS.map((f) => {
    const from = f.array ? `(SELECT unnest(${f.expr}) AS value FROM m) AS v` : `(SELECT ${f.expr} AS value FROM m) AS v`;
    return `(SELECT '${f.key}' AS facet, value, count(*) AS n, NULL::bigint[] AS c FROM ${from}
      WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value COLLATE "C" LIMIT ${n})`;
  });
  const sql = `
    WITH m AS MATERIALIZED (
      SELECT severity, type, dir, vendor, product, tags, author, is_new, is_early, created_at FROM ${source}
    )
    SELECT '' AS facet, NULL AS value, 0::bigint AS n, ARRAY[${counts.map(([, e]) => e).join(', ')}]::bigint[] AS c FROM m
    UNION ALL ${tops.join('\n    UNION ALL ')}`;
  const res = await db.query<{ facet: string; value: string | null; n: number; c: number[] | null }>(sql, [...values, size]);
  const out = emptyCounts();
  const row = res.rows.find((r) => r.facet === '')!.c!.map(Number);
  counts.forEach(([name], i) => {
    const v = row[i]!;
    const [kind, key] = name.split(':') as [string, string];
    if (name === 'total') out.total = v;
    else if (kind === 'valued') out.valued[key] = v;
    else if (kind === 'missing') out.missing[key] = v;
    else if (kind === 'age') out.ages[key] = v;
    else out.flags[kind as 'is_new' | 'is_early'][key as 'true' | 'false'] = v;
  });
  out.top = res.rows.filter((r) => r.facet !== '').map((r) => ({ facet: r.facet, value: r.value!, n: Number(r.n) }));
  return out;
}
