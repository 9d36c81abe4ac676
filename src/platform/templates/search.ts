// GET /v2/template/search, done inside PostgreSQL: a weighted tsvector (GIN) for free words, a trigram
// index for substrings of ids, array/GIN/B-tree filters. Facets come from the trigger-maintained counts
// table when q is empty (or, for filters matching most templates, from it minus the rest), otherwise from
// one aggregate query over the matching templates. Works the same on PGlite and a PostgreSQL server (only
// core SQL and pg_trgm).
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import fastJson from 'fast-json-stringify';
import { columnsFor, parseFields, RECORD_FIELDS, toRecord, type TemplateRecord } from './format.ts';
import { parseQuery, wordTsquery, type Filter, type ParsedQuery } from './query.ts';
import { cachedFacets, cachedPage, cachedPageText, searchCacheOn } from './facet-cache.ts';
import { changeVersion } from './store.ts';
import { countMatches, countsByComplement, countsFromTable, matchLowerBound, type FilterBound } from './facet-store.ts';
import { assembleFacets, type FacetCounts, type FacetKey, type FacetStats } from './facets.ts';
import { countFilteredFromIndex, countFromIndex, countScopeFromIndex } from './facet-index.ts';
import { searchPage } from './store.ts';
import { HEADLINE_OPTIONS, renderHighlight, withoutMarksSql } from './highlight.ts';
import { serializeRecord, spanText, withTexts } from './record-json.ts';
import { TemplateSearchAnswer } from './schemas.ts';

export { CREATION_BUCKETS, FACET_KEYS, type FacetKey, type FacetStats } from './facets.ts';
export { HIGHLIGHT_START, HIGHLIGHT_STOP } from './highlight.ts';

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

// Severity sorts by rank, not alphabetically; the SQL function is inlined, so the expression index
// templates_severity_rank serves sort_desc=severity.
const SEVERITY_RANK = 'templates_severity_rank(severity)';

/** Sortable fields and their SQL expressions (severity sorts by rank, not alphabetically). */
export const SORT_FIELDS: Record<string, string> = {
  id: 'id',
  template_id: 'template_id',
  name: 'lower(name)',
  severity: SEVERITY_RANK,
  type: 'type',
  dir: 'dir',
  vendor: 'vendor',
  product: 'product',
  uri: 'uri',
  filename: 'filename',
  created_at: 'created_at',
  updated_at: 'updated_at',
  release_tag: 'release_tag',
  template_type: 'template_type',
  is_new: 'is_new',
  is_early: 'is_early',
};

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
      // author keeps its case in storage: compared in lower case through a GIN expression index.
      sql =
        f.column === 'author'
          ? `templates_lower(author) && ${p.add(f.values.map((v) => v.toLowerCase()))}::text[]`
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
    for (const name of (list ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const expr = SORT_FIELDS[name];
      if (!expr)
        throw badRequest(`cannot sort by "${name}"; sortable fields: ${Object.keys(SORT_FIELDS).join(', ')}`, param);
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

/** Whether search pages send the stored record texts (VIGIL_TEMPLATE_RECORDS=off: built from the columns). */
export function templateRecordsOn(): boolean {
  return process.env.VIGIL_TEMPLATE_RECORDS !== 'off';
}

/** The answer's serializer (the route's schema): its records are spliced in after `{"results":[`. */
const serializeAnswer: (answer: Omit<SearchAnswer, 'results'> & { results: never[] }) => string =
  fastJson(TemplateSearchAnswer);
const EMPTY_RESULTS = '{"results":[]';

/** A search's SQL parts, from its parameters (see searchTemplates). */
interface SearchPlan {
  limit: number;
  offset: number;
  facetSize: number;
  fields: string[];
  query: ParsedQuery;
  scope: Scope;
  p: Params;
  where: string[];
  fromSql: string;
  condSql: string;
  whereValues: unknown[];
  /** The ranking/highlighting tsquery in FROM ('' without free words). */
  rowsFrom: string;
  order: string;
  /** ts_headline marks matches only when there are free words. */
  marked: boolean;
  highlight: boolean;
}

function planSearch(teamId: string, params: SearchParams): SearchPlan {
  const limit = params.limit ?? 50;
  const offset = params.offset ?? 0;
  const facetSize = params.facet_size ?? 5;
  if (limit < 0 || limit > 1000) throw badRequest('limit must be between 0 and 1000', 'limit');
  if (offset < 0) throw badRequest('offset must not be negative', 'offset');
  if (facetSize < 0 || facetSize > 1000) throw badRequest('facet_size must be between 0 and 1000', 'facet_size');
  const fields = parseFields(params.fields);
  const query = parseQuery(params.q);
  const scope = params.scope ?? 'public_private';

  const p = new Params();
  const where = [scopeSql(scope, teamId, p)];
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

  // Ranking and highlighting use any of the words. Highlighting also any part of any word as a prefix of
  // weight A (id and name) and of weight C (description): see headlineSelect's skip.
  let rowsFrom = tsqueries.length
    ? `, to_tsquery('simple', ${p.add(tsqueries.map((t) => `(${t})`).join(' | '))}) AS rq`
    : '';
  if (rowsFrom && params.highlight) {
    const parts = tsqueries.flatMap((t) => t.split(' & '));
    const any = (weight: string) => p.add(parts.map((part) => `${part}${weight}`).join(' | '));
    rowsFrom += `, to_tsquery('simple', ${any('A')}) AS hq_a, to_tsquery('simple', ${any('C')}) AS hq_c`;
  }
  const rank = rowsFrom ? 'ts_rank(search, rq)' : undefined;
  const order = sortSql(params.sort_asc, params.sort_desc, rank);
  return {
    limit,
    offset,
    facetSize,
    fields,
    query,
    scope,
    p,
    where,
    fromSql,
    condSql,
    whereValues,
    rowsFrom,
    order,
    marked: !!rowsFrom,
    highlight: params.highlight === true,
  };
}

/**
 * The highlighted name and description (ts_headline) of the page's rows, when highlighting marks words.
 * `skip`: where no word of the query is in the text, the text itself (ts_headline's answer then, without
 * parsing it): the search document says so, name's words being among its A lexemes (id and name) and
 * description's its C lexemes (see searchText in store.ts). The tsqueries hq_a and hq_c (any word part,
 * of that weight) are in FROM (planSearch).
 */
function headlineSelect(plan: SearchPlan, name: boolean, description: boolean, skip = false): string[] {
  if (!plan.highlight || !plan.marked) return [];
  const opts = `'${HEADLINE_OPTIONS}'`;
  const headline = (col: string, weight: 'a' | 'c') => {
    const hl = `ts_headline('simple', ${withoutMarksSql(col)}, rq, ${opts})`;
    return skip ? `CASE WHEN search @@ hq_${weight} THEN ${hl} ELSE ${withoutMarksSql(col)} END` : hl;
  };
  const out: string[] = [];
  if (name) out.push(`${headline('name', 'a')} AS hl_name`);
  if (description)
    out.push(`CASE WHEN description IS NULL THEN NULL ELSE ${headline('description', 'c')} END AS hl_description`);
  return out;
}

/** The cache key of a page: its SQL and values say all it depends on (highlight also changes the text after). */
function pageKey(plan: SearchPlan, select: string[], kind: string): string {
  return `${kind}\u0000${select.join(', ')}\u0000${plan.fromSql}${plan.rowsFrom}\u0000${plan.condSql}\u0000${plan.order}\u0000${JSON.stringify(plan.p.values)}\u0000${plan.limit}\u0000${plan.offset}\u0000${plan.highlight}`;
}

function readPage(db: Db, plan: SearchPlan, select: string[]): Promise<Record<string, unknown>[]> {
  return searchPage(
    db,
    { select, from: plan.fromSql + plan.rowsFrom, where: plan.condSql, order: plan.order },
    plan.p.values,
    plan.limit,
    plan.offset,
  );
}

/** The page's records built from the columns (the record fields asked for, highlighted when asked). */
async function recordsPage(db: Db, plan: SearchPlan): Promise<TemplateRecord[]> {
  const { fields, highlight, marked } = plan;
  const select = [columnsFor(fields), ...headlineSelect(plan, fields.includes('name'), fields.includes('description'))];
  const rows = await readPage(db, plan, select);
  return rows.map((r) => {
    if (highlight) {
      // Highlighted text is HTML (escaped, with <em> tags) on every row, even when nothing matched in it.
      if (marked && r.hl_name != null) r.name = r.hl_name;
      if (marked && r.hl_description != null) r.description = r.hl_description;
      if (typeof r.name === 'string') r.name = renderHighlight(r.name, marked);
      if (typeof r.description === 'string') r.description = renderHighlight(r.description, marked);
    }
    return toRecord(r, fields);
  });
}

/**
 * The page's records as JSON texts: every field asked for, the stored record texts (template_records),
 * their name and description replaced when highlighting. Null when a row of the page has no stored record
 * (written since, not filled yet): then the page is read from the columns.
 */
async function storedRecordsPage(db: Db, plan: SearchPlan): Promise<string[] | null> {
  const { highlight, marked } = plan;
  // Subqueries by primary key in the select list: PostgreSQL evaluates them after the sort and LIMIT, for
  // the page's rows only (as ts_headline).
  const select = ['(SELECT record_json FROM template_records r WHERE r.template_pk = templates.pk) AS record_json'];
  if (highlight)
    select.push('(SELECT record_spans FROM template_records r WHERE r.template_pk = templates.pk) AS record_spans');
  select.push(...headlineSelect(plan, true, true, true));
  const rows = await readPage(db, plan, select);
  const out: string[] = [];
  for (const r of rows) {
    const json = r.record_json as string | null;
    if (json == null) return null;
    if (!highlight) {
      out.push(json);
      continue;
    }
    const spans = r.record_spans as number[] | null;
    if (!spans) return null;
    // As recordsPage: ts_headline's text when it marked words, else the stored text; then HTML.
    const name = marked && r.hl_name != null ? (r.hl_name as string) : spanText(json, spans[0]!, spans[1]!);
    const description =
      marked && r.hl_description != null ? (r.hl_description as string) : spanText(json, spans[2]!, spans[3]!);
    out.push(
      withTexts(
        json,
        spans,
        name === undefined ? undefined : renderHighlight(name, marked),
        description === undefined ? undefined : renderHighlight(description, marked),
      ),
    );
  }
  return out;
}

async function searchCounts(db: Db, teamId: string, plan: SearchPlan, version: number | undefined) {
  const counts = await facetCounts(db, {
    scope: plan.scope,
    teamId,
    query: plan.query,
    where: plan.where,
    from: plan.fromSql,
    values: plan.whereValues,
    size: plan.facetSize,
    version,
  });
  return { total: counts.total, facets: assembleFacets(counts, plan.facetSize) };
}

/** GET /v2/template/search's answer with its records as objects (built from the columns). */
export async function searchTemplates(db: Db, teamId: string, params: SearchParams): Promise<SearchAnswer> {
  const plan = planSearch(teamId, params);
  const select = [columnsFor(plan.fields), ...headlineSelect(plan, true, true)];
  // The table's change counter keys the cached page and facets (facet-cache.ts); read only when caching.
  const version = searchCacheOn() ? await changeVersion(db) : undefined;
  const page = () => recordsPage(db, plan);
  // Both queries at once: on a PostgreSQL pool they run on two connections.
  const [results, { total, facets }] = await Promise.all([
    version === undefined ? page() : cachedPage(db, pageKey(plan, select, 'records'), version, page),
    searchCounts(db, teamId, plan, version),
  ]);
  return { results, total, count: results.length, facets, message: 'ok' };
}

/**
 * GET /v2/template/search's answer as the JSON text the route sends: the same bytes as searchTemplates'
 * answer through the route's serializer. With every field asked for (the default), each record is its
 * stored text (record-json.ts) spliced in, not read from 32 columns, built and serialized again.
 */
export async function searchTemplatesJson(db: Db, teamId: string, params: SearchParams): Promise<string> {
  const plan = planSearch(teamId, params);
  const stored = templateRecordsOn() && plan.fields.length === RECORD_FIELDS.length;
  const version = searchCacheOn() ? await changeVersion(db) : undefined;
  const page = async () => {
    const items =
      (stored ? await storedRecordsPage(db, plan) : null) ??
      (await recordsPage(db, plan)).map((r) => serializeRecord(r));
    // Concatenated, not joined: join copies every text (1.3 MB for wordpress-theme-detect.yaml) into a new
    // one, which writing the answer then copies again; concatenation links them (V8 flattens once, on write).
    let text = '';
    for (const item of items) text = text === '' ? item : `${text},${item}`;
    return { text, count: items.length };
  };
  const key = pageKey(plan, [plan.fields.join(',')], stored ? 'stored' : 'json');
  const [results, { total, facets }] = await Promise.all([
    version === undefined ? page() : cachedPageText(db, key, version, page),
    searchCounts(db, teamId, plan, version),
  ]);
  const head = serializeAnswer({ results: [], total, count: results.count, facets, message: 'ok' });
  if (!head.startsWith(EMPTY_RESULTS)) throw new Error('search answer: results are not first in the schema');
  return `{"results":[${results.text}]${head.slice(EMPTY_RESULTS.length)}`;
}

/** Counts table facet of each scalar filter column, for bounds on the number of matches. */
const BOUND_FACETS = new Set(['severity', 'type', 'dir', 'vendor', 'product', 'is_new', 'is_early']);

/** What a filter tells about its number of matches (see matchLowerBound); null when nothing cheap. */
function filterBound(f: Filter): FilterBound | null {
  if (BOUND_FACETS.has(f.column)) return { facet: f.column, values: f.values, negate: f.negate };
  // Array facets: a negated filter excludes at most the values' counts; a positive one gives no bound.
  if (f.negate && (f.column === 'tags' || f.column === 'author'))
    return { facet: f.column, values: f.values, negate: true, lower: f.column === 'author' };
  return null;
}

interface FacetInput {
  scope: Scope;
  teamId: string;
  query: ParsedQuery;
  /** The WHERE parts: scope first, then one per word and filter; `from` the FROM list. */
  where: string[];
  from: string;
  values: unknown[];
  size: number;
  /** The table's change counter when caching (read before any query of the search); undefined: no cache. */
  version: number | undefined;
}

/**
 * Counted in this process over its copy of the facet columns when that copy is of the current table
 * version (facet-index.ts). Otherwise in the database: without q the facets are those of the whole scope,
 * read from the counts table; with filters only that surely match more than half of the scope (of one
 * owner), the counts table minus the templates outside the match; else one aggregate query over the
 * matching templates. Those with q are cached per query and table version (see facet-cache.ts).
 */
async function facetCounts(db: Db, input: FacetInput): Promise<FacetCounts> {
  const { scope, teamId, query, where, values, size, version } = input;
  const owners = scope === 'public' ? [''] : scope === 'private' ? [teamId] : ['', teamId];
  if (query.words.length + query.filters.length === 0) {
    return (
      (await countScopeFromIndex(db, owners, size, version)) ?? countsFromTable(db, owners[0]!, owners[1] ?? null, size)
    );
  }
  const source = `${input.from} WHERE ${where.join(' AND ')}`;
  const key = `${source}\u0000${JSON.stringify(values)}\u0000${size}`;
  const compute = async () => {
    // Counted in this process over its copy of the facet columns when that copy is of this table version:
    // filters only, all on facet columns, are also matched there (no scan at all); otherwise the database
    // lists the matches.
    if (query.words.length === 0) {
      const filtered = await countFilteredFromIndex(db, owners, query.filters, size, version);
      if (filtered) return filtered;
    }
    const indexed = await countFromIndex(db, source, values, size, version);
    if (indexed) return indexed;
    if (query.words.length === 0) {
      const bound = await matchLowerBound(db, owners, query.filters.map(filterBound));
      // One owner's counts only (the common case: a team without private templates in public_private).
      if (2 * bound.bound > bound.total && bound.owners.length === 1) {
        return countsByComplement(db, bound.owners[0]!, where[0]!, where.slice(1).join(' AND '), values, size);
      }
    }
    return countMatches(db, source, values, size);
  };
  return version === undefined ? compute() : cachedFacets(db, key, version, compute);
}
