// GET /v2/template/search, done inside PostgreSQL: a weighted tsvector (GIN) for free words, a trigram
// index for substrings of ids, array/GIN filters, and one grouped query for the ten facets. Works the same
// on PGlite and a PostgreSQL server (only core SQL and pg_trgm).
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../errors.ts';
import { columnsFor, parseFields, toRecord, type TemplateRecord } from './format.ts';
import { parseQuery, wordTsquery, type Filter } from './query.ts';
import { cachedFacets, changeVersion } from './facet-cache.ts';

export type Scope = 'public' | 'private' | 'public_private';

export interface SearchParams {
  scope?: Scope;
  q?: string;
  limit?: number;
  offset?: number;
  fields?: string;
  sort_asc?: string;
  sort_desc?: string;
  highlight?: boolean;
  facet_size?: number;
}

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

const SEVERITY_RANK = `CASE severity WHEN 'critical' THEN 5 WHEN 'high' THEN 4 WHEN 'medium' THEN 3 WHEN 'low' THEN 2 WHEN 'info' THEN 1 ELSE 0 END`;

/** Sortable fields and their SQL expressions (severity sorts by rank, not alphabetically). */
export const SORT_FIELDS: Record<string, string> = {
  id: 'id', template_id: 'template_id', name: 'lower(name)', severity: SEVERITY_RANK, type: 'type', dir: 'dir',
  vendor: 'vendor', product: 'product', uri: 'uri', filename: 'filename', created_at: 'created_at',
  updated_at: 'updated_at', release_tag: 'release_tag', template_type: 'template_type', is_new: 'is_new',
  is_early: 'is_early',
};

export const HIGHLIGHT_START = '<em>';
export const HIGHLIGHT_STOP = '</em>';

class Params {
  readonly values: unknown[] = [];
  add(v: unknown): string {
    this.values.push(v);
    return `$${this.values.length}`;
  }
}

function scopeSql(scope: Scope, teamId: string, p: Params): string {
  if (scope === 'public') return 'team_id IS NULL';
  if (scope === 'private') return `team_id = ${p.add(teamId)}`;
  return `(team_id IS NULL OR team_id = ${p.add(teamId)})`;
}

function filterSql(f: Filter, p: Params): string {
  let sql: string;
  switch (f.kind) {
    case 'bool':
      sql = `${f.column} = ANY(${p.add(f.values.map((v) => v === 'true'))}::boolean[])`;
      break;
    case 'array':
    case 'upperArray':
      // author keeps its case in storage, so it is compared case-insensitively.
      sql = f.column === 'author'
        ? `EXISTS (SELECT 1 FROM unnest(author) a WHERE lower(a) = ANY(${p.add(f.values.map((v) => v.toLowerCase()))}::text[]))`
        : `${f.column} && ${p.add(f.values)}::text[]`;
      break;
    default:
      sql = `${f.column} = ANY(${p.add(f.values)}::text[])`;
  }
  return f.negate ? `NOT COALESCE(${sql}, false)` : sql;
}

function sortSql(asc: string | undefined, desc: string | undefined, rank: string | undefined): string {
  const parts: string[] = [];
  const add = (list: string | undefined, dir: 'ASC' | 'DESC', param: string) => {
    for (const name of (list ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      const expr = SORT_FIELDS[name];
      if (!expr) throw badRequest(`cannot sort by "${name}"; sortable fields: ${Object.keys(SORT_FIELDS).join(', ')}`, param);
      parts.push(`${expr} ${dir} NULLS LAST`);
    }
  };
  add(asc, 'ASC', 'sort_asc');
  add(desc, 'DESC', 'sort_desc');
  if (parts.length === 0) parts.push(rank ? `${rank} DESC` : 'created_at DESC', 'id ASC');
  parts.push('uri ASC', 'pk ASC');
  return parts.join(', ');
}

export interface SearchAnswer {
  results: TemplateRecord[];
  total: number;
  count: number;
  facets: Record<FacetKey, FacetStats>;
  message: string;
}

export async function searchTemplates(db: Db, teamId: string, params: SearchParams): Promise<SearchAnswer> {
  const limit = params.limit ?? 50;
  const offset = params.offset ?? 0;
  const facetSize = params.facet_size ?? 5;
  if (limit < 0 || limit > 1000) throw badRequest('limit must be between 0 and 1000', 'limit');
  if (offset < 0) throw badRequest('offset must not be negative', 'offset');
  if (facetSize < 0 || facetSize > 1000) throw badRequest('facet_size must be between 0 and 1000', 'facet_size');
  const fields = parseFields(params.fields);
  const query = parseQuery(params.q);

  const p = new Params();
  const where = [scopeSql(params.scope ?? 'public_private', teamId, p)];
  // Each tsquery is parsed once, in FROM, rather than once per row in WHERE.
  const from = ['templates'];
  const tsqueries: string[] = [];
  for (const word of query.words) {
    const tsq = wordTsquery(word);
    // A word with a digit may be a piece of an id ("44228", "2021-44"): it also matches as a substring of
    // ids (trigram index). Plain words rely on the word index alone, which keeps their scans cheap.
    const like = tsq && !/\d/.test(word) ? undefined : p.add(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    if (tsq) {
      tsqueries.push(tsq);
      const alias = `w${tsqueries.length}`;
      from.push(`to_tsquery('simple', ${p.add(tsq)}) AS ${alias}`);
      where.push(like ? `(search @@ ${alias} OR id ILIKE ${like})` : `search @@ ${alias}`);
    } else where.push(`id ILIKE ${like}`);
  }
  for (const f of query.filters) where.push(filterSql(f, p));
  const fromSql = from.join(', ');
  const condSql = where.join(' AND ');
  const whereValues = [...p.values];

  // Ranking and highlighting use any of the words.
  const rowsFrom = tsqueries.length ? `, to_tsquery('simple', ${p.add(tsqueries.map((t) => `(${t})`).join(' | '))}) AS rq` : '';
  const rank = rowsFrom ? 'ts_rank(search, rq)' : undefined;
  const order = sortSql(params.sort_asc, params.sort_desc, rank);

  const select = [columnsFor(fields)];
  const highlight = params.highlight && rowsFrom;
  if (highlight) {
    const opts = `'HighlightAll=true, StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}'`;
    if (fields.includes('name')) select.push(`ts_headline('simple', name, rq, ${opts}) AS hl_name`);
    if (fields.includes('description')) {
      select.push(`CASE WHEN description IS NULL THEN NULL ELSE ts_headline('simple', description, rq, ${opts}) END AS hl_description`);
    }
  }
  const rowsSql = `SELECT ${select.join(', ')} FROM ${fromSql}${rowsFrom} WHERE ${condSql} ORDER BY ${order} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
  // Both queries at once: on a PostgreSQL pool they run on two connections.
  const version = await changeVersion(db);
  const source = `${fromSql} WHERE ${condSql}`;
  const facetKey = `${source}\u0000${JSON.stringify(whereValues)}\u0000${facetSize}`;
  const [rows, { total, facets }] = await Promise.all([
    db.query<Record<string, unknown>>(rowsSql, p.values),
    cachedFacets(db, facetKey, version, () => computeFacets(db, source, whereValues, facetSize)),
  ]);
  const results = rows.rows.map((r) => {
    if (highlight) {
      if (r.hl_name != null) r.name = r.hl_name;
      if (r.hl_description != null) r.description = r.hl_description;
    }
    return toRecord(r, fields);
  });

  return { results, total, count: results.length, facets, message: 'ok' };
}

/** Facets whose buckets are the most frequent values; the flags and creation_stats come from counts. */
const VALUE_FACETS: { key: FacetKey; expr: string; array?: boolean }[] = [
  { key: 'severity', expr: 'severity' },
  { key: 'type', expr: "NULLIF(type, '')" },
  { key: 'dir', expr: 'dir' },
  { key: 'vendor', expr: 'vendor' },
  { key: 'product', expr: 'product' },
  { key: 'tags', expr: 'tags', array: true },
  { key: 'author', expr: 'author', array: true },
];

/**
 * One query over the matching rows: a single aggregate row with every count (totals, values present,
 * flags, ages), plus the top facet_size values of each value facet (hash aggregate + bounded sort, no
 * window over all groups). Ties are broken by value in C collation, so both backends agree.
 */
/** `source` is the FROM list and WHERE clause of the matching templates. */
async function computeFacets(db: Db, source: string, values: unknown[], size: number) {
  const n = `$${values.length + 1}`;
  // [name, expression] of every count, read back by name from one array column.
  const counts: [string, string][] = [['total', 'count(*)']];
  for (const f of VALUE_FACETS) {
    counts.push(
      f.array
        ? [`${f.key}_valued`, `COALESCE(sum(cardinality(${f.expr})), 0)`]
        : [`${f.key}_valued`, `count(${f.expr})`],
      f.array
        ? [`${f.key}_missing`, `count(*) FILTER (WHERE cardinality(${f.expr}) = 0)`]
        : [`${f.key}_missing`, `count(*) - count(${f.expr})`],
    );
  }
  counts.push(
    ['is_new_true', 'count(*) FILTER (WHERE is_new)'], ['is_new_false', 'count(*) FILTER (WHERE NOT is_new)'],
    ['is_early_true', 'count(*) FILTER (WHERE is_early)'], ['is_early_false', 'count(*) FILTER (WHERE NOT is_early)'],
    ['last_week', "count(*) FILTER (WHERE created_at >= now() - interval '7 days')"],
    ['last_month', "count(*) FILTER (WHERE created_at < now() - interval '7 days' AND created_at >= now() - interval '30 days')"],
    ['last_year', "count(*) FILTER (WHERE created_at < now() - interval '30 days' AND created_at >= now() - interval '365 days')"],
    ['older', "count(*) FILTER (WHERE created_at < now() - interval '365 days')"],
  );
  const tops = VALUE_FACETS.map((f) => {
    const from = f.array ? `m, unnest(m.${f.expr}) AS v(value)` : `(SELECT ${f.expr} AS value FROM m) AS v`;
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
  const facets = Object.fromEntries(FACET_KEYS.map((k) => [k, { buckets: {}, missing: 0, other: 0, total: 0 }])) as Record<FacetKey, FacetStats>;
  const countRow = res.rows.find((r) => r.facet === '')!.c!.map(Number);
  const count = Object.fromEntries(counts.map(([name], i) => [name, countRow[i]!]));
  const total = count.total!;
  for (const k of FACET_KEYS) facets[k].total = total;
  const shown: Record<string, number> = {};
  for (const row of res.rows) {
    if (row.facet === '') continue;
    facets[row.facet as FacetKey].buckets[row.value!] = Number(row.n);
    shown[row.facet] = (shown[row.facet] ?? 0) + Number(row.n);
  }
  for (const f of VALUE_FACETS) {
    facets[f.key].missing = count[`${f.key}_missing`]!;
    facets[f.key].other = count[`${f.key}_valued`]! - (shown[f.key] ?? 0);
  }
  for (const flag of ['is_new', 'is_early'] as const) {
    facets[flag].buckets = Object.fromEntries(
      ([['true', count[`${flag}_true`]!], ['false', count[`${flag}_false`]!]] as [string, number][])
        .filter(([, v]) => v > 0)
        .sort((x, y) => y[1] - x[1])
        .slice(0, size),
    );
    facets[flag].other = total - Object.values(facets[flag].buckets).reduce((x, y) => x + y, 0);
  }
  for (const age of CREATION_BUCKETS) facets.creation_stats.buckets[age] = count[age]!;
  return { total, facets };
}
