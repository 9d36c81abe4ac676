// SQL for the templates table: writes (one row or a batch), reads by id, deletes. Search lives in
// search-sql.ts. Public catalogue rows have team_id NULL; private rows carry their team.
import type { Db } from '../../db/connection.ts';
import type { TemplateFields } from './record.ts';
import type { Candidate, Profile } from './profiles.ts';
import * as values from '../shared/platform-values-store.ts';

export interface TemplateRow extends TemplateFields {
  pk: number;
  team_id: string | null;
  template_type: string;
  template_id: string;
  uri: string;
  dir: string | null;
  filename: string | null;
  release_tag: string | null;
  ref: string | null;
  ai_meta: Record<string, unknown> | null;
  is_draft: boolean;
  is_github: boolean;
  is_new: boolean;
  is_early: boolean;
  is_svcteam: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A row to write: the parsed fields plus where it lives and its flags. */
export interface NewRow extends TemplateFields {
  team_id: string | null;
  template_type: 'public' | 'user' | 'shared';
  template_id: string;
  uri: string;
  dir: string | null;
  filename: string | null;
  release_tag?: string | null;
  ref?: string | null;
  ai_meta?: Record<string, unknown> | null;
  is_new?: boolean;
  is_early?: boolean;
  is_svcteam?: boolean;
}

const WRITE_COLUMNS = [
  'team_id',
  'template_type',
  'template_id',
  'id',
  'uri',
  'name',
  'author',
  'tags',
  'severity',
  'type',
  'dir',
  'vendor',
  'product',
  'classification',
  'metadata',
  'cve_ids',
  'digest',
  'raw',
  'description',
  'impact',
  'remediation',
  'refs',
  'filename',
  'release_tag',
  'ref',
  'ai_meta',
  'is_new',
  'is_early',
  'is_svcteam',
  'payload_files',
  'signed_by',
  'signature_keys',
] as const;
const JSON_COLUMNS = new Set(['classification', 'metadata', 'ai_meta', 'payload_files']);
// Three extra parameters per row feed the weighted search document.
const PARAMS_PER_ROW = WRITE_COLUMNS.length + 3;

function rowParams(r: NewRow): unknown[] {
  const values = WRITE_COLUMNS.map((c) => {
    const v = (r as unknown as Record<string, unknown>)[c];
    if (JSON_COLUMNS.has(c)) return v == null ? null : JSON.stringify(v);
    if (c === 'is_new' || c === 'is_early' || c === 'is_svcteam') return v ?? false;
    return v ?? null;
  });
  const [a, b, c] = searchText(r);
  return [...values, a, b, c];
}

/** Text of the weighted search document: id and name; tags, authors, vendor, product, CVEs; description. */
export function searchText(r: TemplateFields): [string, string, string] {
  return [
    `${r.id} ${r.name}`,
    [...r.tags, ...r.author, r.vendor ?? '', r.product ?? '', ...r.cve_ids].join(' '),
    r.description ?? '',
  ];
}

function valuesSql(rows: number): string {
  const out: string[] = [];
  for (let i = 0; i < rows; i++) {
    const base = i * PARAMS_PER_ROW;
    const cols = WRITE_COLUMNS.map((c, j) => (JSON_COLUMNS.has(c) ? `$${base + j + 1}::jsonb` : `$${base + j + 1}`));
    const s = base + WRITE_COLUMNS.length;
    cols.push(
      `setweight(to_tsvector('simple', $${s + 1}::text), 'A') || setweight(to_tsvector('simple', $${s + 2}::text), 'B') || setweight(to_tsvector('simple', $${s + 3}::text), 'C')`,
    );
    out.push(`(${cols.join(', ')})`);
  }
  return out.join(',\n');
}

const INSERT_HEAD = `INSERT INTO templates (${WRITE_COLUMNS.join(', ')}, search) VALUES `;

export async function insertOne(db: Db, r: NewRow): Promise<TemplateRow> {
  const res = await db.query<TemplateRow>(`${INSERT_HEAD}${valuesSql(1)} RETURNING *`, rowParams(r));
  return res.rows[0]!;
}

/**
 * Inserts public catalogue rows, or replaces the content of the ones already there (same uri).
 * created_at and release_tag of an existing row are kept: they record when it first appeared.
 */
export async function upsertPublic(db: Db, rows: NewRow[], batchSize = 200): Promise<void> {
  for (let i = 0; i < rows.length; i += batchSize) {
    const batch = rows.slice(i, i + batchSize);
    const params = batch.flatMap(rowParams);
    await db.query(
      `${INSERT_HEAD}${valuesSql(batch.length)}
       ON CONFLICT (uri) WHERE team_id IS NULL DO UPDATE SET
         ${WRITE_COLUMNS.filter((c) => c !== 'release_tag' && c !== 'uri' && c !== 'team_id')
           .map((c) => `${c} = EXCLUDED.${c}`)
           .join(', ')},
         release_tag = COALESCE(templates.release_tag, EXCLUDED.release_tag),
         search = EXCLUDED.search, updated_at = now()`,
      params,
    );
  }
}

/** Replaces a private template's content (and optionally filename, dir, ai_meta). */
export async function updatePrivate(
  db: Db,
  teamId: string,
  templateId: string,
  r: NewRow,
): Promise<TemplateRow | undefined> {
  const all = rowParams(r);
  // Only the content columns change; every parameter sent must appear in the SQL (PostgreSQL infers types).
  const keep = WRITE_COLUMNS.map((c, j) => [c, j] as const).filter(
    ([c]) => !['team_id', 'template_type', 'template_id', 'uri', 'is_new', 'is_early', 'is_svcteam'].includes(c),
  );
  const params = [...keep.map(([, j]) => all[j]), ...all.slice(WRITE_COLUMNS.length)];
  const sets = keep.map(([c], i) => `${c} = ${JSON_COLUMNS.has(c) ? `$${i + 1}::jsonb` : `$${i + 1}`}`);
  const s = keep.length;
  const res = await db.query<TemplateRow>(
    `UPDATE templates SET ${sets.join(', ')},
       search = setweight(to_tsvector('simple', $${s + 1}::text), 'A') || setweight(to_tsvector('simple', $${s + 2}::text), 'B') || setweight(to_tsvector('simple', $${s + 3}::text), 'C'),
       updated_at = now()
     WHERE team_id = $${s + 4} AND template_id = $${s + 5} RETURNING *`,
    [...params, teamId, templateId],
  );
  return res.rows[0];
}

export async function getPrivate(db: Db, teamId: string, templateId: string): Promise<TemplateRow | undefined> {
  const res = await db.query<TemplateRow>('SELECT * FROM templates WHERE team_id = $1 AND template_id = $2', [
    teamId,
    templateId,
  ]);
  return res.rows[0];
}

export async function getPublic(db: Db, idOrUri: string): Promise<TemplateRow | undefined> {
  const res = await db.query<TemplateRow>(
    'SELECT * FROM templates WHERE team_id IS NULL AND (template_id = $1 OR uri = $1) ORDER BY is_early, uri LIMIT 1',
    [idOrUri],
  );
  return res.rows[0];
}

export async function deletePrivate(db: Db, teamId: string, templateId: string): Promise<boolean> {
  const res = await db.query('DELETE FROM templates WHERE team_id = $1 AND template_id = $2', [teamId, templateId]);
  return res.rowCount > 0;
}

export async function listPrivate(
  db: Db,
  teamId: string,
  offset: number,
  limit: number,
  columns: string,
): Promise<{ rows: TemplateRow[]; total: number }> {
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM templates WHERE team_id = $1', [teamId]);
  const res = await db.query<TemplateRow>(
    `SELECT ${columns} FROM templates WHERE team_id = $1 ORDER BY created_at DESC, pk DESC OFFSET $2 LIMIT $3`,
    [teamId, offset, limit],
  );
  return { rows: res.rows, total: total.rows[0]!.n };
}

/** uri -> digest and flags of the public rows of one partition (early or not), for incremental imports. */
export async function publicDigests(db: Db): Promise<Map<string, { digest: string; is_early: boolean }>> {
  const res = await db.query<{ uri: string; digest: string; is_early: boolean }>(
    'SELECT uri, digest, is_early FROM templates WHERE team_id IS NULL',
  );
  return new Map(res.rows.map((r) => [r.uri, { digest: r.digest, is_early: r.is_early }]));
}

export async function deletePublic(db: Db, uris: string[]): Promise<void> {
  for (let i = 0; i < uris.length; i += 1000) {
    await db.query('DELETE FROM templates WHERE team_id IS NULL AND uri = ANY($1::text[])', [uris.slice(i, i + 1000)]);
  }
}

/**
 * is_new marks exactly the rows the latest import added: written rows carry their own flag, so only rows
 * left untouched by this import and still marked from an earlier one need clearing.
 */
export async function clearNewExcept(db: Db, added: string[]): Promise<number> {
  const res = await db.query(
    'UPDATE templates SET is_new = false WHERE team_id IS NULL AND is_new AND NOT (uri = ANY($1::text[]))',
    [added],
  );
  return res.rowCount;
}

// Reads for other areas: the scans, assets and intel areas read templates only through these.

/** Texts of templates by row, ordered by path (an enumeration's technology templates). */
export async function textsByPk(db: Db, pks: number[]): Promise<{ uri: string; raw: string }[]> {
  const { rows } = await db.query<{ uri: string; raw: string }>(
    'SELECT uri, raw FROM templates WHERE pk = ANY($1::bigint[]) ORDER BY uri',
    [pks],
  );
  return rows;
}

/** Tags and severity of templates by row (a scan config's template filters). */
export async function tagsAndSeverity(
  db: Db,
  pks: number[],
): Promise<{ pk: number; tags: string[]; severity: string }[]> {
  const { rows } = await db.query<{ pk: number; tags: string[]; severity: string }>(
    'SELECT pk, tags, severity FROM templates WHERE pk = ANY($1::bigint[])',
    [pks],
  );
  return rows;
}

/** The team's and the public (not early) templates with any of the tags and any of the severities (empty: any). */
export async function selectByTagsAndSeverity(
  db: Db,
  teamId: string,
  tags: string[],
  severities: string[],
): Promise<{ pk: number; id: string; uri: string; digest: string }[]> {
  const { rows } = await db.query<{ pk: number; id: string; uri: string; digest: string }>(
    `SELECT pk, id, uri, digest FROM templates
     WHERE ((team_id IS NULL AND NOT is_early) OR team_id = $1)
       AND ($2::text[] = '{}' OR tags && $2::text[]) AND ($3::text[] = '{}' OR severity = ANY($3::text[]))
     ORDER BY uri LIMIT 100000`,
    [teamId, tags, severities],
  );
  return rows;
}

/** Public templates (no workflows themselves) at these paths, under these folders, or with these tags: a workflow's dependencies. */
export async function workflowTemplates(
  db: Db,
  paths: string[],
  tags: string[],
  limit: number,
): Promise<{ uri: string; raw: string; payload_files: Record<string, string[]> | null }[]> {
  const { rows } = await db.query<{ uri: string; raw: string; payload_files: Record<string, string[]> | null }>(
    `SELECT uri, raw, payload_files FROM templates
      WHERE team_id IS NULL AND NOT is_early AND raw !~ '(^|\n)workflows\\s*:'
        AND (uri = ANY($1::text[]) OR EXISTS (SELECT 1 FROM unnest($1::text[]) p WHERE starts_with(uri, p || '/'))
             OR tags && $2::text[])
      ORDER BY uri LIMIT $3`,
    [paths, tags, limit],
  );
  return rows;
}

/** Link fields of a CVE-linked template (the intel area's 'template' fact). */
export interface CveTemplateRow {
  id: string;
  cve_ids: string[];
  uri: string;
  digest: string;
  ref: string | null;
  release_tag: string | null;
  template_type: string;
  is_draft: boolean;
  is_early: boolean;
  is_github: boolean;
  is_new: boolean;
  is_svcteam: boolean;
  created_at: Date | string;
}

/** Public templates that name a CVE (classification.cve-id) or carry one as their id. */
export async function publicCveTemplates(db: Db): Promise<CveTemplateRow[]> {
  const { rows } = await db.query<CveTemplateRow>(
    `SELECT id, cve_ids, uri, digest, ref, release_tag, template_type, is_draft, is_early, is_github, is_new, is_svcteam, created_at FROM templates
     WHERE team_id IS NULL AND (cardinality(cve_ids) > 0 OR id ILIKE 'CVE-%')`,
  );
  return rows;
}

/** What a vulnerability record shows of its linked public templates, by path. */
export interface TemplateContentRow {
  uri: string;
  id: string;
  name: string | null;
  severity: string | null;
  type: string | null;
  description: string | null;
  impact: string | null;
  remediation: string | null;
  author: string[];
  tags: string[];
  classification: Record<string, unknown> | null;
  metadata: Record<string, unknown> | null;
  ai_meta: Record<string, unknown> | null;
  raw: string;
}

export async function publicContents(db: Db, uris: string[]): Promise<TemplateContentRow[]> {
  const { rows } = await db.query<TemplateContentRow>(
    `SELECT uri, id, name, severity, type, description, impact, remediation, author, tags, classification, metadata, ai_meta, raw
     FROM templates WHERE team_id IS NULL AND uri = ANY($1::text[])`,
    [uris],
  );
  return rows;
}

/** VACUUM (ANALYZE) of the catalogue's tables after a bulk change (planner statistics, GIN entry statistics). */
export async function vacuumAnalyze(db: Db): Promise<void> {
  await db.query('VACUUM (ANALYZE) templates, template_facet_counts');
}

/** The catalogue's change counter (template_changes, bumped by a trigger on every write from any process). */
export async function changeVersion(db: Db): Promise<number> {
  const res = await db.query<{ version: number }>('SELECT version FROM template_changes WHERE id = 1');
  return Number(res.rows[0]?.version ?? 0);
}

/** A template a scan's selector chose (resolve.ts). */
export interface SelectedTemplate {
  id: string;
  uri: string;
  pk: number;
  digest: string;
}

/** A selector with the template it matched, or pk null when it matched none (one row per match). */
export type SelectorMatch = Omit<SelectedTemplate, 'pk'> & { pk: number | null; sel: string };

/** Every generally available catalogue template (not early, not private). */
export async function generalTemplates(db: Db): Promise<SelectedTemplate[]> {
  return (
    await db.query<SelectedTemplate>('SELECT pk, id, uri, digest FROM templates WHERE team_id IS NULL AND NOT is_early')
  ).rows;
}

/** Generally available catalogue templates above info, of the given types, without the excluded tags, flows or workflows. */
export async function recommendedTemplates(
  db: Db,
  types: string[],
  excludedTags: string[],
): Promise<SelectedTemplate[]> {
  return (
    await db.query<SelectedTemplate>(
      `SELECT pk, id, uri, digest FROM templates WHERE team_id IS NULL AND NOT is_early AND severity <> 'info'
       AND type = ANY($1::text[]) AND NOT (tags && $2::text[]) AND raw !~ '(^|\n)(flow|workflows):'`,
      [types, excludedTags],
    )
  ).rows;
}

/** Catalogue templates by id, path or folder, and the team's private ones by template_id or id. */
export async function matchSelectors(db: Db, selectors: string[], teamId: string): Promise<SelectorMatch[]> {
  return (
    await db.query<SelectorMatch>(
      `SELECT s.sel, t.pk, t.id, t.uri, t.digest FROM unnest($1::text[]) AS s(sel)
     LEFT JOIN templates t ON
       (t.team_id IS NULL AND NOT t.is_early AND (t.id = s.sel OR t.uri = s.sel OR starts_with(t.uri, s.sel || '/')))
       OR (t.team_id = $2 AND (t.template_id = s.sel OR t.id = s.sel))`,
      [selectors, teamId],
    )
  ).rows;
}

/** Early-access catalogue templates by id, path or folder; "all" matches every one. */
export async function matchEarlySelectors(db: Db, selectors: string[]): Promise<SelectorMatch[]> {
  return (
    await db.query<SelectorMatch>(
      `SELECT s.sel, t.pk, t.id, t.uri, t.digest FROM unnest($1::text[]) AS s(sel)
     LEFT JOIN templates t ON t.team_id IS NULL AND t.is_early
       AND (s.sel = 'all' OR t.id = s.sel OR t.uri = s.sel OR starts_with(t.uri, s.sel || '/'))`,
      [selectors],
    )
  ).rows;
}

/**
 * One page of a template search (search.ts builds the parts: the select list, FROM list, WHERE and ORDER BY
 * over parameters `values`); limit and offset are the statement's last two parameters.
 */
export async function searchPage(
  db: Db,
  q: { select: string[]; from: string; where: string; order: string },
  values: unknown[],
  limit: number,
  offset: number,
): Promise<Record<string, unknown>[]> {
  const n = values.length;
  const { rows } = await db.query<Record<string, unknown>>(
    `SELECT ${q.select.join(', ')} FROM ${q.from} WHERE ${q.where} ORDER BY ${q.order} LIMIT $${n + 1} OFFSET $${n + 2}`,
    [...values, limit, offset],
  );
  return rows;
}

/** One page of the public catalogue (or of its early-access set), ordered by path. */
export async function listPublic(
  db: Db,
  early: boolean,
  offset: number,
  limit: number,
  columns: string,
): Promise<{ rows: TemplateRow[]; total: number }> {
  const total = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM templates WHERE team_id IS NULL AND is_early = $1',
    [early],
  );
  const res = await db.query<TemplateRow>(
    `SELECT ${columns} FROM templates WHERE team_id IS NULL AND is_early = $1 ORDER BY uri OFFSET $2 LIMIT $3`,
    [early, offset, limit],
  );
  return { rows: res.rows, total: total.rows[0]!.n };
}

/** An early-access catalogue template by id or path. */
export async function getEarly(db: Db, idOrUri: string): Promise<TemplateRow | undefined> {
  const res = await db.query<TemplateRow>(
    'SELECT * FROM templates WHERE team_id IS NULL AND is_early AND (template_id = $1 OR uri = $1) ORDER BY uri LIMIT 1',
    [idOrUri],
  );
  return res.rows[0];
}

/** Up to `limit` rows carrying a `# digest:` line whose signature was checked under other keys than `keys`. */
export async function signatureRecheckBatch(
  db: Db,
  keys: string,
  limit: number,
): Promise<{ pk: number; raw: string; signed_by: string | null }[]> {
  const res = await db.query<{ pk: number; raw: string; signed_by: string | null }>(
    `SELECT pk, raw, signed_by FROM templates
     WHERE signature_keys IS DISTINCT FROM $1 AND strpos(raw, '# digest: ') > 0 ORDER BY pk LIMIT $2`,
    [keys, limit],
  );
  return res.rows.map((r) => ({ ...r, pk: Number(r.pk) }));
}

/** Records who signed each row (NULL: no trusted key) and under which trusted keys that was decided. */
export async function writeSignatures(
  db: Db,
  rows: { pk: number; signed_by: string | null }[],
  keys: string,
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `UPDATE templates AS t SET signed_by = u.signed_by, signature_keys = $3
     FROM unnest($1::bigint[], $2::text[]) AS u(pk, signed_by) WHERE t.pk = u.pk`,
    [rows.map((r) => r.pk), rows.map((r) => r.signed_by), keys],
  );
}

// The catalogue's scan profiles (profiles.ts): one JSON document in the database-wide name/value table,
// replaced by each catalogue import.
const PROFILES_KEY = 'templates:catalogue-profiles';

export async function saveProfiles(db: Db, profiles: Profile[]): Promise<void> {
  await values.writeValue(db, PROFILES_KEY, JSON.stringify(profiles));
}

export async function loadProfiles(db: Db): Promise<Profile[]> {
  const text = await values.readValue(db, PROFILES_KEY);
  return text ? (JSON.parse(text) as Profile[]) : [];
}

/** What a profile looks at of every public (not early) catalogue template, by path. */
export async function profileCandidates(db: Db): Promise<Candidate[]> {
  const { rows } = await db.query<Candidate>(
    `SELECT template_id, uri, tags, author, severity, type FROM templates
     WHERE team_id IS NULL AND NOT is_early ORDER BY uri`,
  );
  return rows;
}

// The Template record of each template as JSON text (template_records, record-json.ts).

/** Up to `limit` templates without a stored record (of `pks` if given), pk above `after`: pk, row version and `columns`. */
export async function recordRowsWithout(
  db: Db,
  after: number,
  limit: number,
  columns: string,
  pks?: number[],
): Promise<(TemplateRow & { row_version: string })[]> {
  const { rows } = await db.query<TemplateRow & { row_version: string }>(
    `SELECT t.xmin::text AS row_version, t.pk, ${columns} FROM templates t
     WHERE t.pk > $1 AND NOT EXISTS (SELECT 1 FROM template_records r WHERE r.template_pk = t.pk)
       ${pks ? 'AND t.pk = ANY($3::bigint[])' : ''}
     ORDER BY t.pk LIMIT $2`,
    pks ? [after, limit, pks] : [after, limit],
  );
  return rows.map((r) => ({ ...r, pk: Number(r.pk) }));
}

/**
 * Stores record texts of rows read at `version` (xmin). The rows are locked first, so a row updated
 * meanwhile is seen at its new version and gets no record (its update dropped any it had); the lock makes
 * a later update wait for this write and then drop what it wrote. A row another transaction holds (being
 * written: it will need a new text anyway) is skipped rather than waited for, so this never waits on, nor
 * deadlocks with, an import. Returns how many were stored.
 */
export async function writeRecordJson(
  db: Db,
  texts: { pk: number; version: string; json: string; spans: number[] | null }[],
): Promise<number> {
  if (texts.length === 0) return 0;
  const span = (i: number) => texts.map((t) => (t.spans ? t.spans[i]! : null));
  const res = await db.query(
    `INSERT INTO template_records (template_pk, record_json, record_spans)
     SELECT u.pk, u.j, CASE WHEN u.s0 IS NULL THEN NULL ELSE ARRAY[u.s0, u.s1, u.s2, u.s3] END
     FROM unnest($1::bigint[], $2::text[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[])
       AS u(pk, v, j, s0, s1, s2, s3)
     JOIN (SELECT pk, xmin::text AS v FROM templates WHERE pk = ANY($1::bigint[]) ORDER BY pk FOR SHARE SKIP LOCKED) AS t
       ON t.pk = u.pk AND t.v = u.v
     ON CONFLICT (template_pk) DO NOTHING`,
    [texts.map((t) => t.pk), texts.map((t) => t.version), texts.map((t) => t.json), span(0), span(1), span(2), span(3)],
  );
  return res.rowCount;
}
