// SQL for vulnerability intelligence: per-feed facts, CWE names, computed records.
// Bulk writes pass one JSON array parameter and unpack it with jsonb_to_recordset (same SQL on PGlite
// and PostgreSQL, no string-built VALUES lists).
import type { Db } from '../../db/connection.ts';
import type { CveFacts } from './facts.ts';
import type { VulnColumns, VulnDoc } from './record.ts';
import { forgetRecords } from './record-cache.ts';

// PostgreSQL text and jsonb cannot hold NUL characters; some feeds carry them inside descriptions.
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '') : v,
  );
}

export interface FactRow {
  cve_id: string;
  data: unknown;
}

/** Upserts facts of one feed; returns the CVE ids whose fact is new or different. */
export async function upsertFacts(db: Db, feed: string, rows: FactRow[]): Promise<string[]> {
  if (!rows.length) return [];
  const res = await db.query<{ cve_id: string }>(
    `INSERT INTO intel_facts (cve_id, feed, data)
     SELECT x.cve_id, $1, x.data FROM jsonb_to_recordset($2::jsonb) AS x(cve_id text, data jsonb)
     ON CONFLICT (cve_id, feed) DO UPDATE SET data = EXCLUDED.data, updated_at = now()
       WHERE intel_facts.data IS DISTINCT FROM EXCLUDED.data
     RETURNING cve_id`,
    [feed, toJson(rows)],
  );
  return res.rows.map((r) => r.cve_id);
}

export async function getFacts(db: Db, feed: string, cveIds: string[]): Promise<Map<string, unknown>> {
  const res = await db.query<{ cve_id: string; data: unknown }>(
    'SELECT cve_id, data FROM intel_facts WHERE feed = $1 AND cve_id = ANY($2::text[])',
    [feed, cveIds],
  );
  return new Map(res.rows.map((r) => [r.cve_id, r.data]));
}

/** For snapshot feeds (a whole catalogue per import): removes facts of CVEs absent from it. */
export async function deleteFactsExcept(db: Db, feed: string, keep: string[]): Promise<string[]> {
  const res = await db.query<{ cve_id: string }>(
    'DELETE FROM intel_facts WHERE feed = $1 AND NOT (cve_id = ANY($2::text[])) RETURNING cve_id',
    [feed, keep],
  );
  return res.rows.map((r) => r.cve_id);
}

export async function loadFacts(db: Db, cveIds: string[]): Promise<Map<string, CveFacts>> {
  const res = await db.query<{ cve_id: string; feed: string; data: unknown }>(
    'SELECT cve_id, feed, data FROM intel_facts WHERE cve_id = ANY($1::text[])',
    [cveIds],
  );
  const out = new Map<string, CveFacts>();
  for (const r of res.rows) {
    const facts = out.get(r.cve_id) ?? {};
    (facts as Record<string, unknown>)[r.feed] = r.data;
    out.set(r.cve_id, facts);
  }
  return out;
}

/** Upserts CWE names; returns the ids whose name is new or changed. */
export async function upsertCwes(db: Db, rows: { cwe_id: string; name: string }[]): Promise<string[]> {
  if (!rows.length) return [];
  const res = await db.query<{ cwe_id: string }>(
    `INSERT INTO intel_cwe (cwe_id, name)
     SELECT x.cwe_id, x.name FROM jsonb_to_recordset($1::jsonb) AS x(cwe_id text, name text)
     ON CONFLICT (cwe_id) DO UPDATE SET name = EXCLUDED.name WHERE intel_cwe.name IS DISTINCT FROM EXCLUDED.name
     RETURNING cwe_id`,
    [toJson(rows)],
  );
  return res.rows.map((r) => r.cwe_id);
}

export async function cweNames(db: Db): Promise<Map<string, string>> {
  const res = await db.query<{ cwe_id: string; name: string }>('SELECT cwe_id, name FROM intel_cwe');
  return new Map(res.rows.map((r) => [r.cwe_id, r.name]));
}

export async function cvesWithCwes(db: Db, cweIds: string[]): Promise<string[]> {
  const res = await db.query<{ cve_id: string }>('SELECT cve_id FROM intel_vulns WHERE cwe && $1::text[]', [cweIds]);
  return res.rows.map((r) => r.cve_id);
}

export async function allFactCves(db: Db): Promise<string[]> {
  const res = await db.query<{ cve_id: string }>('SELECT DISTINCT cve_id FROM intel_facts ORDER BY cve_id');
  return res.rows.map((r) => r.cve_id);
}

const COLS = `cve_id text, doc_id text, doc text, cve_created_at timestamptz, cve_updated_at timestamptz, severity text,
  cvss_score float8, epss_score float8, epss_percentile float8, poc_count int, ntps int, is_kev bool, is_vkev bool,
  is_poc bool, is_template bool, is_exploit_seen bool, is_patch_available bool, is_oss bool, is_remote bool, is_auth bool,
  vendor text, product text, assignee text, vuln_status text, template_coverage text, cwe text[], search_text text`;
const NAMES = COLS.split(',').map((c) => c.trim().split(/\s+/)[0]!);

/** Upserts computed records; returns how many were new or changed (unchanged rows keep updated_at). */
export async function upsertRecords(db: Db, records: (VulnColumns & { doc: VulnDoc })[]): Promise<number> {
  if (!records.length) return 0;
  // Serialising the same record always gives the same text, so text equality is record equality.
  const rows = records.map((r) => ({ ...r, doc: toJson(r.doc) }));
  const updates = NAMES.filter((n) => n !== 'cve_id')
    .map((n) => `${n} = EXCLUDED.${n}`)
    .join(', ');
  const res = await db.query(
    `INSERT INTO intel_vulns (${NAMES.join(', ')})
     SELECT ${NAMES.map((n) => `x.${n}`).join(', ')} FROM jsonb_to_recordset($1::jsonb) AS x(${COLS})
     ON CONFLICT (cve_id) DO UPDATE SET ${updates}, updated_at = now()
       WHERE intel_vulns.doc IS DISTINCT FROM EXCLUDED.doc
     RETURNING cve_id`,
    [toJson(rows)],
  );
  if (res.rowCount) forgetRecords(db);
  return res.rowCount;
}

export async function deleteRecords(db: Db, cveIds: string[]): Promise<void> {
  if (!cveIds.length) return;
  await db.query('DELETE FROM intel_vulns WHERE cve_id = ANY($1::text[])', [cveIds]);
  forgetRecords(db);
}

export interface StoredVuln {
  /** the record's JSON text, without the read-time fields */
  doc: string;
  cve_created_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** The columns a read needs: the record's JSON and what the read-time fields are computed from. */
export const READ = 'SELECT doc, cve_created_at, created_at, updated_at FROM intel_vulns';

// The two reads of GET /v2/vulnerability/{id} when the record is not in the record cache: named prepared
// statements, so each connection parses and plans them once (on PostgreSQL the backend's CPU per read went
// from about 80 to 45 us and the round trip's median from 0.13 to 0.08 ms, same run; docs/performance.md).
export async function findByCveId(db: Db, cveId: string): Promise<StoredVuln | undefined> {
  return (await db.query<StoredVuln>(`${READ} WHERE cve_id = $1`, [cveId], { name: 'intel_vuln_by_cve_id' })).rows[0];
}

export async function findByDocId(db: Db, docId: string): Promise<StoredVuln | undefined> {
  return (await db.query<StoredVuln>(`${READ} WHERE doc_id = $1`, [docId], { name: 'intel_vuln_by_doc_id' })).rows[0];
}

/** The stored record of a CVE id or doc_id (both indexed). */
export async function findJson(db: Db, id: string): Promise<StoredVuln | undefined> {
  return id.startsWith('CVE-') ? findByCveId(db, id) : findByDocId(db, id);
}

export async function logImport(
  db: Db,
  r: {
    feed: string;
    source: string;
    started: Date;
    read: number;
    changed: number;
    skipped: { ref: string; reason: string }[];
    skippedCount: number;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO intel_imports (feed, source, started_at, finished_at, read_count, changed_count, skipped_count, skipped)
     VALUES ($1, $2, $3, now(), $4, $5, $6, $7::jsonb)`,
    [r.feed, r.source, r.started, r.read, r.changed, r.skippedCount, JSON.stringify(r.skipped)],
  );
}

// Searches: `where` is SQL built by query.ts's SqlBuilder from the user's query (values only as
// parameters), `params` its values.

export async function countWhere(db: Db, where: string, params: unknown[]): Promise<number> {
  return (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM intel_vulns WHERE ${where}`, params)).rows[0]!
    .n;
}

/** `limit` and `offset` are parameter placeholders of the builder. */
export async function readWhere(
  db: Db,
  where: string,
  order: string,
  limit: string,
  offset: string,
  params: unknown[],
): Promise<StoredVuln[]> {
  return (
    await db.query<StoredVuln>(`${READ} WHERE ${where} ORDER BY ${order} LIMIT ${limit} OFFSET ${offset}`, params)
  ).rows;
}

/** Counts per value of `expr` (a column expression of query.ts's field table); with `limit`, the largest first. */
export async function groupCounts(
  db: Db,
  expr: string,
  where: string,
  params: unknown[],
  limit?: number,
): Promise<{ k: string | null; n: number }[]> {
  const tail = limit === undefined ? '' : ` ORDER BY 2 DESC, 1 LIMIT ${limit}`;
  return (
    await db.query<{ k: string | null; n: number }>(
      `SELECT ${expr} AS k, count(*)::int AS n FROM intel_vulns WHERE ${where} GROUP BY 1${tail}`,
      params,
    )
  ).rows;
}

/** How many CWE entries the matching records name in all. */
export async function countCweWhere(db: Db, where: string, params: unknown[]): Promise<number> {
  return (
    await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM intel_vulns, unnest(cwe) WHERE ${where}`, params)
  ).rows[0]!.n;
}

/** How many records there are, and how many of them have a template. */
export async function countRecords(db: Db): Promise<{ records: number; withTemplate: number }> {
  const { rows } = await db.query<{ n: number; t: number }>(
    'SELECT count(*)::int AS n, count(*) FILTER (WHERE is_template)::int AS t FROM intel_vulns',
  );
  return { records: rows[0]!.n, withTemplate: rows[0]!.t };
}
