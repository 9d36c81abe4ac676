// Scan log exports. A sync export answers at once with a download link and builds the file while it is
// downloaded; an async one is built by a job into stored parts and reported by GET /v1/export/{id}.
// Links carry a random token (only its hash is stored) and expire.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import type { AppContext } from '../shared/context.ts';
import type { Db } from '../../db/connection.ts';
import { ApiError, notFound } from '../shared/errors.ts';
import { formatLogs, readLogs, type LogFilter, type LogFormat } from './logs.ts';
import * as store from './export-store.ts';
import type { ExportRow } from './export-store.ts';

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

function fileName(row: Pick<ExportRow, 'scan_id' | 'format'>): string {
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
    const counted = async function* () {
      for await (const batch of readLogs(ctx.db, row.scan_id, filterOf(row))) {
        count += batch.length;
        yield batch;
      }
    };
    for await (const text of formatLogs(counted(), row.format)) {
      const buf = Buffer.from(text, 'utf8');
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
    scan_id: row.scan_id,
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
): Promise<{ stream: Readable; format: LogFormat; name: string }> {
  const row = await store.readyExportByToken(db, hashToken(token));
  if (!row) throw notFound('unknown download link');
  if (row.expires_at.getTime() < Date.now())
    throw new ApiError(410, 'this download link has expired; ask for a new export', 'expired');
  const pieces = row.built ? readParts(db, row.id) : formatLogs(readLogs(db, row.scan_id, filterOf(row)), row.format);
  return { stream: Readable.from(pieces), format: row.format, name: fileName(row) };
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
    hit = store.platformSecret(db, 'export_links', randomBytes(32).toString('base64url'));
    hit.catch(() => secrets.delete(db));
    secrets.set(db, hit);
  }
  return hit;
}
