// SQL of the scans area: scans, their templates and chunks, findings and scan logs.
import { hostname } from 'node:os';
import type { Db } from '../../db/connection.ts';
import type { FindingRow } from './findings.ts';

export interface ScanRow {
  id: string;
  team_id: string;
  name: string;
  status: string;
  failure_reason: string | null;
  progress: number;
  created_by: number | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  rescan_count: number;
  total_target: number;
  total_template: number;
  total_scan: number;
  total_result: number;
  severity: Record<string, number>;
  chunks_total: number;
  chunks_done: number;
  is_internal: boolean;
  is_automatic: boolean;
  is_oss: boolean;
  targets: string[];
  request: Record<string, unknown>;
  engine_options: Record<string, unknown>;
}

export interface NewScan {
  id: string;
  teamId: string;
  name: string;
  status: string;
  createdBy: number | null;
  targets: string[];
  totalTemplate: number;
  request: Record<string, unknown>;
  engineOptions: Record<string, unknown>;
  isAutomatic: boolean;
  isInternal: boolean;
  isOss?: boolean;
}

export async function insertScan(db: Db, s: NewScan): Promise<void> {
  await db.query(
    `INSERT INTO scans (id, team_id, name, status, created_by, targets, total_target, total_template, total_scan,
       request, engine_options, is_automatic, is_internal, is_oss)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8, $9, $10::jsonb, $11::jsonb, $12, $13, $14)`,
    [
      s.id,
      s.teamId,
      s.name,
      s.status,
      s.createdBy,
      JSON.stringify(s.targets),
      s.targets.length,
      s.totalTemplate,
      s.targets.length * s.totalTemplate,
      JSON.stringify(s.request),
      JSON.stringify(s.engineOptions),
      s.isAutomatic,
      s.isInternal,
      s.isOss ?? false,
    ],
  );
}

export interface ScanTemplate {
  templateId: string;
  uri: string;
  source: string;
  /** The text of an inline template; '' for one referenced in the template store. */
  raw: string;
  /** Payload files resolved when the catalogue was imported (referenced templates only). */
  payloadFiles?: Record<string, string[]>;
  /** A template of the public catalogue (referenced, still the stored version): it may read the corpus folder. */
  catalogue?: boolean;
  refPk?: number;
  digest?: string;
}

export async function replaceTemplates(db: Db, scanId: string, templates: ScanTemplate[]): Promise<void> {
  await db.query('DELETE FROM scan_templates WHERE scan_id = $1', [scanId]);
  // Batches keep each statement's parameter count well under PostgreSQL's limit.
  for (let i = 0; i < templates.length; i += 500) {
    const part = templates.slice(i, i + 500);
    const values: unknown[] = [];
    const rows = part.map((t, j) => {
      values.push(scanId, i + j, t.templateId, t.uri, t.source, t.raw, t.refPk ?? null, t.digest ?? null);
      const b = j * 8;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5}, $${b + 6}, $${b + 7}::bigint, $${b + 8})`;
    });
    await db.query(
      `INSERT INTO scan_templates (scan_id, ord, template_id, uri, source, raw, ref_pk, digest) VALUES ${rows.join(', ')}`,
      values,
    );
  }
}

export async function loadTemplates(db: Db, scanId: string): Promise<ScanTemplate[]> {
  // Referenced templates come from the store while the digest still matches; one changed or removed
  // since the scan was planned comes back with no text, and the chunk skips it with a log line.
  const { rows } = await db.query<{
    template_id: string;
    uri: string;
    source: string;
    raw: string | null;
    payload_files: Record<string, string[]> | null;
    catalogue: boolean | null;
  }>(
    `SELECT s.template_id, s.uri, s.source,
            CASE WHEN s.ref_pk IS NULL THEN s.raw ELSE t.raw END AS raw, t.payload_files,
            t.template_type = 'public' AS catalogue
       FROM scan_templates s
       LEFT JOIN templates t ON t.pk = s.ref_pk AND t.digest = s.digest
      WHERE s.scan_id = $1 ORDER BY s.ord`,
    [scanId],
  );
  return rows.map((r) => ({
    templateId: r.template_id,
    uri: r.uri,
    source: r.source,
    raw: r.raw ?? '',
    ...(r.payload_files ? { payloadFiles: r.payload_files } : {}),
    ...(r.catalogue ? { catalogue: true } : {}),
  }));
}

/**
 * True when a template of the scan has a headless block (a top-level `headless:` key): its chunks need a
 * worker or agent with Chromium. Referenced templates are read from the store, as loadTemplates does.
 */
export async function needsBrowser(db: Db, scanId: string): Promise<boolean> {
  const { rows } = await db.query<{ yes: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM scan_templates s LEFT JOIN templates t ON t.pk = s.ref_pk AND t.digest = s.digest
        WHERE s.scan_id = $1
          AND (CASE WHEN s.ref_pk IS NULL THEN s.raw ELSE t.raw END) ~ '(^|\n)headless[ \t]*:') AS yes`,
    [scanId],
  );
  return Boolean(rows[0]?.yes);
}

export async function templateSummary(
  db: Db,
  scanId: string,
): Promise<{ template_id: string; uri: string; source: string }[]> {
  const { rows } = await db.query<{ template_id: string; uri: string; source: string }>(
    'SELECT template_id, uri, source FROM scan_templates WHERE scan_id = $1 ORDER BY ord',
    [scanId],
  );
  return rows;
}

/** Who may run a chunk of a scan addressed to agents, and the mirror it belongs to ('' when not mirrored). */
export interface ChunkRoute {
  agentIds: string[];
  mirrorOf: string;
}

/**
 * Starts a run: its chunks, a reset of the scan's counters, status queued. `routes` (one per chunk) makes
 * them agent chunks; `waiting` is the reason an agent scan shows while no agent has taken it.
 */
export async function startRun(
  db: Db,
  scanId: string,
  run: number,
  chunks: string[][],
  routes?: ChunkRoute[],
  waiting: string | null = null,
): Promise<void> {
  for (let i = 0; i < chunks.length; i += 500) {
    const values: unknown[] = [];
    const rows = chunks.slice(i, i + 500).map((targets, j) => {
      const route = routes?.[i + j];
      values.push(scanId, run, i + j, JSON.stringify(targets), route?.agentIds ?? null, route?.mirrorOf ?? '');
      const b = j * 6;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}::jsonb, $${b + 5}::text[], $${b + 6})`;
    });
    await db.query(
      `INSERT INTO scan_chunks (scan_id, run, idx, targets, agent_ids, mirror_of) VALUES ${rows.join(', ')}`,
      values,
    );
  }
  await db.query(
    `UPDATE scans SET status = 'queued', failure_reason = $4, progress = 0, attempts_done = 0, chunks_total = $3, chunks_done = 0,
       rescan_count = $2, started_at = NULL, completed_at = NULL, updated_at = now()
     WHERE id = $1`,
    [scanId, run, chunks.length, waiting],
  );
}

export async function getScan(db: Db, teamId: string, id: string): Promise<ScanRow | undefined> {
  const { rows } = await db.query<ScanRow>('SELECT * FROM scans WHERE id = $1 AND team_id = $2', [id, teamId]);
  return rows[0];
}

export async function getScanById(db: Db, id: string): Promise<ScanRow | undefined> {
  const { rows } = await db.query<ScanRow>('SELECT * FROM scans WHERE id = $1', [id]);
  return rows[0];
}

export interface ListFilter {
  teamId: string;
  offset: number;
  limit: number;
  search?: string;
  status?: string[];
  isInternal?: boolean;
  /** Already-checked column names with direction. */
  order: { column: string; desc: boolean }[];
}

/** The columns a list item needs; the target list and request body stay out (they can be large). */
const LIST_COLUMNS = `id, team_id, name, status, failure_reason, progress, created_at, updated_at, started_at, completed_at,
  rescan_count, total_target, total_template, total_scan, total_result, severity, is_internal, is_automatic, is_oss,
  engine_options, request->'templates' AS req_templates, request->'scan_config_ids' AS req_scan_config_ids,
  request->'reporting_config_ids' AS req_report_config_ids, request->'assets' AS req_assets,
  request->'agent_id' AS req_agent_id, request->'agent_tags' AS req_agent_tags,
  request->'agent_networks' AS req_agent_networks, request->'agent_behavior' AS req_agent_behavior`;

export type ListRow = Omit<ScanRow, 'targets' | 'request'> & {
  req_templates: string[] | null;
  req_scan_config_ids: string[] | null;
  req_report_config_ids: string[] | null;
  req_assets: string[] | null;
  req_agent_id: string | null;
  req_agent_tags: string[] | null;
  req_agent_networks: string[] | null;
  req_agent_behavior: string | null;
};

export async function listScans(db: Db, f: ListFilter): Promise<{ rows: ListRow[]; total: number }> {
  const where = ['team_id = $1'];
  const params: unknown[] = [f.teamId];
  if (f.search) {
    params.push(`%${f.search.replace(/[\\%_]/g, (c) => '\\' + c)}%`);
    where.push(`(name ILIKE $${params.length} OR id = $${params.length + 1})`);
    params.push(f.search);
  }
  if (f.status?.length) {
    params.push(f.status);
    where.push(`status = ANY($${params.length}::text[])`);
  }
  if (f.isInternal !== undefined) {
    params.push(f.isInternal);
    where.push(`is_internal = $${params.length}`);
  }
  const order = [...f.order.map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`), 'created_at DESC', 'id DESC'].join(
    ', ',
  );
  const whereSql = where.join(' AND ');
  // One round trip: the page, each row carrying the total (kept counts, or counted matches for a search).
  const totalSql = f.search
    ? 'count(*) OVER ()'
    : `(${TOTALS_SQL.replace(/\$(\d)/g, (_m, d) => `$${Number(d) + params.length}`)})`;
  const totalParams = f.search ? [] : [f.teamId, f.status?.length ? f.status : null, f.isInternal ?? null];
  const all = [...params, ...totalParams, f.limit, f.offset];
  const { rows } = await db.query<ListRow & { total_count: number | string | null }>(
    `SELECT ${LIST_COLUMNS}, ${totalSql} AS total_count FROM scans WHERE ${whereSql} ORDER BY ${order}
     LIMIT $${all.length - 1} OFFSET $${all.length}`,
    all,
  );
  // An empty page (offset past the end) carries no total: ask for it alone.
  const total = rows[0]
    ? Number(rows[0].total_count ?? 0)
    : f.search
      ? await countRows(db, whereSql, params)
      : await countFromTotals(db, f);
  for (const r of rows) delete (r as { total_count?: unknown }).total_count;
  return { rows, total };
}

async function countRows(db: Db, whereSql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM scans WHERE ${whereSql}`, params);
  return rows[0]!.n;
}

const TOTALS_SQL = `SELECT COALESCE(sum(n), 0)::bigint FROM scan_counts WHERE team_id = $1
  AND ($2::text[] IS NULL OR status = ANY($2::text[])) AND ($3::boolean IS NULL OR is_internal = $3)`;

/** Status and is_internal filters are answered from the trigger-kept scan_counts table. */
async function countFromTotals(db: Db, f: ListFilter): Promise<number> {
  const { rows } = await db.query<{ n: number | null }>(
    TOTALS_SQL.replace('SELECT COALESCE(sum(n), 0)::bigint', 'SELECT COALESCE(sum(n), 0)::bigint AS n'),
    [f.teamId, f.status?.length ? f.status : null, f.isInternal ?? null],
  );
  return Number(rows[0]?.n ?? 0);
}

export async function deleteScan(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM scans WHERE id = $1 AND team_id = $2', [id, teamId]);
  return res.rowCount > 0;
}

/** Ends the current run as failed; pending chunks are cancelled so workers skip them. */
export async function failScan(db: Db, id: string, reason: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    // Chunk rows first, then the scan row: the order claimChunk and finishChunk take them in, so a stop
    // during a running chunk cannot deadlock with it on PostgreSQL.
    await tx.query(
      `SELECT 1 FROM scan_chunks WHERE scan_id = $1 AND status IN ('pending', 'running') ORDER BY run, idx FOR UPDATE`,
      [id],
    );
    const res = await tx.query(
      `UPDATE scans SET status = 'failed', failure_reason = $2, completed_at = now(), updated_at = now()
       WHERE id = $1 AND status IN ('queued', 'starting', 'running', 'scheduled')`,
      [id, reason],
    );
    if (res.rowCount === 0) return false;
    await tx.query(
      `UPDATE scan_chunks SET status = 'cancelled' WHERE scan_id = $1 AND status IN ('pending', 'running')`,
      [id],
    );
    return true;
  });
}

export const WORKER_NAME = `${hostname()}:${process.pid}`;

export interface ChunkRow {
  scan_id: string;
  run: number;
  idx: number;
  targets: string[];
  status: string;
  attempts: number;
}

/** A chunk that can still run, with what its slot count depends on; changes nothing. */
export async function peekChunk(
  db: Db,
  scanId: string,
  run: number,
  idx: number,
): Promise<{ engine_options: unknown; chunks_total: number } | undefined> {
  const { rows } = await db.query<{ engine_options: unknown; chunks_total: number }>(
    `SELECT s.engine_options, s.chunks_total FROM scan_chunks c JOIN scans s ON s.id = c.scan_id
     WHERE c.scan_id = $1 AND c.run = $2 AND c.idx = $3 AND c.status IN ('pending', 'running')
       AND s.rescan_count = c.run AND s.status IN ('queued', 'starting', 'running')`,
    [scanId, run, idx],
  );
  return rows[0];
}

/**
 * Claims a chunk for a worker when its scan still runs that run: counts the attempt and moves a queued
 * scan to starting. Returns undefined when the chunk must be skipped (scan stopped, deleted, rescanned, chunk done).
 */
export async function claimChunk(
  db: Db,
  scanId: string,
  run: number,
  idx: number,
): Promise<{ chunk: ChunkRow; scan: ScanRow } | undefined> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<ChunkRow>(
      `UPDATE scan_chunks c SET status = 'running', attempts = c.attempts + 1, started_at = now(), worker = $4
       FROM scans s
       WHERE c.scan_id = $1 AND c.run = $2 AND c.idx = $3 AND c.status IN ('pending', 'running')
         AND s.id = c.scan_id AND s.rescan_count = c.run AND s.status IN ('queued', 'starting', 'running')
       RETURNING c.scan_id, c.run, c.idx, c.targets, c.status, c.attempts`,
      [scanId, run, idx, WORKER_NAME],
    );
    if (!rows[0]) return undefined;
    const scan = await tx.query<ScanRow>(
      `UPDATE scans SET status = CASE WHEN status = 'queued' THEN 'starting' ELSE status END,
         started_at = COALESCE(started_at, now()), updated_at = now()
       WHERE id = $1 RETURNING *`,
      [scanId],
    );
    // Claimed again: what an earlier attempt of the chunk wrote to the scan log goes, so this attempt's
    // records are the chunk's only ones (see insertLogs). Its own writes wait for this commit.
    // Its records are batches (migration 034); rows of scan_logs written before that are deleted too.
    if (rows[0].attempts > 1) {
      await tx.query(
        `WITH gone AS (DELETE FROM scan_logs WHERE scan_id = $1 AND run = $2 AND chunk_idx = $3 RETURNING 1),
           gone_batches AS (DELETE FROM scan_log_batches WHERE scan_id = $1 AND run = $2 AND chunk_idx = $3 RETURNING n)
         UPDATE scans SET attempts_done = GREATEST(0, attempts_done - (SELECT count(*) FROM gone)
           - (SELECT COALESCE(sum(n), 0) FROM gone_batches)) WHERE id = $1`,
        [scanId, run, idx],
      );
    }
    return { chunk: rows[0], scan: scan.rows[0]! };
  });
}

/** starting -> running once a worker has its templates loaded and the engine begins. */
export async function markRunning(db: Db, scanId: string, run: number): Promise<void> {
  await db.query(
    `UPDATE scans SET status = 'running', updated_at = now() WHERE id = $1 AND rescan_count = $2 AND status = 'starting'`,
    [scanId, run],
  );
}

/** The current status of a run (checked while a chunk runs, so a stop is noticed). */
export async function runState(db: Db, scanId: string): Promise<{ status: string; rescan_count: number } | undefined> {
  const { rows } = await db.query<{ status: string; rescan_count: number }>(
    'SELECT status, rescan_count FROM scans WHERE id = $1',
    [scanId],
  );
  return rows[0];
}

/** Marks a chunk done once, recounts findings and progress, and finishes the scan after its last chunk. */
export async function finishChunk(db: Db, scanId: string, run: number, idx: number, attempt?: number): Promise<void> {
  await db.transaction(async (tx) => {
    // A worker's attempt finishes the chunk only while it is the chunk's latest attempt: a later one has
    // deleted its scan-log records and writes its own (see insertLogs).
    const done = await tx.query(
      `UPDATE scan_chunks SET status = 'done', finished_at = now()
       WHERE scan_id = $1 AND run = $2 AND idx = $3 AND status = 'running' AND ($4::int IS NULL OR attempts = $4)`,
      [scanId, run, idx, attempt ?? null],
    );
    if (done.rowCount === 0) return;
    await tx.query(
      `UPDATE scans SET chunks_done = chunks_done + 1,
         progress = CASE WHEN chunks_total = 0 OR chunks_done + 1 >= chunks_total THEN 100
                         ELSE GREATEST(progress, ((chunks_done + 1) * 100) / chunks_total) END,
         status = CASE WHEN chunks_done + 1 >= chunks_total AND status IN ('queued', 'starting', 'running') THEN 'finished' ELSE status END,
         completed_at = CASE WHEN chunks_done + 1 >= chunks_total AND status IN ('queued', 'starting', 'running') THEN now() ELSE completed_at END,
         updated_at = now()
       WHERE id = $1 AND rescan_count = $2`,
      [scanId, run],
    );
    await recountResults(tx, scanId);
  });
}

/**
 * After a bulk write of `added` findings: VACUUM (ANALYZE) of scan_results when they are at least a tenth of
 * the table as last measured (pg_class.reltuples, -1 before the first measure), as autovacuum would do, but
 * now instead of up to a minute later. Until then the findings list plans without statistics and its
 * counts cannot be index-only (no page is marked all-visible), so each count reads the table's wide rows;
 * VACUUM also merges the trigram index's pending entries, which text search otherwise scans one by one.
 * VACUUM reads only the pages not yet marked all-visible. SKIP_LOCKED: one that is already running suffices.
 * Returns whether it ran.
 */
export async function refreshResultStats(db: Db, added: number): Promise<boolean> {
  if (added < 1000) return false;
  const { rows } = await db.query<{ n: number }>(
    `SELECT reltuples::float8 AS n FROM pg_class WHERE oid = to_regclass('scan_results')`,
  );
  const known = Number(rows[0]?.n ?? -1);
  if (known > 0 && added < known / 10) return false;
  // scan_result_statuses (the status filter's table, 032) grew by the same rows.
  await db.query('VACUUM (ANALYZE, SKIP_LOCKED) scan_results, scan_result_statuses');
  return true;
}

/** total_result and the severity counts of a scan, from its findings. */
export async function recountResults(db: Db, scanId: string): Promise<void> {
  await db.query(
    `UPDATE scans SET
       total_result = (SELECT count(*) FROM scan_results WHERE scan_id = $1),
       severity = COALESCE((SELECT jsonb_object_agg(severity, n) FROM
         (SELECT severity, count(*)::int AS n FROM scan_results WHERE scan_id = $1 GROUP BY severity) s), '{}'::jsonb)
     WHERE id = $1`,
    [scanId],
  );
}

/**
 * Who produced a batch of findings or log lines: a worker (no agent) or an agent, and for a mirrored scan
 * the mirror (agent) the rows belong to, so each mirror keeps its own copy.
 */
export interface RowOrigin {
  agentId: string | null;
  mirrorOf: string;
}
export const NO_AGENT: RowOrigin = { agentId: null, mirrorOf: '' };

/** Stores findings once each: a retried chunk or rescan only marks them as seen in this run. */
export async function insertFindings(
  db: Db,
  scanId: string,
  teamId: string,
  run: number,
  all: FindingRow[],
  origin: RowOrigin = NO_AGENT,
): Promise<Record<string, number>> {
  // One statement may not touch a row twice: the first event of a hash wins.
  const rows = [...new Map(all.map((r) => [r.vulnHash, r] as const).reverse()).values()].reverse();
  // The rows travel as one JSON parameter, like scan logs (see insertLogs).
  // Findings new to the scan, by severity (a row seen again in a later run is not new).
  const added: Record<string, number> = {};
  for (let i = 0; i < rows.length; i += 1000) {
    const json = JSON.stringify(
      rows.slice(i, i + 1000).map((r) => ({
        h: r.vulnHash,
        id: r.templateId,
        u: r.templateUrl,
        p: r.templatePath,
        host: r.host,
        at: r.matchedAt,
        port: r.port,
        s: r.severity,
        n: r.name,
        tags: r.tags,
        rt: r.resultType,
        ev: r.event,
      })),
    );
    const res = await db.query<{ added: boolean; severity: string }>(
      // A finding new to this scan takes the team's triage of the same finding (same hash) in other scans:
      // the latest person's status and labels, from the latest changed copy that is triaged or labelled.
      // scan_result_triaged holds exactly those copies (kept by triggers in the same transaction, migration
      // 036), so no earlier scan's untriaged copy is read. A severity override of the team for the template
      // (scan_severity_overrides) applies as the row is added.
      `INSERT INTO scan_results (scan_id, team_id, vuln_hash, template_id, template_url, template_path, host, matched_at,
         port, severity, original_severity, name, tags, result_type, event, first_run, last_run, vuln_status, labels,
         agent_id, mirror_of)
       SELECT $1, $2, x.h, x.id, x.u, x.p, x.host, x.at, x.port, COALESCE(o.custom_severity, x.s),
         CASE WHEN o.custom_severity IS NOT NULL THEN x.s END, x.n, COALESCE(x.tags, '{}'), x.rt, x.ev, $3, $3,
         COALESCE(prev.vuln_status, 'open'), COALESCE(prev.labels, '{}'), $5, $6
       FROM jsonb_to_recordset($4::jsonb) AS x(h text, id text, u text, p text, host text, at text, port int, s text,
         n text, tags text[], rt text, ev jsonb)
       LEFT JOIN scan_severity_overrides o ON o.team_id = $2 AND o.template_id = x.id AND o.vuln_id IS NULL
       LEFT JOIN LATERAL (
         SELECT CASE WHEN p.vuln_status IN ('false_positive', 'accepted_risk', 'duplicate', 'triaged', 'fix_in_progress')
                     THEN p.vuln_status ELSE 'open' END AS vuln_status, p.labels
         FROM scan_result_triaged t JOIN scan_results p ON p.id = t.result_id
         WHERE t.team_id = $2 AND t.vuln_hash = x.h AND p.scan_id <> $1
         ORDER BY p.updated_at DESC, p.id DESC LIMIT 1
       ) prev ON true
       ON CONFLICT (scan_id, vuln_hash, mirror_of) DO UPDATE SET last_run = EXCLUDED.last_run, updated_at = now(),
         agent_id = EXCLUDED.agent_id
       WHERE scan_results.last_run < EXCLUDED.last_run
       RETURNING (xmax = 0) AS added, severity`,
      [scanId, teamId, run, json, origin.agentId, origin.mirrorOf],
    );
    for (const r of res.rows) if (r.added) added[r.severity] = (added[r.severity] ?? 0) + 1;
  }
  return added;
}

/**
 * Adds findings just written to a running scan's total_result and severity counts, so they follow its
 * findings between chunk ends without recounting the scan's rows (finishChunk recounts exactly).
 */
export async function addResultCounts(db: Db, scanId: string, bySeverity: Record<string, number>): Promise<void> {
  const total = Object.values(bySeverity).reduce((a, b) => a + b, 0);
  if (total === 0) return;
  await db.query(
    `UPDATE scans SET total_result = total_result + $2,
       severity = COALESCE(severity, '{}'::jsonb) || (
         SELECT jsonb_object_agg(k, COALESCE((severity ->> k)::int, 0) + n::int) FROM jsonb_each_text($3::jsonb) AS x(k, n))
     WHERE id = $1`,
    [scanId, total, JSON.stringify(bySeverity)],
  );
}

export interface LogRow {
  target: string;
  templateId: string;
  matched: boolean;
  severity: string | null;
  error: string | null;
  event: string | null;
  vulnHash: string | null;
  at: Date;
  /**
   * A record that is not a target x template attempt (a template not run, a host skipped, a summary): it is
   * kept in the log but not counted in the run's progress. Templates not run are already taken out of
   * total_scan, so counting their records too read 99% while real attempts were still running.
   */
  notice?: boolean;
}

/** Scan-log texts of records that say why something was not attempted (workers and agents write them). */
const NOTICE_PREFIXES = ['template not run:', 'host skipped:', 'agent secrets not applied:'];

/** Whether a log record an agent sent is a notice rather than an attempt (see LogRow.notice). */
export function isNoticeRecord(error: string | null | undefined): boolean {
  return !!error && NOTICE_PREFIXES.some((p) => error.startsWith(p));
}

/**
 * The SET list adding `n` finished attempts to a scan (an SQL expression): progress follows them, held below
 * 100 until the last chunk is done (finishChunk).
 */
const advanceBy = (n: string) => `attempts_done = attempts_done + ${n},
  progress = GREATEST(progress, LEAST(99, ((attempts_done + ${n}) * 100) / GREATEST(total_scan, 1)))`;

/** The worker chunk attempt a batch of scan-log records comes from (see insertLogs). */
export interface ChunkAttempt {
  idx: number;
  /** scan_chunks.attempts as this attempt claimed it. */
  attempt: number;
}

/**
 * One record per target x template attempt of a run; a retried chunk does not add a second one. The rows
 * travel as one JSON parameter (json_to_recordset): binding thousands of separate parameters cost the
 * worker more CPU than the insert itself. json, not jsonb: every field is read once as text, and skipping
 * jsonb's conversion of the whole array cut about 5 % of PostgreSQL's CPU per record.
 *
 * Exactly once, two ways (migration 033). A worker chunk's attempts (`chunk` given) are written only while
 * the chunk row still counts this attempt, under a share lock on that row taken once per batch, and
 * claimChunk deletes an earlier attempt's records when it claims the chunk again: no per-row check. Every
 * other record (notices, imports, agents) keeps the per-row unique key and skips one already stored.
 * A worker chunk's attempts are stored as one scan_log_batches row per write (migration 034), every other
 * record as a row of scan_logs; the readers (log-store.ts) read both.
 */
export async function insertLogs(
  db: Db,
  scanId: string,
  teamId: string,
  run: number,
  rows: LogRow[],
  origin: RowOrigin = NO_AGENT,
  chunk?: ChunkAttempt,
): Promise<void> {
  const attempts = rows.filter((r) => !r.notice);
  const notices = rows.filter((r) => r.notice);
  for (let i = 0; i < notices.length; i += 5000)
    await insertLogRows(db, scanId, teamId, run, notices.slice(i, i + 5000), origin);
  for (let i = 0; i < attempts.length; i += 5000) {
    const batch = attempts.slice(i, i + 5000);
    if (chunk) {
      await insertChunkLogRows(db, scanId, teamId, run, batch, chunk);
      continue;
    }
    const added = await insertLogRows(db, scanId, teamId, run, batch, origin);
    // One record per finished attempt (a retried chunk adds none twice): progress follows them, held
    // below 100 until the last chunk is done.
    if (added) {
      await db.query(
        `UPDATE scans SET ${advanceBy('$3')}
         WHERE id = $1 AND rescan_count = $2 AND status IN ('queued', 'starting', 'running')`,
        [scanId, run, added],
      );
    }
  }
}

/** One record as logJson writes it (a scan_log_batches row's text is an array of these). */
export interface BatchRecord {
  t: string;
  id: string;
  m: boolean;
  s: string | null;
  e: string | null;
  ev: string | null;
  h: string | null;
  /** Epoch milliseconds. */
  at: number;
}

/**
 * The records as one JSON text. The time travels as milliseconds since the epoch (to_timestamp in SQL):
 * a Date's ISO text costs the worker about 0.8 us a record to write and PostgreSQL more to read.
 */
function logJson(rows: LogRow[]): string {
  // Keys in this order: batchRecordPrefix and the readers (log-store.ts) depend on t, id coming first.
  return JSON.stringify(
    rows.map((r): BatchRecord => ({
      t: r.target,
      id: r.templateId,
      m: r.matched,
      s: r.severity,
      e: r.error,
      ev: r.event,
      h: r.vulnHash,
      at: r.at.getTime(),
    })),
  );
}

/**
 * How a record of target and template starts in a batch's stored text (logJson's first two keys): a batch
 * without this text holds no record of the pair (a finding's history skips it unexpanded).
 */
export function batchRecordPrefix(target: string, templateId: string): string {
  return `{"t":${JSON.stringify(target)},"id":${JSON.stringify(templateId)},`;
}

/** Inserts log records not stored yet; resolves with how many were new. */
async function insertLogRows(
  db: Db,
  scanId: string,
  teamId: string,
  run: number,
  rows: LogRow[],
  origin: RowOrigin,
): Promise<number> {
  // The scan's row is locked (key share) once for the statement, as the per-row foreign key did: a scan
  // deleted meanwhile either waits for these rows (and its trigger deletes them) or gets none.
  const res = await db.query(
    `INSERT INTO scan_logs (scan_id, team_id, run, target, template_id, matched, severity, error, event, vuln_hash,
       created_at, agent_id, mirror_of)
     SELECT $1, $2, $3, x.t, x.id, x.m, x.s, x.e, x.ev, x.h, to_timestamp(x.at / 1000.0), $5, $6
     FROM (SELECT 1 FROM scans WHERE id = $1 FOR KEY SHARE) AS live,
       json_to_recordset($4::json) AS x(t text, id text, m boolean, s text, e text, ev text, h text, at float8)
     ON CONFLICT (scan_id, run, target, template_id, mirror_of) WHERE chunk_idx IS NULL DO NOTHING`,
    [scanId, teamId, run, logJson(rows), origin.agentId, origin.mirrorOf],
  );
  return res.rowCount ?? 0;
}

/**
 * A worker chunk attempt's records and the run's progress, in one statement: the records as ONE row of
 * scan_log_batches (migration 034; the JSON text stored as it is, its seq from scan_logs' id sequence so
 * both tables keep one insertion order), written only while the chunk row counts this attempt
 * (share-locked, so a new claim waits for the statement and then deletes it), and nothing when another
 * attempt has claimed the chunk since. The chunk row belongs to the scan, so the scan exists too.
 */
async function insertChunkLogRows(
  db: Db,
  scanId: string,
  teamId: string,
  run: number,
  rows: LogRow[],
  chunk: ChunkAttempt,
): Promise<void> {
  if (rows.length === 0) return;
  let errors = 0;
  let matched = 0;
  let first = Infinity;
  let last = -Infinity;
  const hashes = new Set<string>();
  for (const r of rows) {
    if (r.error) errors++;
    if (r.matched) matched++;
    const at = r.at.getTime();
    if (at < first) first = at;
    if (at > last) last = at;
    if (r.vulnHash) hashes.add(r.vulnHash);
  }
  await db.query(
    `WITH mine AS (
       SELECT 1 FROM scan_chunks WHERE scan_id = $1 AND run = $3 AND idx = $5 AND attempts = $6 FOR SHARE
     ), added AS (
       INSERT INTO scan_log_batches (seq, scan_id, team_id, run, chunk_idx, n, n_error, n_matched, first_at, last_at,
         hashes, records)
       SELECT nextval('scan_logs_id_seq'), $1, $2, $3, $5, $7, $8, $9, to_timestamp($10 / 1000.0),
         to_timestamp($11 / 1000.0), $12::text[], $4
       FROM mine
       RETURNING n
     )
     UPDATE scans SET ${advanceBy('added.n')}
     FROM added
     WHERE id = $1 AND rescan_count = $3 AND status IN ('queued', 'starting', 'running')`,
    [
      scanId,
      teamId,
      run,
      logJson(rows),
      chunk.idx,
      chunk.attempt,
      rows.length,
      errors,
      matched,
      first,
      last,
      hashes.size ? [...hashes] : null,
    ],
  );
}

/**
 * Takes the templates a run cannot run out of its totals. Computed from the scan's stored template list,
 * so a retried first chunk sets the same numbers again.
 */
export async function setRunnableTotals(db: Db, scanId: string, run: number, notRunnable: number): Promise<void> {
  await db.query(
    `UPDATE scans SET total_template = t.n, total_scan = total_target * t.n
       FROM (SELECT GREATEST(0, count(*) - $3::int)::int AS n FROM scan_templates WHERE scan_id = $1) t
     WHERE id = $1 AND rescan_count = $2`,
    [scanId, run, notRunnable],
  );
}

/** One finding of a team by its row id (the API's vuln_id); undefined when the team has no such row. */
export async function getResult<T>(db: Db, teamId: string, id: string): Promise<T | undefined> {
  const { rows } = await db.query<T & object>('SELECT * FROM scan_results WHERE team_id = $1 AND id = $2::bigint', [
    teamId,
    id,
  ]);
  return rows[0];
}

/** A deleted team's scans (results, logs and exports cascade) and their counts. */
export async function deleteTeamScans(db: Db, teamId: string): Promise<void> {
  await db.query('DELETE FROM scan_counts WHERE team_id = $1', [teamId]);
  await db.query('DELETE FROM scans WHERE team_id = $1', [teamId]);
}

/** An imported scan is complete: its hosts, counts and times. */
export async function completeImport(
  db: Db,
  scanId: string,
  targets: string[],
  totalTarget: number,
  totalTemplate: number,
): Promise<void> {
  await db.query(
    `UPDATE scans SET targets = $2::jsonb, total_target = $3::int, total_template = $4::int, total_scan = $3::int * $4::int,
       progress = 100, completed_at = now(), started_at = COALESCE(started_at, now()) WHERE id = $1`,
    [scanId, JSON.stringify(targets), totalTarget, totalTemplate],
  );
}

/**
 * Queues run `r.run` of a scan with its new targets, only if nobody else started one since the caller read
 * rescan_count `r.seenRescanCount` (two rescans at once) and the scan is not active; false when it did not.
 */
export async function queueRerun(
  db: Db,
  id: string,
  r: { targets: string[]; totalTemplate: number; seenRescanCount: number; run: number },
): Promise<boolean> {
  const took = await db.query(
    `UPDATE scans SET targets = $2::jsonb, total_target = $3, total_template = $4, total_scan = $5, status = 'queued',
       rescan_count = $7, updated_at = now()
     WHERE id = $1 AND rescan_count = $6 AND status NOT IN ('queued', 'starting', 'running')`,
    [
      id,
      JSON.stringify(r.targets),
      r.targets.length,
      r.totalTemplate,
      r.targets.length * r.totalTemplate,
      r.seenRescanCount,
      r.run,
    ],
  );
  return took.rowCount !== 0;
}

/** How many findings match a WHERE over scan_results aliased r (built by results.ts from the list's filters). */
export async function countResultsWhere(db: Db, whereSql: string, params: unknown[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM scan_results r WHERE ${whereSql}`,
    params,
  );
  return rows[0]!.n;
}

/**
 * How many of the team's findings have one of these statuses: an index-only count of scan_result_statuses
 * (scan_results has no index on vuln_status, 032), the same as counting the findings themselves.
 */
export async function countByStatus(db: Db, teamId: string, statuses: string[]): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM scan_result_statuses WHERE team_id = $1 AND vuln_status = ANY($2::text[])',
    [teamId, statuses],
  );
  return rows[0]!.n;
}

const SEV_RANK =
  "CASE r.severity WHEN 'critical' THEN 5 WHEN 'high' THEN 4 WHEN 'medium' THEN 3 WHEN 'low' THEN 2 WHEN 'info' THEN 1 ELSE 0 END";

/**
 * One page of findings matching a WHERE over scan_results aliased r, in `orderSql` order (which may use
 * sev_rank). The page's ids first, then their rows: rows skipped by the offset are never read in full (their
 * event JSON is large), which keeps deep pages fast with 100,000 findings (bench/findings.ts).
 */
export async function resultsPage<T>(
  db: Db,
  whereSql: string,
  orderSql: string,
  params: unknown[],
  limit: number,
  offset: number,
  /** The page's columns (of scan_results r); the rank is added. */
  columns = 'r.*',
): Promise<T[]> {
  // The rank only when the order uses it: without it, paging in created_at order is an index-only scan of
  // scan_results_team_created, so an offset of thousands skips index entries, not table rows.
  const rank = orderSql.includes('sev_rank') ? `, ${SEV_RANK} AS sev_rank` : '';
  const { rows } = await db.query<T>(
    `WITH page AS (
       SELECT r.id${rank}
       FROM scan_results r WHERE ${whereSql} ORDER BY ${orderSql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}
     )
     SELECT ${columns}, ${SEV_RANK} AS sev_rank FROM page JOIN scan_results r ON r.id = page.id ORDER BY ${orderSql}`,
    [...params, limit, offset],
  );
  return rows;
}

/** The template ids of a scan's findings, each once. */
export async function resultTemplateIds(db: Db, scanId: string): Promise<string[]> {
  const { rows } = await db.query<{ template_id: string }>(
    'SELECT DISTINCT template_id FROM scan_results WHERE scan_id = $1',
    [scanId],
  );
  return rows.map((r) => r.template_id);
}

/** New severities of findings (vuln_score rules); `original` is the severity before the first rescoring. */
export async function setSeverities(
  db: Db,
  changes: { id: string; severity: string; original: string | null }[],
): Promise<void> {
  await db.query(
    `UPDATE scan_results r SET severity = x.s, original_severity = x.o, updated_at = now()
     FROM jsonb_to_recordset($1::jsonb) AS x(id bigint, s text, o text) WHERE r.id = x.id`,
    [JSON.stringify(changes.map((c) => ({ id: c.id, s: c.severity, o: c.original })))],
  );
}

/**
 * After a finished run: not seen in it → fixed (unless a person marked it false_positive, accepted_risk or
 * duplicate: a rescan does not overrule them); fixed but seen again → open again, as a regression. Each
 * change gets a changelog row by 'system' from the scan.
 */
export async function markFindingStates(
  db: Db,
  scanId: string,
  run: number,
): Promise<{ fixed: number; regressions: number }> {
  const fixed = await db.query(
    `WITH old AS (
       SELECT id, vuln_status FROM scan_results
       WHERE scan_id = $1 AND last_run < $2 AND vuln_status NOT IN ('fixed', 'false_positive', 'accepted_risk', 'duplicate')
       FOR UPDATE
     ), upd AS (
       UPDATE scan_results s SET vuln_status = 'fixed', is_regression = false, updated_at = now()
       FROM old WHERE s.id = old.id RETURNING s.id, s.team_id, old.vuln_status AS prev
     )
     INSERT INTO scan_result_changes (team_id, result_id, event_type, change_event, actor, source)
     SELECT team_id, id, 'vuln_status', jsonb_build_array(jsonb_build_object('name', 'vuln_status', 'from', prev, 'to', 'fixed')),
       'system', 'scan' FROM upd`,
    [scanId, run],
  );
  const back = await db.query(
    `WITH upd AS (
       UPDATE scan_results SET vuln_status = 'open', is_regression = true, updated_at = now()
       WHERE scan_id = $1 AND last_run = $2 AND vuln_status = 'fixed' RETURNING id, team_id
     )
     INSERT INTO scan_result_changes (team_id, result_id, event_type, change_event, actor, source)
     SELECT team_id, id, 'vuln_status', jsonb_build_array(
         jsonb_build_object('name', 'vuln_status', 'from', 'fixed', 'to', 'open'),
         jsonb_build_object('name', 'is_regression', 'from', false, 'to', true)),
       'system', 'scan' FROM upd`,
    [scanId, run],
  );
  return { fixed: fixed.rowCount, regressions: back.rowCount };
}

/** Results of a scan counted by the host they were found on (for the scan's asset export). */
export async function resultCountsByHost(db: Db, scanId: string): Promise<Map<string, number>> {
  const { rows } = await db.query<{ host: string; n: number }>(
    'SELECT host, count(*)::int AS n FROM scan_results WHERE scan_id = $1 GROUP BY host',
    [scanId],
  );
  return new Map(rows.map((r) => [r.host, r.n]));
}
