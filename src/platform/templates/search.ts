// GET /v2/template/search, done inside PostgreSQL: a weighted tsvector (GIN) for free words, a trigram
// index for substrings of ids, array/GIN filters, and one grouped query for the ten facets. Works the same
// on PGlite and a PostgreSQL server (only core SQL and pg_trgm).
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../errors.ts';
import { columnsFor, parseFields, toRecord, type TemplateRecord } from './format.ts';
import { parseQuery, wordTsquery, type Filter } from './query.ts';

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
  const tsqueries: string[] = [];
  for (const word of query.words) {
    const tsq = wordTsquery(word);
    // Substrings of ids ("44228", "log4") match through the trigram index as well.
    const like = p.add(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    if (tsq) {
      tsqueries.push(tsq);
      where.push(`(search @@ to_tsquery('simple', ${p.add(tsq)}) OR id ILIKE ${like})`);
    } else where.push(`id ILIKE ${like}`);
  }
  for (const f of query.filters) where.push(filterSql(f, p));
  const whereSql = where.join(' AND ');
  const whereValues = [...p.values];

  const tsq = tsqueries.length ? p.add(tsqueries.map((t) => `(${t})`).join(' | ')) : undefined;
  const rank = tsq ? `ts_rank(search, to_tsquery('simple', ${tsq}))` : undefined;
  const order = sortSql(params.sort_asc, params.sort_desc, rank);

  const select = [columnsFor(fields)];
  const highlight = params.highlight && tsq;
  if (highlight) {
    const opts = `'HighlightAll=true, StartSel=${HIGHLIGHT_START}, StopSel=${HIGHLIGHT_STOP}'`;
    if (fields.includes('name')) select.push(`ts_headline('simple', name, to_tsquery('simple', ${tsq}), ${opts}) AS hl_name`);
    if (fields.includes('description')) {
      select.push(`CASE WHEN description IS NULL THEN NULL ELSE ts_headline('simple', description, to_tsquery('simple', ${tsq}), ${opts}) END AS hl_description`);
    }
  }
  const rowsSql = `SELECT ${select.join(', ')} FROM templates WHERE ${whereSql} ORDER BY ${order} LIMIT ${p.add(limit)} OFFSET ${p.add(offset)}`;
  // Both queries at once: on a PostgreSQL pool they run on two connections.
  const [rows, { total, facets }] = await Promise.all([
    db.query<Record<string, unknown>>(rowsSql, p.values),
    computeFacets(db, whereSql, whereValues, facetSize),
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

/** One query: per facet, the top facet_size values, the matched docs without a value, and the rest. */
async function computeFacets(db: Db, whereSql: string, values: unknown[], size: number) {
  const n = values.length + 1;
  const age = `CASE WHEN created_at >= now() - interval '7 days' THEN 'last_week'
    WHEN created_at >= now() - interval '30 days' THEN 'last_month'
    WHEN created_at >= now() - interval '365 days' THEN 'last_year' ELSE 'older' END`;
  const sql = `
    WITH m AS MATERIALIZED (
      SELECT severity, type, dir, vendor, product, tags, author, is_new, is_early, created_at FROM templates WHERE ${whereSql}
    ), g AS (
      SELECT 'severity' AS facet, severity AS value, count(*) AS n FROM m GROUP BY severity
      UNION ALL SELECT 'type', NULLIF(type, ''), count(*) FROM m GROUP BY 2
      UNION ALL SELECT 'dir', dir, count(*) FROM m GROUP BY dir
      UNION ALL SELECT 'vendor', vendor, count(*) FROM m GROUP BY vendor
      UNION ALL SELECT 'product', product, count(*) FROM m GROUP BY product
      UNION ALL SELECT 'is_new', is_new::text, count(*) FROM m GROUP BY is_new
      UNION ALL SELECT 'is_early', is_early::text, count(*) FROM m GROUP BY is_early
      UNION ALL SELECT 'creation_stats', ${age}, count(*) FROM m GROUP BY 2
      UNION ALL SELECT 'tags', t, count(*) FROM m, unnest(m.tags) AS t GROUP BY t
      UNION ALL SELECT 'tags', NULL, count(*) FROM m WHERE cardinality(tags) = 0
      UNION ALL SELECT 'author', a, count(*) FROM m, unnest(m.author) AS a GROUP BY a
      UNION ALL SELECT 'author', NULL, count(*) FROM m WHERE cardinality(author) = 0
      UNION ALL SELECT '', NULL, count(*) FROM m
    ), r AS (
      SELECT facet, value, n::int AS n,
        row_number() OVER (PARTITION BY facet, value IS NULL ORDER BY n DESC, value) AS rn,
        (sum(n) FILTER (WHERE value IS NOT NULL) OVER (PARTITION BY facet))::int AS valued
      FROM g
    )
    SELECT facet, value, n, valued FROM r WHERE value IS NULL OR rn <= $${n} OR facet = 'creation_stats'
    ORDER BY facet, n DESC, value`;
  const res = await db.query<{ facet: string; value: string | null; n: number; valued: number | null }>(sql, [...values, size]);
  let total = 0;
  const facets = Object.fromEntries(FACET_KEYS.map((k) => [k, { buckets: {}, missing: 0, other: 0, total: 0 }])) as Record<FacetKey, FacetStats>;
  for (const c of CREATION_BUCKETS) facets.creation_stats.buckets[c] = 0;
  const shown: Record<string, number> = {};
  const valued: Record<string, number> = {};
  for (const row of res.rows) {
    if (row.facet === '') {
      total = row.n;
      continue;
    }
    const f = facets[row.facet as FacetKey];
    if (row.value === null) f.missing += row.n;
    else {
      f.buckets[row.value] = row.n;
      shown[row.facet] = (shown[row.facet] ?? 0) + row.n;
    }
    valued[row.facet] = row.valued ?? 0;
  }
  for (const k of FACET_KEYS) {
    facets[k].total = total;
    facets[k].other = Math.max(0, (valued[k] ?? 0) - (shown[k] ?? 0));
  }
  return { total, facets };
}
