// Facet counts of a template search. From template_facet_counts (kept exact by triggers on every write, see
// 002_templates.sql):
// - a search without q reads them directly (a few index probes, no aggregation over templates);
// - a search whose filters match most of the scope subtracts the counts of the few templates outside the
//   match from the scope's counts, instead of counting the many inside it.
// Otherwise (countMatches) by one aggregate query over the matching templates.
import type { Db } from '../../db/connection.ts';
import { CREATION_BUCKETS, VALUE_FACETS, emptyCounts, type FacetCounts } from './facets.ts';

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
    SELECT facet, value, n FROM ranked WHERE r <= $4
    UNION ALL
    SELECT facet, value, sum(n)::bigint FROM template_facet_counts
    WHERE owner IN ($1, $2) AND facet IN ('total', 'missing', 'valued', 'is_new', 'is_early') AND n > 0
    GROUP BY facet, value
    UNION ALL
    SELECT 'creation_stats', bucket, sum(n)::bigint FROM (
      SELECT n, ${AGE_OF_EPOCH} AS bucket
      FROM template_facet_counts WHERE owner IN ($1, $2) AND facet = 'created_at' AND n > 0
    ) AS a GROUP BY bucket`;
  const res = await db.query<CountRow>(sql, [big, small, facets, size]);
  return readRows(res.rows);
}

/** Rows (facet, value, n): top values of value facets, plus total, missing, valued, flags, ages. */
type CountRow = { facet: string; value: string; n: number };

/** creation_stats bucket of a created_at stored as epoch seconds in `value`. */
const AGE_OF_EPOCH = `CASE WHEN value::numeric >= extract(epoch FROM now() - interval '7 days') THEN 'last_week'
        WHEN value::numeric >= extract(epoch FROM now() - interval '30 days') THEN 'last_month'
        WHEN value::numeric >= extract(epoch FROM now() - interval '365 days') THEN 'last_year' ELSE 'older' END`;

/**
 * Entries (facet, value, n) of the templates in relation `c`, in the counts table's form (see
 * templates_facet_entries in 002_templates.sql): one grouped scan per facet, cheaper than a lateral
 * expansion per template.
 */
function entriesSql(c: string): string {
  const scalar = VALUE_FACETS.filter((f) => !f.array).map(
    (f) =>
      `SELECT CASE WHEN v IS NULL THEN 'missing' ELSE '${f.key}' END, COALESCE(v, '${f.key}'), count(*) FROM (SELECT ${f.expr} AS v FROM ${c}) AS s GROUP BY v`,
  );
  const arrays = VALUE_FACETS.filter((f) => f.array).flatMap((f) => [
    `SELECT '${f.key}', v, count(*) FROM (SELECT unnest(${f.expr}) AS v FROM ${c}) AS s WHERE v IS NOT NULL GROUP BY v`,
    `SELECT 'missing', '${f.key}', count(*) FILTER (WHERE cardinality(${f.expr}) = 0) FROM ${c}`,
    `SELECT 'valued', '${f.key}', COALESCE(sum(cardinality(${f.expr})), 0) FROM ${c}`,
  ]);
  const other = [
    `SELECT 'total', '', count(*) FROM ${c}`,
    `SELECT 'is_new', is_new::text, count(*) FROM ${c} GROUP BY is_new`,
    `SELECT 'is_early', is_early::text, count(*) FROM ${c} GROUP BY is_early`,
    `SELECT 'created_at', extract(epoch FROM created_at)::text, count(*) FROM ${c} GROUP BY created_at`,
  ];
  return [...scalar, ...arrays, ...other].join('\n      UNION ALL ');
}

/**
 * Facets of `scope AND cond` as (counts of the scope) - (counts of `scope AND NOT cond`): cheaper when cond
 * matches most of the scope. The scope must be one counts table owner ('' = public catalogue, a team id =
 * its private templates). `scopeSql`/`condSql` use parameters $1..$n of `values`.
 * Top values need not read every count: if m values of a facet occur outside the match, a value that is
 * not among the owner's top N + m keeps N untouched values ahead of it, so those are the candidates.
 */
export async function countsByComplement(
  db: Db,
  owner: string,
  scopeSql: string,
  condSql: string,
  values: unknown[],
  size: number,
): Promise<FacetCounts> {
  const o = `$${values.length + 1}`;
  const f = `$${values.length + 2}`;
  const n = `$${values.length + 3}`;
  const sql = `
    WITH c AS MATERIALIZED (
      SELECT severity, type, dir, vendor, product, tags, author, is_new, is_early, created_at
      FROM templates WHERE ${scopeSql} AND NOT COALESCE((${condSql}), false)
    ), outside (facet, value, n) AS MATERIALIZED (
      ${entriesSql('c')}
    ), cand AS (
      SELECT f.facet, w.value, w.n
      FROM unnest(${f}::text[]) AS f(facet)
      CROSS JOIN LATERAL (
        SELECT value, n FROM template_facet_counts
        WHERE owner = ${o} AND facet = f.facet AND n > 0
        ORDER BY n DESC, value COLLATE "C"
        LIMIT ${n} + (SELECT count(*) FROM outside x WHERE x.facet = f.facet)
      ) AS w
    ), diff AS (
      SELECT c.facet, c.value, c.n - COALESCE(x.n, 0) AS n
      FROM cand c LEFT JOIN outside x ON x.facet = c.facet AND x.value = c.value
    ), rest AS (
      SELECT w.facet, w.value, w.n - COALESCE(x.n, 0) AS n
      FROM template_facet_counts w LEFT JOIN outside x ON x.facet = w.facet AND x.value = w.value
      WHERE w.owner = ${o} AND w.facet IN ('total', 'missing', 'valued', 'is_new', 'is_early', 'created_at') AND w.n > 0
    )
    SELECT facet, value, n FROM (
      SELECT facet, value, n, row_number() OVER (PARTITION BY facet ORDER BY n DESC, value COLLATE "C") AS r
      FROM diff WHERE n > 0
    ) AS ranked WHERE r <= ${n}
    UNION ALL
    SELECT facet, value, n FROM rest WHERE facet <> 'created_at' AND n > 0
    UNION ALL
    SELECT 'creation_stats', bucket, sum(n)::bigint FROM (
      SELECT n, ${AGE_OF_EPOCH} AS bucket FROM rest WHERE facet = 'created_at' AND n > 0
    ) AS a GROUP BY bucket`;
  const res = await db.query<CountRow>(sql, [...values, owner, VALUE_FACETS.map((v) => v.key), size]);
  return readRows(res.rows);
}

/** What one filter tells about the number of matches: counts of `values` in `facet` of the counts table. */
export interface FilterBound {
  facet: string;
  values: string[];
  /** The filter excludes these values: matches = total - count (a lower bound for array facets). */
  negate: boolean;
  /** Compare values in lower case (author keeps its case in the counts). */
  lower?: boolean;
}

/**
 * A lower bound of the number of templates in the scope matching every filter, from the counts table:
 * |A and B| >= |A| + |B| - total. A filter without a bound (null) counts as matching nothing. Also gives
 * which of the owners have templates.
 */
export async function matchLowerBound(
  db: Db,
  owners: string[],
  bounds: (FilterBound | null)[],
): Promise<{ bound: number; total: number; owners: string[] }> {
  const params: unknown[] = [owners];
  const sums = bounds.map((b) => {
    if (!b) return '0';
    params.push(b.facet, b.values);
    const match = b.lower ? `lower(value) = ANY($${params.length}::text[])` : `value = ANY($${params.length}::text[])`;
    return `(SELECT COALESCE(sum(n), 0) FROM template_facet_counts WHERE owner = ANY($1::text[]) AND facet = $${params.length - 1} AND ${match})`;
  });
  const res = await db.query<{ total: number; sums: number[]; present: string[] }>(
    `SELECT (SELECT COALESCE(sum(n), 0) FROM template_facet_counts WHERE owner = ANY($1::text[]) AND facet = 'total') AS total,
       ARRAY[${sums.join(', ')}]::bigint[] AS sums,
       ARRAY(SELECT owner FROM template_facet_counts WHERE owner = ANY($1::text[]) AND facet = 'total' AND n > 0 ORDER BY owner) AS present`,
    params,
  );
  const total = Number(res.rows[0]!.total);
  const each = res.rows[0]!.sums.map(Number).map((s, i) => (!bounds[i] ? 0 : bounds[i]!.negate ? total - s : s));
  const bound = each.reduce((acc, x) => acc + x, 0) - Math.max(0, each.length - 1) * total;
  // `owners`: those of the scope that have templates at all.
  return { bound: Math.max(0, bound), total, owners: res.rows[0]!.present };
}

function readRows(rows: CountRow[]): FacetCounts {
  const out = emptyCounts();
  const valueFacets = new Set<string>(VALUE_FACETS.map((f) => f.key));
  for (const r of rows) {
    const n = Number(r.n);
    if (r.facet === 'total') out.total = n;
    else if (r.facet === 'missing') out.missing[r.value] = n;
    else if (r.facet === 'valued') out.valued[r.value] = n;
    else if (r.facet === 'creation_stats') out.ages[r.value] = n;
    else if (r.facet === 'is_new' || r.facet === 'is_early') out.flags[r.facet][r.value as 'true' | 'false'] = n;
    else if (valueFacets.has(r.facet)) out.top.push({ facet: r.facet, value: r.value, n });
  }
  // Buckets in rank order: most frequent first, ties by value in C collation (UTF-8 byte order).
  out.top.sort((a, b) =>
    a.facet === b.facet
      ? b.n - a.n || Buffer.compare(Buffer.from(a.value), Buffer.from(b.value))
      : a.facet < b.facet
        ? -1
        : 1,
  );
  // Scalar facets store no 'valued' row: every template without a value is counted as missing.
  for (const f of VALUE_FACETS) if (!f.array) out.valued[f.key] = out.total - (out.missing[f.key] ?? 0);
  return out;
}

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
      f.array
        ? [`valued:${f.key}`, `COALESCE(sum(cardinality(${f.expr})), 0)`]
        : [`valued:${f.key}`, `count(${f.expr})`],
      f.array
        ? [`missing:${f.key}`, `count(*) FILTER (WHERE cardinality(${f.expr}) = 0)`]
        : [`missing:${f.key}`, `count(*) - count(${f.expr})`],
    );
  }
  for (const flag of ['is_new', 'is_early']) {
    counts.push(
      [`${flag}:true`, `count(*) FILTER (WHERE ${flag})`],
      [`${flag}:false`, `count(*) FILTER (WHERE NOT ${flag})`],
    );
  }
  for (const bucket of CREATION_BUCKETS)
    counts.push([`age:${bucket}`, `count(*) FILTER (WHERE ${ageFilterSql(bucket)})`]);
  // An array's values come from unnest in the select list (one ProjectSet node), cheaper than a lateral join.
  const tops = VALUE_FACETS.map((f) => {
    const from = f.array
      ? `(SELECT unnest(${f.expr}) AS value FROM m) AS v`
      : `(SELECT ${f.expr} AS value FROM m) AS v`;
    return `(SELECT '${f.key}' AS facet, value, count(*) AS n, NULL::bigint[] AS c FROM ${from}
      WHERE value IS NOT NULL GROUP BY value ORDER BY n DESC, value COLLATE "C" LIMIT ${n})`;
  });
  const sql = `
    WITH m AS MATERIALIZED (
      SELECT severity, type, dir, vendor, product, tags, author, is_new, is_early, created_at FROM ${source}
    )
    SELECT '' AS facet, NULL AS value, 0::bigint AS n, ARRAY[${counts.map(([, e]) => e).join(', ')}]::bigint[] AS c FROM m
    UNION ALL ${tops.join('\n    UNION ALL ')}`;
  const res = await db.query<{ facet: string; value: string | null; n: number; c: number[] | null }>(sql, [
    ...values,
    size,
  ]);
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

/**
 * The facet columns of every template (at most `limit`) with the table's change counter, from one snapshot
 * (one statement) for facet-index.ts. Each row: [pk, the scalar facets in VALUE_FACETS order, the array
 * facets in that order, is_new, is_early, created_at in microseconds since the epoch, owner ('' = public
 * catalogue, else the team's id)]. One JSON text rather
 * than a row per template: parsing 10,000 rows with their arrays cost the client 4 to 6 times as much.
 */
export async function readFacetColumns(
  db: Db,
  limit: number,
): Promise<{ version: string; rows: [number, ...unknown[]][]; committed: boolean }> {
  const columns = [
    'pk',
    ...VALUE_FACETS.filter((f) => !f.array).map((f) => f.expr),
    ...VALUE_FACETS.filter((f) => f.array).map((f) => f.expr),
    'is_new',
    'is_early',
    '(extract(epoch FROM created_at) * 1000000)::bigint',
    "COALESCE(team_id, '')",
  ];
  // `clean`: no write of this session's transaction is visible (it has no transaction id), so the rows are
  // committed ones: a copy of a transaction's own writes could outlive their rollback.
  const res = await db.query<{ v: string; j: string | null; clean: boolean }>(
    `SELECT (SELECT version FROM template_changes WHERE id = 1)::text AS v, json_agg(t.r)::text AS j,
       pg_current_xact_id_if_assigned() IS NULL AS clean
     FROM (SELECT json_build_array(${columns.join(', ')}) AS r FROM templates LIMIT $1) AS t`,
    [limit],
  );
  const r = res.rows[0]!;
  return { version: r.v, rows: JSON.parse(r.j ?? '[]') as [number, ...unknown[]][], committed: r.clean };
}

/** Microseconds since the epoch of now() minus `days` days: an age limit of creation_stats. */
const ageLimitUs = (days: number) =>
  `(extract(epoch FROM (SELECT now() - interval '${days} days')) * 1000000)::bigint::text`;

/**
 * The keys of the templates matching `source` (FROM list and WHERE over $1..$n of `values`) as "12,7,31",
 * with the table's change counter and the creation_stats age limits (the database's clock, as countMatches
 * uses), all from one statement and so one snapshot.
 */
export async function matchKeys(
  db: Db,
  source: string,
  values: unknown[],
): Promise<{ version: string; keys: string; ageLimits: [number, number, number] }> {
  const res = await db.query<{ v: string; w: string; m: string; y: string; pks: string | null }>(
    `SELECT (SELECT version FROM template_changes WHERE id = 1)::text AS v, ${ageLimitUs(7)} AS w,
       ${ageLimitUs(30)} AS m, ${ageLimitUs(365)} AS y, string_agg(pk::text, ',') AS pks FROM ${source}`,
    values,
  );
  const r = res.rows[0]!;
  return { version: r.v, keys: r.pks ?? '', ageLimits: [Number(r.w), Number(r.m), Number(r.y)] };
}

/** The table's change counter and the creation_stats age limits, from one statement (see matchKeys). */
export async function tableClock(db: Db): Promise<{ version: string; ageLimits: [number, number, number] }> {
  const res = await db.query<{ v: string; w: string; m: string; y: string }>(
    `SELECT version::text AS v, ${ageLimitUs(7)} AS w, ${ageLimitUs(30)} AS m, ${ageLimitUs(365)} AS y
     FROM template_changes WHERE id = 1`,
  );
  const r = res.rows[0]!;
  return { version: r.v, ageLimits: [Number(r.w), Number(r.m), Number(r.y)] };
}
