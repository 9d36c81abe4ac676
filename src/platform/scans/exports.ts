// Exports of scan logs and of findings. A sync log export answers at once with a download link and builds
// the file while it is downloaded; a sync findings export is the answer itself, streamed; an async one of
// either kind is built by a job into stored parts and reported by GET /v1/export/{id}. Links carry a random
// token (only its hash is stored) and expire.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../shared/context.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, notFound } from '../shared/errors.ts';
import { formatLogs, readLogs, type LogFilter, type LogFormat } from './logs.ts';
import * as store from './export-store.ts';
import { valueOnce } from '../shared/platform-values-store.ts';
import type { ExportRow } from './export-store.ts';
import { resultWhere, type ResultFilterBody } from './result-filter.ts';
import {
  exportItem,
  formatResults,
  RESULT_CONTENT_TYPES,
  RESULT_EXTENSIONS,
  type ExportItem,
  type ResultFormat,
} from './result-formats.ts';
import type { ResultRow } from './results.ts';
import { CONTENT_TYPES } from './logs.ts';

export const EXPORT_JOB = 'scans.log-export';
/** How long a download link works (VIGIL_EXPORT_LINK_TTL seconds). */
export const LINK_TTL_SECONDS = Number(process.env.VIGIL_EXPORT_LINK_TTL ?? 900);
const PART_BYTES = 512 * 1024;

const hashToken = (t: string) => createHash('sha256').update(t).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

function linkFor(ctx: AppContext, token: string): string {
  const base =
    ctx.config.publicUrl ?? `${ctx.config.tlsCert ? 'https' : 'http'}://${ctx.config.host}:${ctx.config.port}`;
  return `${base.replace(/\/$/, '')}/v1/export/download/${token}`;
}

function fileName(row: Pick<ExportRow, 'scan_id' | 'format' | 'kind'>): string {
  if (row.kind === 'results')
    return `${row.scan_id ? `scan-${row.scan_id}` : 'findings'}.${RESULT_EXTENSIONS[row.format as ResultFormat]}`;
  return `scan-log-${row.scan_id}.${row.format === 'raw' ? 'log' : row.format}`;
}

async function insertExport(
  db: Db,
  e: { teamId: string; scanId: string; filter: LogFilter; format: LogFormat; async: boolean; tokenHash: string },
) {
  const id = randomBytes(12).toString('hex');
  await store.insertExport(db, { ...e, id, status: e.async ? 'pending' : 'ready', ttlSeconds: LINK_TTL_SECONDS });
  return id;
}

/** Sync export: a link valid for LINK_TTL_SECONDS; the file is produced while it is downloaded. */
export async function syncExport(
  ctx: AppContext,
  teamId: string,
  scanId: string,
  filter: LogFilter,
  format: LogFormat,
): Promise<string> {
  const token = newToken();
  await insertExport(ctx.db, { teamId, scanId, filter, format, async: false, tokenHash: hashToken(token) });
  return linkFor(ctx, token);
}

/** Async export: returns the export id; a job builds the file. */
export async function asyncExport(
  ctx: AppContext,
  teamId: string,
  scanId: string,
  filter: LogFilter,
  format: LogFormat,
): Promise<string> {
  // The real token is handed out by exportStatus once the file is ready.
  const id = await insertExport(ctx.db, {
    teamId,
    scanId,
    filter,
    format,
    async: true,
    tokenHash: hashToken(newToken()),
  });
  if (ctx.queue) await ctx.queue.send(EXPORT_JOB, { exportId: id });
  else
    setImmediate(() => buildExport(ctx, id).catch((err) => ctx.log.error({ err, export_id: id }, 'log export failed')));
  return id;
}

function filterOf(row: ExportRow): LogFilter {
  const f = row.params.filter;
  return { ...f, since: f.since ? new Date(f.since) : undefined };
}

/** Builds an async export's file into stored parts. Safe to run again: it starts from scratch. */
export async function buildExport(ctx: Pick<AppContext, 'db' | 'log'>, exportId: string): Promise<void> {
  const row = await store.getExport(ctx.db, exportId);
  if (!row || row.status === 'ready') return;
  await store.startBuild(ctx.db, exportId);
  try {
    let seq = 0;
    let count = 0;
    let pending: Buffer[] = [];
    let size = 0;
    const write = async () => {
      if (!size) return;
      await store.insertPart(ctx.db, exportId, seq++, Buffer.concat(pending));
      pending = [];
      size = 0;
    };
    const counted = async function* <T>(batches: AsyncIterable<T[]>) {
      for await (const batch of batches) {
        count += batch.length;
        yield batch;
      }
    };
    const pieces =
      row.kind === 'results'
        ? resultPieces(ctx.db, row, counted)
        : formatLogs(counted(readLogs(ctx.db, row.scan_id!, filterOf(row))), row.format as LogFormat);
    for await (const text of pieces) {
      const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
      pending.push(buf);
      size += buf.length;
      if (size >= PART_BYTES) await write();
    }
    await write();
    await store.finishBuild(ctx.db, exportId, count);
  } catch (err) {
    // The stored error is shown to the team: what failed, not the exception text (which goes to the log).
    ctx.log.error({ err, export_id: exportId }, 'building a log export failed');
    await store.failBuild(ctx.db, exportId, 'the export could not be built (details in the server log)');
    throw err;
  }
}

/** GET /v1/export/{id}: its state, and a fresh download link once ready. */
export async function exportStatus(ctx: AppContext, teamId: string, exportId: string) {
  const row = await store.getTeamExport(ctx.db, exportId, teamId);
  if (!row) throw notFound(`export ${exportId} not found`, 'export_id');
  const out: {
    export_id: string;
    scan_id: string;
    status: string;
    format: string;
    created_at: string;
    url?: string;
    expires_at?: string;
    row_count?: number;
    error?: string;
  } = {
    export_id: row.id,
    scan_id: row.scan_id ?? '',
    status: row.status,
    format: row.format,
    created_at: row.created_at.toISOString(),
  };
  if (row.status === 'ready') {
    // The link is derived from the export and a server secret, so every poll answers the same link:
    // polling never invalidates a link someone already holds. Its lifetime starts at the first answer.
    const token = createHmac('sha256', await linkSecret(ctx.db))
      .update(`export:${row.id}`)
      .digest('base64url');
    let expires = row.expires_at;
    if (row.token_hash !== hashToken(token)) {
      expires = await store.renewLink(ctx.db, row.id, hashToken(token), LINK_TTL_SECONDS);
    }
    out.url = linkFor(ctx, token);
    out.expires_at = expires.toISOString();
    out.row_count = row.row_count ?? undefined;
  }
  if (row.error) out.error = row.error;
  return out;
}

/** The public download: checks the token and its expiry, then streams the file. */
export async function openDownload(
  db: Db,
  token: string,
): Promise<{ stream: Readable; contentType: string; name: string }> {
  const row = await store.readyExportByToken(db, hashToken(token));
  if (!row) throw notFound('unknown download link');
  if (row.expires_at.getTime() < Date.now())
    throw new ApiError(410, 'this download link has expired; ask for a new export', 'expired');
  const pieces = row.built
    ? readParts(db, row.id)
    : row.kind === 'results'
      ? resultPieces(db, row, (b) => b)
      : formatLogs(readLogs(db, row.scan_id!, filterOf(row)), row.format as LogFormat);
  const contentType =
    row.kind === 'results' ? RESULT_CONTENT_TYPES[row.format as ResultFormat] : CONTENT_TYPES[row.format as LogFormat];
  return { stream: Readable.from(pieces), contentType, name: fileName(row) };
}

async function* readParts(db: Db, exportId: string): AsyncGenerator<Buffer> {
  for (let seq = 0; ; seq++) {
    const data = await store.readPart(db, exportId, seq);
    if (!data) return;
    yield Buffer.from(data);
  }
}

const secrets = new WeakMap<Db, Promise<string>>();

/** The database-wide key for derived links, made on first use (every process then reads the same). */
function linkSecret(db: Db): Promise<string> {
  let hit = secrets.get(db);
  if (!hit) {
    hit = valueOnce(db, 'export_links', randomBytes(32).toString('base64url'));
    hit.catch(() => secrets.delete(db));
    secrets.set(db, hit);
  }
  return hit;
}

// ---- findings exports ----

/** The findings of a WHERE as export items, one batch at a time. */
async function* itemBatches(db: Db, where: { sql: string; params: unknown[] }): AsyncGenerator<ExportItem[]> {
  for await (const rows of store.resultBatches<ResultRow>(db, where.sql, where.params)) yield rows.map(exportItem);
}

function resultPieces(
  db: Db,
  row: ExportRow,
  wrap: (b: AsyncIterable<ExportItem[]>) => AsyncIterable<ExportItem[]>,
): AsyncGenerator<string | Buffer> {
  const filter = row.params.filter as ResultFilterBody;
  const where = resultWhere(row.team_id, filter, row.scan_id ?? undefined);
  return formatResults(wrap(itemBatches(db, where)), row.format as ResultFormat, {
    title: row.scan_id ? `scan ${row.scan_id}` : 'team findings',
    generatedAt: new Date(),
  });
}

export interface ResultsExportRequest {
  teamId: string;
  /** One scan's findings, or (null) the team's. */
  scanId: string | null;
  filter: ResultFilterBody;
  format: ResultFormat;
}

export interface ResultsFile {
  stream: Readable;
  contentType: string;
  name: string;
}

/**
 * A sync findings export: the file itself, streamed while the findings are read. The filter is checked
 * here, before the answer starts, so a bad one is a 400 rather than a broken download.
 */
export function streamResults(db: Db, e: ResultsExportRequest): ResultsFile {
  const where = resultWhere(e.teamId, e.filter, e.scanId ?? undefined);
  const pieces = formatResults(itemBatches(db, where), e.format, {
    title: e.scanId ? `scan ${e.scanId}` : 'team findings',
    generatedAt: new Date(),
  });
  return {
    stream: Readable.from(pieces),
    contentType: RESULT_CONTENT_TYPES[e.format],
    name: fileName({ scan_id: e.scanId, format: e.format, kind: 'results' }),
  };
}

/** An async findings export: its id; a job builds the file, GET /v1/export/{id} reports it. */
export async function asyncResultsExport(ctx: AppContext, e: ResultsExportRequest): Promise<string> {
  resultWhere(e.teamId, e.filter, e.scanId ?? undefined); // a bad filter is a 400 now, not a failed job
  const id = randomBytes(12).toString('hex');
  await store.insertExport(ctx.db, {
    id,
    teamId: e.teamId,
    scanId: e.scanId,
    kind: 'results',
    filter: e.filter,
    format: e.format,
    status: 'pending',
    tokenHash: hashToken(newToken()),
    ttlSeconds: LINK_TTL_SECONDS,
  });
  if (ctx.queue) await ctx.queue.send(EXPORT_JOB, { exportId: id });
  else
    setImmediate(() =>
      buildExport(ctx, id).catch((err) => ctx.log.error({ err, export_id: id }, 'findings export failed')),
    );
  return id;
}
