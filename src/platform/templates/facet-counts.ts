// Facets of a search without q, read from template_facet_counts (kept exact by triggers on every write,
// see 002_templates.sql) in one query: no aggregation over the templates themselves.
import type { Db } from '../../db/connection.ts';
import { VALUE_FACETS, emptyCounts, type FacetCounts } from './facets.ts';

/**
 * `big` is the owner whose top values are read by index ('' = public catalogue, or the team for
 * scope=private); `small` the other owner merged in (the team's private templates for public_private).
 * Merging stays exact without reading every value: counts only grow when merged, so a value the small
 * owner lacks keeps at least N values ahead of it unless it is in big's own top N. The candidates are
 * therefore big's top N plus every value of the small owner (a team's private templates: few).
 */
export async function countsFromTable(db: Db, big: string, small: string | null, size: number): Promise<FacetCounts> {
  const facets = VALUE_FACETS.map((f) => f.key);
  const sql = `
    WITH small AS (
      SELECT facet, value FROM template_facet_counts WHERE owner = $2 AND facet = ANY($3::text[]) AND n > 0
    ), cand AS (
      SELECT f.facet, t.value
      FROM unnest($3::text[]) AS f(facet)
      CROSS JOIN LATERAL (
        SELECT c.value FROM template_facet_counts c
        WHERE c.owner = $1 AND c.facet = f.facet AND c.n > 0
        ORDER BY c.n DESC, c.value COLLATE "C"
        LIMIT $4
      ) AS t
      UNION
      SELECT facet, value FROM small
    ), merged AS (
      SELECT c.facet, c.value, sum(x.n)::bigint AS n
      FROM cand c JOIN template_facet_counts x ON x.owner IN ($1, $2) AND x.facet = c.facet AND x.value = c.value
      GROUP BY c.facet, c.value
    ), ranked AS (
      SELECT facet, value, n, row_number() OVER (PARTITION BY facet ORDER BY n DESC, value COLLATE "C") AS r FROM merged
    )
    SELECT facet, value, n, r FROM ranked WHERE r <= $4
    UNION ALL
    SELECT facet, value, sum(n)::bigint, 0 FROM template_facet_counts
    WHERE owner IN ($1, $2) AND facet IN ('total', 'missing', 'valued', 'is_new', 'is_early') AND n > 0
    GROUP BY facet, value
    UNION ALL
    SELECT 'creation_stats', bucket, sum(n)::bigint, 0 FROM (
      SELECT n, CASE WHEN value::numeric >= extract(epoch FROM now() - interval '7 days') THEN 'last_week'
        WHEN value::numeric >= extract(epoch FROM now() - interval '30 days') THEN 'last_month'
        WHEN value::numeric >= extract(epoch FROM now() - interval '365 days') THEN 'last_year' ELSE 'older' END AS bucket
      FROM template_facet_counts WHERE owner IN ($1, $2) AND facet = 'created_at' AND n > 0
    ) AS a GROUP BY bucket`;
  const res = await db.query<{ facet: string; value: string; n: number; r: number }>(sql, [big, small, facets, size]);
  const out = emptyCounts();
  const valueFacets = new Set<string>(facets);
  const ranked: { facet: string; value: string; n: number; r: number }[] = [];
  for (const r of res.rows) {
    const n = Number(r.n);
    if (r.facet === 'total') out.total = n;
    else if (r.facet === 'missing') out.missing[r.value] = n;
    else if (r.facet === 'valued') out.valued[r.value] = n;
    else if (r.facet === 'creation_stats') out.ages[r.value] = n;
    else if (r.facet === 'is_new' || r.facet === 'is_early') out.flags[r.facet][r.value as 'true' | 'false'] = n;
    else if (valueFacets.has(r.facet)) ranked.push({ facet: r.facet, value: r.value, n, r: Number(r.r) });
  }
  // Buckets in rank order: most frequent first, ties by value (C collation).
  ranked.sort((a, b) => (a.facet < b.facet ? -1 : a.facet > b.facet ? 1 : a.r - b.r));
  out.top = ranked.map(({ facet, value, n }) => ({ facet, value, n }));
  // Scalar facets store no 'valued' row: every template without a value is counted as missing.
  for (const f of VALUE_FACETS) if (!f.array) out.valued[f.key] = out.total - (out.missing[f.key] ?? 0);
  return out;
}
