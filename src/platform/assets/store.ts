// SQL of the assets area: enumerations, assets, their change history, asset policies and policy events.
import { hostname } from 'node:os';
import type { Db } from '../../db/connection.ts';
import type { AssetFilter } from './filters.ts';

export interface EnumerationRow {
  id: string;
  team_id: string;
  name: string;
  status: string;
  failure_reason: string | null;
  progress: number;
  created_by: number | null;
  root_domains: string[];
  steps: string[];
  enumeration_ports: string | null;
  enumeration_config: Record<string, unknown>;
  exclusions: string[];
  alerting_config_ids: string[];
  automatic_vuln_scans: boolean;
  run: number;
  done_run: number;
  auto_scan_run: number;
  total_assets: number;
  new_assets: number;
  notices: string[];
  worker: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface NewEnumeration {
  id: string;
  teamId: string;
  name: string;
  createdBy: number | null;
  rootDomains: string[];
  steps: string[];
  ports: string | null;
  config: Record<string, unknown>;
  exclusions: string[];
  alertingConfigIds: string[];
  automaticVulnScans: boolean;
}

export async function insertEnumeration(db: Db, e: NewEnumeration): Promise<void> {
  await db.query(
    `INSERT INTO asset_enumerations (id, team_id, name, status, created_by, root_domains, steps, enumeration_ports,
       enumeration_config, exclusions, alerting_config_ids, automatic_vuln_scans)
     VALUES ($1, $2, $3, 'queued', $4, $5::jsonb, $6::jsonb, $7, $8::jsonb, $9::jsonb, $10::jsonb, $11)`,
    [
      e.id,
      e.teamId,
      e.name,
      e.createdBy,
      JSON.stringify(e.rootDomains),
      JSON.stringify(e.steps),
      e.ports,
      JSON.stringify(e.config),
      JSON.stringify(e.exclusions),
      JSON.stringify(e.alertingConfigIds),
      e.automaticVulnScans,
    ],
  );
}

export async function getEnumeration(db: Db, teamId: string | null, id: string): Promise<EnumerationRow | undefined> {
  const { rows } = await db.query<EnumerationRow>(
    `SELECT * FROM asset_enumerations WHERE id = $1 AND ($2::text IS NULL OR team_id = $2)`,
    [id, teamId],
  );
  return rows[0];
}

export interface EnumerationListQuery {
  teamId: string;
  offset: number;
  limit: number;
  search?: string;
  status?: string[];
  /** Only enumerations of these types: cloudlist (with cloud accounts), domain (without). */
  types?: ('cloudlist' | 'domain')[];
  since?: string;
  startDate?: string;
  endDate?: string;
  order: { column: string; desc: boolean }[];
}

export async function listEnumerations(
  db: Db,
  q: EnumerationListQuery,
): Promise<{ rows: EnumerationRow[]; total: number }> {
  const params: unknown[] = [q.teamId];
  const where = ['team_id = $1'];
  if (q.search) {
    params.push(`%${q.search.replace(/[\\%_]/g, '\\$&')}%`);
    where.push(`(name ILIKE $${params.length} OR root_domains::text ILIKE $${params.length})`);
  }
  if (q.status?.length) {
    params.push(q.status);
    where.push(`status = ANY($${params.length}::text[])`);
  }
  if (q.since) {
    params.push(q.since);
    where.push(`created_at >= now() - $${params.length}::interval`);
  }
  if (q.types?.length === 1) {
    where.push(`${q.types[0] === 'domain' ? 'NOT ' : ''}(enumeration_config ? 'cloudlist_config_ids')`);
  }
  if (q.startDate) {
    params.push(q.startDate);
    where.push(`created_at >= $${params.length}::date`);
  }
  if (q.endDate) {
    params.push(q.endDate);
    where.push(`created_at < $${params.length}::date + 1`);
  }
  const order = [...q.order.map((o) => `${o.column} ${o.desc ? 'DESC' : 'ASC'}`), 'created_at DESC', 'id'].join(', ');
  const total = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM asset_enumerations WHERE ${where.join(' AND ')}`,
    params,
  );
  params.push(q.limit, q.offset);
  const { rows } = await db.query<EnumerationRow>(
    `SELECT * FROM asset_enumerations WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { rows, total: total.rows[0]!.n };
}

/** Changes the given settings; columns are fixed names, values parameters. */
export async function updateEnumeration(
  db: Db,
  teamId: string,
  id: string,
  set: Partial<
    Record<
      | 'name'
      | 'root_domains'
      | 'steps'
      | 'enumeration_ports'
      | 'enumeration_config'
      | 'exclusions'
      | 'alerting_config_ids'
      | 'automatic_vuln_scans',
      unknown
    >
  >,
): Promise<boolean> {
  const params: unknown[] = [id, teamId];
  const sets = ['updated_at = now()'];
  for (const [k, v] of Object.entries(set)) {
    if (v === undefined) continue;
    const json = ['root_domains', 'steps', 'enumeration_config', 'exclusions', 'alerting_config_ids'].includes(k);
    params.push(json ? JSON.stringify(v) : v);
    sets.push(`${k} = $${params.length}${json ? '::jsonb' : ''}`);
  }
  const res = await db.query(`UPDATE asset_enumerations SET ${sets.join(', ')} WHERE id = $1 AND team_id = $2`, params);
  return res.rowCount > 0;
}

export async function deleteEnumeration(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM asset_enumerations WHERE id = $1 AND team_id = $2 RETURNING id', [
    id,
    teamId,
  ]);
  return res.rowCount > 0;
}

/** Queues the next run (a rescan) unless one is queued or running; the new run number or undefined. */
export async function queueNextRun(db: Db, teamId: string, id: string): Promise<number | undefined> {
  const { rows } = await db.query<{ run: number }>(
    `UPDATE asset_enumerations SET run = run + 1, status = 'queued', progress = 0, failure_reason = NULL, notices = '[]'::jsonb, attempts = 0,
       started_at = NULL, completed_at = NULL, updated_at = now()
     WHERE id = $1 AND team_id = $2 AND status NOT IN ('queued', 'running') RETURNING run`,
    [id, teamId],
  );
  return rows[0]?.run;
}

export async function markRunning(db: Db, id: string, run: number): Promise<void> {
  await db.query(
    `UPDATE asset_enumerations SET status = 'running', started_at = COALESCE(started_at, now()), updated_at = now(),
       worker = $3, attempts = attempts + 1
     WHERE id = $1 AND run = $2 AND done_run < $2`,
    [id, run, `${hostname()}:${process.pid}`],
  );
}

export async function setProgress(db: Db, id: string, run: number, progress: number): Promise<void> {
  await db.query(
    `UPDATE asset_enumerations SET progress = $3, updated_at = now() WHERE id = $1 AND run = $2 AND status = 'running'`,
    [id, run, progress],
  );
}

/** Marks a run failed; what its attempts staged is dropped (never stored). */
export async function failRun(db: Db, id: string, run: number, reason: string): Promise<void> {
  await db.query(
    `UPDATE asset_enumerations SET status = 'failed', failure_reason = $3, completed_at = now(), updated_at = now()
     WHERE id = $1 AND run = $2 AND done_run < $2`,
    [id, run, reason],
  );
  await recordRun(db, id, run);
  await dropFound(db, id, run, true);
}

/** Writes the run's history record from the enumeration as it ended (once per run). */
async function recordRun(db: Db, id: string, run: number): Promise<void> {
  await db.query(
    `INSERT INTO asset_enumeration_runs (enumeration_id, run, team_id, status, started_at, finished_at, new_assets, total_targets, error_details)
     SELECT id, run, team_id, status, COALESCE(started_at, created_at), COALESCE(completed_at, now()),
       CASE WHEN status = 'finished' THEN new_assets ELSE 0 END, jsonb_array_length(root_domains), failure_reason
     FROM asset_enumerations WHERE id = $1 AND run = $2 AND status IN ('finished', 'failed')
     ON CONFLICT (enumeration_id, run) DO NOTHING`,
    [id, run],
  );
}

/** Ends a run as stored: the status, counts and notices. */
export async function finishRun(
  db: Db,
  id: string,
  run: number,
  totals: { total: number; fresh: number; notices: string[] },
): Promise<void> {
  await db.query(
    `UPDATE asset_enumerations SET status = 'finished', progress = 100, done_run = $2, total_assets = $3, new_assets = $4,
       notices = $5::jsonb, completed_at = now(), updated_at = now()
     WHERE id = $1`,
    [id, run, totals.total, totals.fresh, JSON.stringify(totals.notices)],
  );
  await recordRun(db, id, run);
}

/** The providers the run listed (its cloudlist configs may have been edited since the enumeration was saved). */
export async function setCloudProviderName(db: Db, id: string, name: string): Promise<void> {
  await db.query(
    `UPDATE asset_enumerations SET enumeration_config = jsonb_set(enumeration_config, '{cloudlist_provider_name}', to_jsonb($2::text))
    WHERE id = $1 AND enumeration_config ? 'cloudlist_config_ids'`,
    [id, name],
  );
}

export async function markAutoScan(db: Db, id: string, run: number): Promise<boolean> {
  const res = await db.query(
    `UPDATE asset_enumerations SET auto_scan_run = $2 WHERE id = $1 AND auto_scan_run < $2 RETURNING id`,
    [id, run],
  );
  return res.rowCount > 0;
}

export async function existingEnumerationIds(db: Db, teamId: string, ids: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM asset_enumerations WHERE team_id = $1 AND id = ANY($2::text[])',
    [teamId, ids],
  );
  return new Set(rows.map((r) => r.id));
}

// ---- assets

/** The fields a run writes (compared with the stored ones to find changes). */
export interface AssetFacts {
  asset_key: string;
  host: string;
  port: number | null;
  url: string | null;
  ip: string[];
  cname: string[];
  status_code: number | null;
  title: string | null;
  webserver: string | null;
  content_length: number | null;
  technologies: string[];
  favicon: string | null;
  chain_status_codes: number[];
  redirect_location: string | null;
  tls: Record<string, unknown> | null;
  sources: string[];
  screenshot: Buffer | null;
}

/** A stored asset: the facts of its last run, and its history in the inventory. */
export interface AssetRow extends Omit<AssetFacts, 'screenshot'> {
  id: string;
  team_id: string;
  enumeration_id: string;
  enumeration_name?: string;
  enumeration_run?: number;
  has_screenshot?: boolean;
  labels: string[];
  first_seen_run: number;
  last_seen_run: number;
  last_changed_run: number;
  disappeared_at: Date | null;
  created_at: Date;
  updated_at: Date;
  last_seen_at: Date;
}

const ASSET_COLUMNS = `a.id::text AS id, a.team_id, a.enumeration_id, e.name AS enumeration_name, e.run AS enumeration_run, a.asset_key, a.host, a.port,
  a.url, a.ip, a.cname, a.status_code, a.title, a.webserver, a.content_length, a.technologies, a.favicon, a.chain_status_codes,
  a.redirect_location, a.tls, (a.screenshot IS NOT NULL) AS has_screenshot, a.sources, a.labels, a.first_seen_run, a.last_seen_run,
  a.last_changed_run, a.disappeared_at, a.created_at, a.updated_at, a.last_seen_at`;

/**
 * Stages what an attempt of a run found (enumeration_found); the first row of an asset key is kept, as a
 * run keeps the first record of a key.
 */
export async function stageFound(
  db: Db,
  enumerationId: string,
  run: number,
  attempt: string,
  facts: AssetFacts[],
): Promise<void> {
  if (!facts.length) return;
  await db.query(
    `INSERT INTO enumeration_found (enumeration_id, run, attempt, asset_key, facts, screenshot)
     SELECT $1, $2, $3, f.key, f.facts::jsonb, CASE WHEN f.shot = '' THEN NULL ELSE decode(f.shot, 'base64') END
       FROM unnest($4::text[], $5::text[], $6::text[]) AS f(key, facts, shot)
     ON CONFLICT (enumeration_id, attempt, asset_key) DO NOTHING`,
    [
      enumerationId,
      run,
      attempt,
      facts.map((f) => f.asset_key),
      facts.map(({ screenshot: _s, ...rest }) => JSON.stringify(rest)),
      facts.map((f) => f.screenshot?.toString('base64') ?? ''),
    ],
  );
}

/** A page of an attempt's staged assets, in key order after `after`. */
export async function foundPage(
  db: Db,
  enumerationId: string,
  attempt: string,
  after: string,
  limit: number,
): Promise<AssetFacts[]> {
  const { rows } = await db.query<{ facts: Omit<AssetFacts, 'screenshot'>; screenshot: Buffer | Uint8Array | null }>(
    `SELECT facts, screenshot FROM enumeration_found WHERE enumeration_id = $1 AND attempt = $2 AND asset_key > $3 ORDER BY asset_key LIMIT $4`,
    [enumerationId, attempt, after, limit],
  );
  return rows.map((r) => ({ ...r.facts, screenshot: r.screenshot ? Buffer.from(r.screenshot) : null }));
}

/** Drops staged rows: of every run before `run` (attempts that never finished), or of `run` too. */
export async function dropFound(db: Db, enumerationId: string, run: number, includingRun: boolean): Promise<void> {
  await db.query(`DELETE FROM enumeration_found WHERE enumeration_id = $1 AND (run < $2 OR ($3 AND run = $2))`, [
    enumerationId,
    run,
    includingRun,
  ]);
}

/** The assets of an enumeration with these keys (the disappeared ones too). */
export async function assetsByKeys(db: Db, enumerationId: string, keys: string[]): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id WHERE a.enumeration_id = $1 AND a.asset_key = ANY($2::text[])`,
    [enumerationId, keys],
  );
  return rows;
}

/** A page of the assets present before a run and not seen in it (id order after `afterId`). */
export async function unseenPage(
  db: Db,
  enumerationId: string,
  run: number,
  afterId: string,
  limit: number,
): Promise<AssetRow[]> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id
      WHERE a.enumeration_id = $1 AND a.disappeared_at IS NULL AND a.last_seen_run < $2 AND a.id > $3::bigint ORDER BY a.id LIMIT $4`,
    [enumerationId, run, afterId, limit],
  );
  return rows;
}

/** A run's facts in the column order both writes use: url, ip, cname ... screenshot (JSON columns as text). */
function factValues(f: AssetFacts): unknown[] {
  return [
    f.url,
    JSON.stringify(f.ip),
    JSON.stringify(f.cname),
    f.status_code,
    f.title,
    f.webserver,
    f.content_length,
    JSON.stringify(f.technologies),
    f.favicon,
    JSON.stringify(f.chain_status_codes),
    f.redirect_location,
    f.tls === null ? null : JSON.stringify(f.tls),
    JSON.stringify(f.sources),
    f.screenshot,
  ];
}

export async function insertAsset(
  db: Db,
  teamId: string,
  enumerationId: string,
  run: number,
  f: AssetFacts,
): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO assets (team_id, enumeration_id, asset_key, host, port, url, ip, cname, status_code, title, webserver, content_length,
       technologies, favicon, chain_status_codes, redirect_location, tls, sources, screenshot, first_seen_run, last_seen_run, last_changed_run)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb, $9, $10, $11, $12, $13::jsonb, $14, $15::jsonb, $16, $17::jsonb, $18::jsonb, $19, $20, $20, $20)
     RETURNING id::text`,
    [teamId, enumerationId, f.asset_key, f.host, f.port, ...factValues(f), run],
  );
  return rows[0]!.id;
}

/** Writes a run's facts over an asset seen again (changed or not). */
export async function updateAsset(
  db: Db,
  id: string,
  run: number,
  f: AssetFacts,
  changed: boolean,
  reappeared: boolean,
): Promise<void> {
  await db.query(
    `UPDATE assets SET url = $3, ip = $4::jsonb, cname = $5::jsonb, status_code = $6, title = $7, webserver = $8, content_length = $9,
       technologies = $10::jsonb, favicon = $11, chain_status_codes = $12::jsonb, redirect_location = $13, tls = $14::jsonb,
       sources = $15::jsonb, screenshot = COALESCE($16, screenshot), last_seen_run = $2, disappeared_at = NULL, last_seen_at = now(),
       last_changed_run = CASE WHEN $17 THEN $2 ELSE last_changed_run END,
       first_seen_run = CASE WHEN $18 THEN $2 ELSE first_seen_run END,
       updated_at = CASE WHEN $17 OR $18 THEN now() ELSE updated_at END
     WHERE id = $1`,
    [id, run, ...factValues(f), changed, reappeared],
  );
}

export async function markDisappeared(db: Db, id: string, run: number): Promise<void> {
  await db.query('UPDATE assets SET disappeared_at = now(), last_changed_run = $2, updated_at = now() WHERE id = $1', [
    id,
    run,
  ]);
}

export async function insertChangelog(
  db: Db,
  c: {
    teamId: string;
    assetId: string;
    enumerationId: string;
    run: number;
    eventType: string;
    changeEvent: unknown[];
    snapshot: Record<string, unknown>;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO asset_changelogs (team_id, asset_id, enumeration_id, run, event_type, change_event, snapshot)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb) ON CONFLICT (asset_id, run, event_type) DO NOTHING`,
    [
      c.teamId,
      c.assetId,
      c.enumerationId,
      c.run,
      c.eventType,
      JSON.stringify(c.changeEvent),
      JSON.stringify(c.snapshot),
    ],
  );
}

const INTERVALS: Record<string, string> = {
  last_day: '1 day',
  last_week: '7 days',
  last_month: '1 month',
  last_3_months: '3 months',
  last_6_months: '6 months',
  last_12_months: '12 months',
};
export const intervalOf = (time: string | undefined) => (time ? INTERVALS[time] : undefined);

/** SQL conditions (over `a` assets joined with `e` enumerations) of a filter; values go to params. */
export function filterSql(f: AssetFilter, params: unknown[]): string[] {
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const w: string[] = [];
  const bool = (v: boolean | undefined, yes: string) => {
    if (v !== undefined) w.push(v ? `(${yes})` : `NOT (${yes})`);
  };
  bool(f.is_tech, `jsonb_array_length(a.technologies) > 0`);
  bool(f.is_favicon, `COALESCE(a.favicon, '') <> ''`);
  bool(f.is_new, `a.first_seen_run = e.run`);
  bool(f.is_screenshot, `a.screenshot IS NOT NULL`);
  bool(f.only_dns, `a.port IS NULL`);
  bool(f.only_ip, `a.host ~ '^[0-9.]+$' OR a.host LIKE '%:%'`);
  if (f.labels) w.push(`a.labels ?| ${p(f.labels)}::text[]`);
  if (f.host) w.push(`lower(a.host) = ANY(${p(f.host)}::text[])`);
  if (f.port) w.push(`a.port = ANY(${p(f.port)}::int[])`);
  if (f.status_code) w.push(`a.status_code = ANY(${p(f.status_code)}::int[])`);
  if (f.content_length) w.push(`a.content_length = ANY(${p(f.content_length)}::int[])`);
  if (f.title) w.push(`a.title ILIKE ANY(${p(f.title.map(like))}::text[])`);
  if (f.cname) w.push(`a.cname ?| ${p(f.cname)}::text[]`);
  if (f.technologies) {
    w.push(
      `EXISTS (SELECT 1 FROM jsonb_array_elements_text(a.technologies) t WHERE lower(t) = ANY(${p(f.technologies.map((t) => t.toLowerCase()))}::text[]))`,
    );
  }
  if (f.ip) w.push(`a.ip ?| ${p(f.ip)}::text[]`);
  if (f.domain) {
    const d = p(f.domain);
    w.push(
      `(lower(a.host) = ANY(${d}::text[]) OR EXISTS (SELECT 1 FROM unnest(${d}::text[]) AS dom WHERE lower(a.host) LIKE '%.' || dom))`,
    );
  }
  const since = intervalOf(f.time);
  if (since) w.push(`a.created_at >= now() - ${p(since)}::interval`);
  if (f.start_date) w.push(`a.created_at >= ${p(f.start_date)}::date`);
  if (f.end_date) w.push(`a.created_at < ${p(f.end_date)}::date + 1`);
  if (f.search) {
    const s = p(like(f.search));
    w.push(`(a.host ILIKE ${s} OR a.title ILIKE ${s} OR a.webserver ILIKE ${s} OR a.url ILIKE ${s})`);
  }
  if (f.enumeration_ids) w.push(`a.enumeration_id = ANY(${p(f.enumeration_ids)}::text[])`);
  if (f.not_seen_for_days) {
    // Not seen for N days although a run of its enumeration has completed since.
    w.push(
      `a.disappeared_at IS NOT NULL AND a.last_seen_at < now() - (${p(f.not_seen_for_days)} * interval '1 day') AND e.completed_at > a.last_seen_at`,
    );
  } else {
    w.push('a.disappeared_at IS NULL');
  }
  return w;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, '\\$&')}%`;

export interface AssetQuery {
  teamId: string;
  filter: AssetFilter;
  /** Only these asset ids. */
  ids?: string[];
  /** Only assets after this id (keyset paging of exports; order by id). */
  afterId?: string;
  /** Skip the count (exports page by afterId and need no total). */
  noTotal?: boolean;
  offset?: number;
  limit?: number;
  order?: string;
}

export async function listAssets(db: Db, q: AssetQuery): Promise<{ rows: AssetRow[]; total: number }> {
  const params: unknown[] = [q.teamId];
  const where = ['a.team_id = $1', ...filterSql(q.filter, params)];
  if (q.ids) {
    params.push(q.ids);
    where.push(`a.id = ANY($${params.length}::bigint[])`);
  }
  if (q.afterId) {
    params.push(q.afterId);
    where.push(`a.id > $${params.length}::bigint`);
  }
  const from = `FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id WHERE ${where.join(' AND ')}`;
  const total = q.noTotal
    ? { rows: [{ n: -1 }] }
    : await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
  const paging =
    q.limit === undefined
      ? ''
      : (params.push(q.limit, q.offset ?? 0), `LIMIT $${params.length - 1} OFFSET $${params.length}`);
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} ${from} ORDER BY ${q.order ?? 'a.id'} ${paging}`,
    params,
  );
  return { rows, total: total.rows[0]!.n };
}

export async function getAsset(db: Db, teamId: string, id: string): Promise<AssetRow | undefined> {
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id WHERE a.id = $1 AND a.team_id = $2`,
    [id, teamId],
  );
  return rows[0];
}

export async function getScreenshot(db: Db, teamId: string, id: string): Promise<Buffer | undefined> {
  const { rows } = await db.query<{ screenshot: Uint8Array | null }>(
    'SELECT screenshot FROM assets WHERE id = $1 AND team_id = $2',
    [id, teamId],
  );
  const png = rows[0]?.screenshot;
  return png ? Buffer.from(png) : undefined;
}

export async function deleteAssets(db: Db, ids: string[]): Promise<void> {
  if (ids.length) await db.query('DELETE FROM assets WHERE id = ANY($1::bigint[])', [ids]);
}

export async function setLabels(db: Db, ids: string[], labels: string[], add: boolean): Promise<void> {
  if (!ids.length) return;
  if (add) {
    await db.query(
      `UPDATE assets SET labels = (SELECT COALESCE(jsonb_agg(DISTINCT x), '[]'::jsonb) FROM jsonb_array_elements_text(labels || $2::jsonb) x)
       WHERE id = ANY($1::bigint[])`,
      [ids, JSON.stringify(labels)],
    );
  } else {
    await db.query(
      `UPDATE assets SET labels = (SELECT COALESCE(jsonb_agg(x), '[]'::jsonb) FROM jsonb_array_elements_text(labels) x WHERE x <> ALL($2::text[]))
       WHERE id = ANY($1::bigint[])`,
      [ids, labels],
    );
  }
}

// ---- changelogs

export interface ChangelogRow {
  id: string;
  asset_id: string;
  enumeration_id: string;
  run: number;
  event_type: string;
  change_event: { name: string; from: unknown; to: unknown }[];
  snapshot: Record<string, unknown>;
  created_at: Date;
}

/** The history of one asset, or of every asset of one enumeration (optionally one run of it). */
export async function listChangelogs(
  db: Db,
  q: {
    teamId: string;
    assetId?: string;
    enumerationId?: string;
    run?: number;
    since?: string;
    eventTypes?: string[];
    order: string;
    limit: number;
    offset: number;
  },
): Promise<{ rows: ChangelogRow[]; total: number }> {
  const params: unknown[] = [q.teamId];
  const where = ['team_id = $1'];
  for (const [column, value] of [
    ['asset_id', q.assetId],
    ['enumeration_id', q.enumerationId],
    ['run', q.run],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  if (q.since) {
    params.push(q.since);
    where.push(`created_at >= now() - $${params.length}::interval`);
  }
  if (q.eventTypes?.length) {
    params.push(q.eventTypes);
    // A kind (appeared, changed, disappeared) or the name of a changed field (title, status_code...).
    where.push(
      `(event_type = ANY($${params.length}::text[]) OR EXISTS (SELECT 1 FROM jsonb_array_elements(change_event) c WHERE c->>'name' = ANY($${params.length}::text[])))`,
    );
  }
  const w = where.join(' AND ');
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM asset_changelogs WHERE ${w}`, params);
  params.push(q.limit, q.offset);
  const { rows } = await db.query<ChangelogRow>(
    `SELECT id::text AS id, asset_id::text AS asset_id, enumeration_id, run, event_type, change_event, snapshot, created_at FROM asset_changelogs
     WHERE ${w} ORDER BY ${q.order} LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { rows, total: total.rows[0]!.n };
}

// ---- policies

export interface PolicyRow {
  id: string;
  team_id: string;
  name: string;
  policy_type: string;
  policies: Record<string, unknown>;
  alerting_config_ids: string[];
  labels: string[];
  enumeration_ids: string[];
  metadata: Record<string, unknown>;
  apply_to_existing: boolean;
  existing_applied: boolean;
  created_at: Date;
  updated_at: Date;
  last_executed_at: Date | null;
}

export interface PolicyFields {
  name: string;
  policy_type: string;
  policies: Record<string, unknown>;
  alerting_config_ids: string[];
  labels: string[];
  enumeration_ids: string[];
  apply_to_existing: boolean;
}

export async function insertPolicy(
  db: Db,
  id: string,
  teamId: string,
  createdBy: number | null,
  p: PolicyFields,
): Promise<void> {
  await db.query(
    `INSERT INTO asset_policies (id, team_id, name, policy_type, policies, alerting_config_ids, labels, enumeration_ids, apply_to_existing, created_by)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::jsonb, $8::jsonb, $9, $10)`,
    [
      id,
      teamId,
      p.name,
      p.policy_type,
      JSON.stringify(p.policies),
      JSON.stringify(p.alerting_config_ids),
      JSON.stringify(p.labels),
      JSON.stringify(p.enumeration_ids),
      p.apply_to_existing,
      createdBy,
    ],
  );
}

export async function updatePolicy(
  db: Db,
  teamId: string,
  id: string,
  p: PolicyFields,
  resetExisting: boolean,
): Promise<void> {
  await db.query(
    `UPDATE asset_policies SET name = $3, policy_type = $4, policies = $5::jsonb, alerting_config_ids = $6::jsonb, labels = $7::jsonb,
       enumeration_ids = $8::jsonb, apply_to_existing = $9, existing_applied = existing_applied AND NOT $10, updated_at = now()
     WHERE id = $1 AND team_id = $2`,
    [
      id,
      teamId,
      p.name,
      p.policy_type,
      JSON.stringify(p.policies),
      JSON.stringify(p.alerting_config_ids),
      JSON.stringify(p.labels),
      JSON.stringify(p.enumeration_ids),
      p.apply_to_existing,
      resetExisting,
    ],
  );
}

export async function getPolicy(db: Db, teamId: string, id: string): Promise<PolicyRow | undefined> {
  const { rows } = await db.query<PolicyRow>('SELECT * FROM asset_policies WHERE id = $1 AND team_id = $2', [
    id,
    teamId,
  ]);
  return rows[0];
}

export async function listPolicies(
  db: Db,
  teamId: string,
  limit?: number,
  offset = 0,
): Promise<{ rows: PolicyRow[]; total: number }> {
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM asset_policies WHERE team_id = $1', [
    teamId,
  ]);
  const { rows } = await db.query<PolicyRow>(
    `SELECT * FROM asset_policies WHERE team_id = $1 ORDER BY created_at, id ${limit === undefined ? '' : 'LIMIT $2 OFFSET $3'}`,
    limit === undefined ? [teamId] : [teamId, limit, offset],
  );
  return { rows, total: total.rows[0]!.n };
}

export async function deletePolicy(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM asset_policies WHERE id = $1 AND team_id = $2 RETURNING id', [id, teamId]);
  return res.rowCount > 0;
}

export async function markPolicyExecuted(db: Db, id: string, existingApplied: boolean): Promise<void> {
  await db.query(
    `UPDATE asset_policies SET last_executed_at = now(), existing_applied = existing_applied OR $2 WHERE id = $1`,
    [id, existingApplied],
  );
}

export interface PolicyEventRow {
  id: string;
  team_id: string;
  policy_id: string;
  event_type: string;
  status: string;
  asset_id: string | null;
  enumeration_id: string | null;
  run: number | null;
  dedup_key: string;
  error_message: string | null;
  message_payload: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/** Records one event; false when the same (policy, dedup_key) is already recorded. */
export async function insertPolicyEvent(
  db: Db,
  e: {
    teamId: string;
    policyId: string;
    eventType: string;
    status: string;
    assetId?: string | null;
    enumerationId?: string | null;
    run?: number | null;
    dedupKey: string;
    payload: Record<string, unknown>;
  },
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO asset_policy_events (team_id, policy_id, event_type, status, asset_id, enumeration_id, run, dedup_key, message_payload)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb) ON CONFLICT (policy_id, dedup_key) DO NOTHING RETURNING id`,
    [
      e.teamId,
      e.policyId,
      e.eventType,
      e.status,
      e.assetId ?? null,
      e.enumerationId ?? null,
      e.run ?? null,
      e.dedupKey,
      JSON.stringify(e.payload),
    ],
  );
  return res.rowCount > 0;
}

export async function listPolicyEvents(
  db: Db,
  teamId: string,
  policyId: string,
  limit: number,
  offset: number,
): Promise<{ rows: PolicyEventRow[]; total: number }> {
  const total = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM asset_policy_events WHERE team_id = $1 AND policy_id = $2',
    [teamId, policyId],
  );
  const { rows } = await db.query<PolicyEventRow>(
    `SELECT id::text AS id, team_id, policy_id, event_type, status, asset_id::text AS asset_id, enumeration_id, run, dedup_key, error_message,
       message_payload, created_at, updated_at FROM asset_policy_events WHERE team_id = $1 AND policy_id = $2 ORDER BY asset_policy_events.id DESC LIMIT $3 OFFSET $4`,
    [teamId, policyId, limit, offset],
  );
  return { rows, total: total.rows[0]!.n };
}

export async function addNotice(db: Db, id: string, notice: string): Promise<void> {
  await db.query(`UPDATE asset_enumerations SET notices = notices || $2::jsonb WHERE id = $1`, [
    id,
    JSON.stringify([notice]),
  ]);
}

/** Assets first seen in this run of the enumeration and still present. */
export async function newAssetsOfRun(
  db: Db,
  enumerationId: string,
  run: number,
): Promise<{ id: string; host: string; port: number | null }[]> {
  const { rows } = await db.query<{ id: string; host: string; port: number | null }>(
    `SELECT id::text AS id, host, port FROM assets WHERE enumeration_id = $1 AND first_seen_run = $2 AND disappeared_at IS NULL ORDER BY id`,
    [enumerationId, run],
  );
  return rows;
}

/** The alert events a discovery run recorded, each with its policy row. */
export async function pendingAlertEventsOfRun(
  db: Db,
  teamId: string,
  enumerationId: string,
  run: number,
): Promise<(PolicyEventRow & { policy: PolicyRow })[]> {
  const { rows } = await db.query<PolicyEventRow & { policy: PolicyRow }>(
    `SELECT ev.id::text AS id, ev.team_id, ev.policy_id, ev.event_type, ev.status, ev.asset_id::text AS asset_id, ev.enumeration_id, ev.run,
       ev.dedup_key, ev.error_message, ev.message_payload, ev.created_at, ev.updated_at, to_jsonb(p) AS policy
     FROM asset_policy_events ev JOIN asset_policies p ON p.id = ev.policy_id
     WHERE ev.team_id = $1 AND ev.enumeration_id = $2 AND ev.run = $3 AND ev.event_type = 'asset_policy_alert'`,
    [teamId, enumerationId, run],
  );
  return rows;
}

// ---- labels set by hand (policies use setLabels above)

export type LabelMode = 'append' | 'replace' | 'delete';

/**
 * Changes the labels of the team's current assets that match `filter` (and `ids` when given): adds them
 * (append), sets exactly them (replace) or removes them (delete). Returns how many assets matched.
 */
export async function updateLabels(
  db: Db,
  q: { teamId: string; filter: AssetFilter; ids?: string[]; anyState?: boolean },
  labels: string[],
  mode: LabelMode,
): Promise<number> {
  const params: unknown[] = [q.teamId];
  const conditions = filterSql(q.filter, params).filter((c) => !(q.anyState && c === 'a.disappeared_at IS NULL'));
  const where = ['a.team_id = $1', 'e.id = a.enumeration_id', ...conditions];
  if (q.ids) {
    params.push(q.ids);
    where.push(`a.id = ANY($${params.length}::bigint[])`);
  }
  params.push(mode === 'delete' ? labels : JSON.stringify(labels));
  const l = `$${params.length}`;
  const set =
    mode === 'append'
      ? `(SELECT COALESCE(jsonb_agg(DISTINCT x), '[]'::jsonb) FROM jsonb_array_elements_text(a.labels || ${l}::jsonb) x)`
      : mode === 'replace'
        ? `${l}::jsonb`
        : `(SELECT COALESCE(jsonb_agg(x), '[]'::jsonb) FROM jsonb_array_elements_text(a.labels) x WHERE x <> ALL(${l}::text[]))`;
  const res = await db.query(
    `UPDATE assets a SET labels = ${set}, updated_at = now() FROM asset_enumerations e WHERE ${where.join(' AND ')}`,
    params,
  );
  return res.rowCount;
}

// ---- asset groups

export interface GroupRow {
  id: string;
  team_id: string;
  name: string;
  filters: Record<string, unknown>;
  asset_ids: string[] | null;
  created_at: Date;
  updated_at: Date;
}

export async function insertGroup(
  db: Db,
  g: {
    id: string;
    teamId: string;
    name: string;
    filters: unknown;
    assetIds: string[] | null;
    createdBy: number | null;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO asset_groups (id, team_id, name, filters, asset_ids, created_by) VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6)`,
    [g.id, g.teamId, g.name, JSON.stringify(g.filters), g.assetIds ? JSON.stringify(g.assetIds) : null, g.createdBy],
  );
}

export async function getGroup(db: Db, teamId: string, id: string): Promise<GroupRow | undefined> {
  const { rows } = await db.query<GroupRow>('SELECT * FROM asset_groups WHERE team_id = $1 AND id = $2', [teamId, id]);
  return rows[0];
}

export async function getGroups(db: Db, teamId: string, ids: string[]): Promise<GroupRow[]> {
  const { rows } = await db.query<GroupRow>('SELECT * FROM asset_groups WHERE team_id = $1 AND id = ANY($2::text[])', [
    teamId,
    ids,
  ]);
  return rows;
}

export async function listGroups(
  db: Db,
  teamId: string,
  offset: number,
  limit: number,
): Promise<{ rows: GroupRow[]; total: number }> {
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM asset_groups WHERE team_id = $1', [
    teamId,
  ]);
  const { rows } = await db.query<GroupRow>(
    'SELECT * FROM asset_groups WHERE team_id = $1 ORDER BY created_at DESC, id LIMIT $2 OFFSET $3',
    [teamId, limit, offset],
  );
  return { rows, total: total.rows[0]!.n };
}

export async function updateGroup(
  db: Db,
  teamId: string,
  id: string,
  g: { name: string; filters: unknown; assetIds: string[] | null },
): Promise<boolean> {
  const res = await db.query(
    `UPDATE asset_groups SET name = $3, filters = $4::jsonb, asset_ids = $5::jsonb, updated_at = now() WHERE team_id = $1 AND id = $2`,
    [teamId, id, g.name, JSON.stringify(g.filters), g.assetIds ? JSON.stringify(g.assetIds) : null],
  );
  return res.rowCount > 0;
}

export async function deleteGroup(db: Db, teamId: string, id: string): Promise<boolean> {
  const res = await db.query('DELETE FROM asset_groups WHERE team_id = $1 AND id = $2', [teamId, id]);
  return res.rowCount > 0;
}

/** Ids of the team's current assets matching a filter (for a static group). */
export async function matchingAssetIds(db: Db, teamId: string, filter: AssetFilter, max: number): Promise<string[]> {
  const params: unknown[] = [teamId];
  const where = ['a.team_id = $1', ...filterSql(filter, params)];
  params.push(max);
  const { rows } = await db.query<{ id: string }>(
    `SELECT a.id::text AS id FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id WHERE ${where.join(' AND ')} ORDER BY a.id LIMIT $${params.length}`,
    params,
  );
  return rows.map((r) => r.id);
}

// ---- enumeration history

export interface RunHistoryRow {
  enumeration_id: string;
  name: string;
  root_domains: string[];
  enumeration_config: Record<string, unknown>;
  run: number;
  status: string;
  started_at: Date;
  finished_at: Date;
  new_assets: number;
  total_targets: number;
  error_details: string | null;
}

export async function listRunHistory(
  db: Db,
  q: {
    teamId: string;
    enumerationId: string;
    since?: Date;
    startDate?: string;
    endDate?: string;
    offset: number;
    limit: number;
  },
): Promise<{ rows: RunHistoryRow[]; total: number }> {
  const params: unknown[] = [q.teamId, q.enumerationId];
  const where = ['r.team_id = $1', 'r.enumeration_id = $2'];
  if (q.since) where.push(`r.finished_at >= $${params.push(q.since)}`);
  if (q.startDate) where.push(`r.finished_at >= $${params.push(q.startDate)}::date`);
  if (q.endDate) where.push(`r.finished_at < $${params.push(q.endDate)}::date + 1`);
  const from = `FROM asset_enumeration_runs r JOIN asset_enumerations e ON e.id = r.enumeration_id WHERE ${where.join(' AND ')}`;
  const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n ${from}`, params);
  params.push(q.limit, q.offset);
  const { rows } = await db.query<RunHistoryRow>(
    `SELECT r.enumeration_id, e.name, e.root_domains, e.enumeration_config, r.run, r.status, r.started_at, r.finished_at,
       r.new_assets, r.total_targets, r.error_details
     ${from} ORDER BY r.run DESC LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  return { rows, total: total.rows[0]!.n };
}

/** Deletes the team's enumerations among `ids`; returns the ids deleted. */
export async function deleteEnumerations(db: Db, teamId: string, ids: string[]): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'DELETE FROM asset_enumerations WHERE team_id = $1 AND id = ANY($2::text[]) RETURNING id',
    [teamId, ids],
  );
  return rows.map((r) => r.id);
}

// ---- insights: misconfigurations seen by discovery, policy suggestions

/** Current assets that may show a misconfiguration (the service decides which), oldest first. */
export async function misconfigurationCandidates(
  db: Db,
  teamId: string,
  dbPorts: number[],
  search?: string,
): Promise<AssetRow[]> {
  const params: unknown[] = [teamId, dbPorts];
  let extra = '';
  if (search) {
    params.push(`%${search.replace(/[\\%_]/g, '\\$&')}%`);
    extra = ` AND a.host ILIKE $${params.length}`;
  }
  const { rows } = await db.query<AssetRow>(
    `SELECT ${ASSET_COLUMNS} FROM assets a JOIN asset_enumerations e ON e.id = a.enumeration_id
     WHERE a.team_id = $1 AND a.disappeared_at IS NULL${extra} AND (
       (a.tls IS NOT NULL AND (a.tls->>'expired' = 'true' OR a.tls->>'mismatched' = 'true' OR a.tls->>'self_signed' = 'true'))
       OR a.port = ANY($2::int[])
       OR a.title ILIKE 'Index of /%' OR a.title ILIKE 'Directory listing for%'
       OR jsonb_array_length(a.technologies) > 0)
     ORDER BY a.id`,
    params,
  );
  return rows;
}

export interface CountRow {
  value: string;
  n: number;
}

/**
 * Counts over the team's current assets (optionally one enumeration's): by title, by resolved address
 * (distinct hosts), by technology, by port and by error status code; and the total.
 */
export async function inventoryCounts(
  db: Db,
  teamId: string,
  enumerationId: string | undefined,
  limit: number,
): Promise<{
  total: number;
  titles: CountRow[];
  ips: CountRow[];
  technologies: CountRow[];
  ports: CountRow[];
  statuses: CountRow[];
}> {
  const params: unknown[] = [teamId];
  let where = 'a.team_id = $1 AND a.disappeared_at IS NULL';
  if (enumerationId) {
    params.push(enumerationId);
    where += ` AND a.enumeration_id = $${params.length}`;
  }
  params.push(limit);
  const lim = `$${params.length}`;
  // Every statement gets exactly the parameters it names (PostgreSQL cannot type an unused one).
  const q = async (sql: string, limited = true) =>
    (await db.query<CountRow>(sql, limited ? params : params.slice(0, -1))).rows;
  const total = (await q(`SELECT '' AS value, count(*)::int AS n FROM assets a WHERE ${where}`, false))[0]!.n;
  return {
    total,
    titles: await q(
      `SELECT a.title AS value, count(*)::int AS n FROM assets a WHERE ${where} AND COALESCE(a.title, '') <> ''
       GROUP BY a.title HAVING count(*) > 1 ORDER BY n DESC, value LIMIT ${lim}`,
    ),
    ips: await q(
      `SELECT ip AS value, count(DISTINCT a.host)::int AS n FROM assets a, jsonb_array_elements_text(a.ip) ip
       WHERE ${where} GROUP BY ip HAVING count(DISTINCT a.host) > 1 ORDER BY n DESC, value LIMIT ${lim}`,
    ),
    technologies: await q(
      `SELECT lower(t) AS value, count(*)::int AS n FROM assets a, jsonb_array_elements_text(a.technologies) t
       WHERE ${where} GROUP BY lower(t) ORDER BY n DESC, value LIMIT 1000`,
      false,
    ),
    ports: await q(
      `SELECT a.port::text AS value, count(*)::int AS n FROM assets a WHERE ${where} AND a.port IS NOT NULL
       GROUP BY a.port ORDER BY n DESC, value LIMIT 1000`,
      false,
    ),
    statuses: await q(
      `SELECT a.status_code::text AS value, count(*)::int AS n FROM assets a WHERE ${where} AND a.status_code >= 400
       GROUP BY a.status_code ORDER BY n DESC, value LIMIT ${lim}`,
    ),
  };
}
