// Rules of the vulnerability API: id resolution, field selection, read-time fields, search and facets.
import type { Db } from '../../db/connection.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { FIELD_NAMES } from './schema.ts';
import * as store from './store.ts';
import { orderBy, SEARCH_FIELDS, SqlBuilder, whereFor } from './query.ts';
import { normCveId } from './facts.ts';
import { cachedRecord } from './record-cache.ts';

type Doc = Record<string, unknown>;
const DAY = 86_400_000;

/** Parses `fields` (comma separated); an unknown name is a 400 that names it. */
export function parseFields(fields: string | string[] | undefined): string[] | undefined {
  const list = (Array.isArray(fields) ? fields.join(',') : (fields ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) return undefined;
  for (const f of list) if (!FIELD_NAMES.has(f)) throw badRequest(`unknown field "${f}" in fields`, 'fields');
  return list;
}

const age = (row: store.StoredVuln, now: number) =>
  row.cve_created_at ? Math.max(0, Math.floor((now - new Date(row.cve_created_at).getTime()) / DAY)) : undefined;
const iso = (d: Date | string) => (d instanceof Date ? d.toISOString() : new Date(d).toISOString());

/** The stored record plus the fields that depend on the moment of reading, as an object. */
export function present(row: store.StoredVuln, fields: string[] | undefined, now = Date.now()): Doc {
  const doc: Doc = JSON.parse(row.doc);
  doc.created_at = iso(row.created_at);
  doc.updated_at = iso(row.updated_at);
  const days = age(row, now);
  if (days !== undefined) doc.age_in_days = days;
  if (!fields) return doc;
  const out: Doc = {};
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out;
}

/**
 * The whole stored record with the read-time fields added, as JSON text: the stored text is spliced, not
 * parsed and serialised again (records carry the template source and run to tens of kB). The record's
 * fields were checked against the Vulnerability schema when computed (test/platform/intel).
 */
export function lookupJson(row: store.StoredVuln, now: number): string {
  const extra = readTimeFields(row, now);
  const body = row.doc;
  return body.length > 2 ? `${body.slice(0, -1)},${extra}}` : `{${extra}}`;
}

/** The read-time fields as JSON members (ASCII only), without braces. */
function readTimeFields(row: store.StoredVuln, now: number): string {
  const days = age(row, now);
  return `"created_at":"${iso(row.created_at)}","updated_at":"${iso(row.updated_at)}"${days === undefined ? '' : `,"age_in_days":${days}`}`;
}

/**
 * The stored record of a CVE id (any letter case) or a doc_id. `cached`: from the in-process record cache
 * when there (record-cache.ts); only for the application's database, never inside a transaction (a read of
 * its own uncommitted writes must not be kept).
 */
async function findRow(db: Db, id: string, cached = false): Promise<store.StoredVuln> {
  const cveId = normCveId(id);
  const docId = cveId ? undefined : /^[0-9a-f]{24}$/i.test(id) ? id.toLowerCase() : undefined;
  const read = async () => (cveId ? store.findByCveId(db, cveId) : docId ? store.findByDocId(db, docId) : undefined);
  const key = cveId ?? docId;
  const row = key === undefined ? undefined : cached ? await cachedRecord(db, key, read) : await read();
  if (!row) throw notFound(`no vulnerability with id "${id}"`, 'id');
  return row;
}

export async function getVulnerability(db: Db, id: string, fields?: string | string[]): Promise<Doc> {
  const wanted = parseFields(fields);
  return present(await findRow(db, id), wanted);
}

/** A record's whole answer as the bytes sent, and the span of time [from, until) in which it holds. */
interface Answer {
  bytes: Buffer;
  from: number;
  until: number;
}
/**
 * Answers of the records in memory (the record cache's rows live as long as the cache keeps them; a row
 * read past the cache is dropped with its answer). A cached record is answered by sending these bytes:
 * no splicing, no ISO dates, no encoding of the text per request.
 */
const answers = new WeakMap<store.StoredVuln, Answer>();

/** The span of time in which age_in_days (whole days since publication, at least 0) stays what it is at now. */
function ageSpan(row: store.StoredVuln, now: number): { from: number; until: number } {
  if (!row.cve_created_at) return { from: -Infinity, until: Infinity };
  const published = new Date(row.cve_created_at).getTime();
  const days = Math.floor((now - published) / DAY);
  return days < 1
    ? { from: -Infinity, until: published + DAY }
    : { from: published + days * DAY, until: published + (days + 1) * DAY };
}

/** `{"data": record}` as UTF-8 bytes, the same text lookupJson gives at now (kept per row for its day). */
export function lookupAnswer(row: store.StoredVuln, now: number): Buffer {
  const kept = answers.get(row);
  if (kept && kept.from <= now && now < kept.until) return kept.bytes;
  const bytes = answerBytes(row, now);
  answers.set(row, { bytes, ...ageSpan(row, now) });
  return bytes;
}

const HEAD = '{"data":';
/**
 * The bytes of `{"data":${lookupJson(row, now)}}`, written piece by piece: the record's text is encoded once,
 * straight into the answer, and its last `}` overwritten by the read-time fields. Building the text first
 * (a concatenation, flattened into a copy of the record's size, then encoded) cost a first read two
 * record-sized allocations on the JavaScript heap (docs/performance.md, "on a slower machine").
 * A memory of its own: Buffer.from would cut a small answer from Node's shared 8 kB pool, and keeping it
 * would keep the whole slab.
 */
function answerBytes(row: store.StoredVuln, now: number): Buffer {
  const doc = row.doc;
  const tail = `${doc.length > 2 ? ',' : '{'}${readTimeFields(row, now)}}}`;
  // Without members ("{}" or shorter) the record's text is replaced, as lookupJson does.
  const docBytes = doc.length > 2 ? Buffer.byteLength(doc) - 1 : 0; // its text up to the closing '}' (ASCII)
  const bytes = Buffer.allocUnsafeSlow(HEAD.length + docBytes + tail.length);
  bytes.write(HEAD, 0, 'latin1');
  let at = HEAD.length;
  if (docBytes) at += bytes.write(doc, at, 'utf8') - 1;
  bytes.write(tail, at, 'latin1');
  return bytes;
}

/**
 * GET /v2/vulnerability/{id}: the answer `{data: Vulnerability}`, as JSON bytes when every field is
 * wanted (the fast path), else as an object of the chosen fields for the route's serializer.
 */
export async function lookup(
  db: Db,
  id: string,
  fields?: string,
  now = Date.now(),
): Promise<{ bytes: Buffer } | { data: Doc }> {
  const wanted = parseFields(fields);
  const row = await findRow(db, id, true);
  if (wanted) return { data: present(row, wanted, now) };
  return { bytes: lookupAnswer(row, now) };
}

export interface SearchParams {
  q?: string;
  limit?: number;
  offset?: number;
  sort_asc?: string;
  sort_desc?: string;
  fields?: string | string[];
  term_facets?: string | string[];
  range_facets?: string | string[];
  facets?: string | string[];
  facet_size?: number;
}

export const TERM_FACETS = [
  'severity',
  'vendor',
  'product',
  'assignee',
  'vuln_status',
  'template_coverage',
  'cwe',
  'is_kev',
  'is_vkev',
  'is_poc',
  'is_template',
  'is_exploit_seen',
  'is_patch_available',
  'is_oss',
  'is_remote',
  'is_auth',
];
// Range facet buckets: [label, lower bound (inclusive), upper bound (exclusive)]; numbers are constants.
export const RANGES: Record<string, [string, number, number][]> = {
  cvss_score: [
    ['0-4', 0, 4],
    ['4-7', 4, 7],
    ['7-9', 7, 9],
    ['9-10', 9, 11],
  ],
  epss_score: [
    ['0-0.01', 0, 0.01],
    ['0.01-0.1', 0.01, 0.1],
    ['0.1-0.5', 0.1, 0.5],
    ['0.5-1', 0.5, 2],
  ],
  epss_percentile: [
    ['0-0.5', 0, 0.5],
    ['0.5-0.9', 0.5, 0.9],
    ['0.9-0.99', 0.9, 0.99],
    ['0.99-1', 0.99, 2],
  ],
  ntps: [
    ['0-25', 0, 25],
    ['25-50', 25, 50],
    ['50-75', 50, 75],
    ['75-100', 75, 101],
  ],
  poc_count: [
    ['0', 0, 1],
    ['1-4', 1, 5],
    ['5-19', 5, 20],
    ['20+', 20, 1e9],
  ],
};
const csv = (v: string | string[] | undefined) =>
  (Array.isArray(v) ? v.join(',') : (v ?? ''))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export async function search(db: Db, p: SearchParams) {
  const wanted = parseFields(p.fields);
  const limit = p.limit ?? 10;
  const offset = p.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw badRequest('limit must be 1 to 1000', 'limit');
  if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset must be 0 or more', 'offset');
  const b = new SqlBuilder(new Date());
  const where = whereFor(p.q ?? '', b);
  const order = orderBy(p.sort_asc, p.sort_desc);
  const total = await store.countWhere(db, where, b.params);
  const rows = await store.readWhere(db, where, order, b.p(limit), b.p(offset), b.params);
  const now = Date.now();
  const results = rows.map((r) => present(r, wanted, now));
  const facets = await facetsFor(db, where, b.params.slice(0, -2), total, p);
  return { count: results.length, total, results, ...(facets ? { facets } : {}) };
}

async function facetsFor(db: Db, where: string, params: unknown[], total: number, p: SearchParams) {
  const terms = [...csv(p.term_facets), ...csv(p.facets)];
  const ranges = csv(p.range_facets);
  if (!terms.length && !ranges.length) return undefined;
  const size = p.facet_size ?? 10;
  if (!Number.isInteger(size) || size < 1 || size > 1000)
    throw badRequest('facet_size must be 1 to 1000', 'facet_size');
  const out: Record<string, { buckets: Record<string, number>; missing: number; other: number; total: number }> = {};
  for (const name of terms) {
    if (!TERM_FACETS.includes(name))
      throw badRequest(`term_facets: "${name}" cannot be faceted; use one of ${TERM_FACETS.join(', ')}`, 'term_facets');
    const col = SEARCH_FIELDS[name]!.col;
    const expr = name === 'cwe' ? 'unnest(cwe)' : `${col}::text`;
    const res = await store.groupCounts(db, expr, where, params, size + 1);
    const missing =
      name === 'cwe'
        ? await store.countWhere(db, `${where} AND cardinality(cwe) = 0`, params)
        : (res.find((r) => r.k === null)?.n ?? 0);
    const buckets: Record<string, number> = {};
    for (const r of res) if (r.k !== null && Object.keys(buckets).length < size) buckets[r.k] = r.n;
    const counted = Object.values(buckets).reduce((a, n) => a + n, 0);
    const all = name === 'cwe' ? await store.countCweWhere(db, where, params) : total - missing;
    out[name] = { buckets, missing, other: Math.max(0, all - counted), total };
  }
  for (const name of ranges) {
    const edges = RANGES[name];
    if (!edges)
      throw badRequest(
        `range_facets: "${name}" has no ranges; use one of ${Object.keys(RANGES).join(', ')}`,
        'range_facets',
      );
    const col = SEARCH_FIELDS[name]!.col;
    const cases = edges.map(([label, lo, hi]) => `WHEN ${col} >= ${lo} AND ${col} < ${hi} THEN '${label}'`);
    const res = await store.groupCounts(db, `CASE ${cases.join(' ')} END`, where, params);
    const buckets: Record<string, number> = {};
    for (const r of res) if (r.k !== null) buckets[r.k] = r.n;
    const missing = res.find((r) => r.k === null)?.n ?? 0;
    out[name] = { buckets, missing, other: 0, total };
  }
  return out;
}
