// Importing nuclei JSON-lines results as an uploaded scan (POST /v1/scans/import), and appending later
// chunks to it (PATCH /v1/scans/{scan_id}/import, as nuclei's uploader sends them). The body is read as
// a stream, line by line, and stored in batches of their own transactions: memory stays bounded and the
// event loop is free between batches, whatever the file's size (an 18 MB import used to stall the
// embedded server 30 s in one transaction). A bad line is a 400 naming it; a new import with a bad line
// leaves nothing behind.
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { jsonDepthExceeds, MAX_JSON_DEPTH } from '../shared/input.ts';
import { newScanId } from './service.ts';
import { toFindingRow, logEventText, type FindingRow, type ResultEvent } from './findings.ts';
import * as store from './store.ts';
import { loggedPairs } from './log-store.ts';

/** Largest import body, and largest single line (one result with its request and response). */
export const MAX_IMPORT_BYTES = 256 * 1024 * 1024;
export const MAX_IMPORT_LINE = 16 * 1024 * 1024;
const BATCH = 500;
/** Targets listed on an uploaded scan; further hosts are counted, not listed. */
const MAX_LISTED_TARGETS = 10_000;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Longest values of the fields that go into database indexes (template id in two, host in the scan log's):
 * an index entry holds at most about 2,700 bytes, so longer ones failed the insert. nuclei's ids are at
 * most 54 characters in the public corpus; hosts are URLs.
 */
export const MAX_TEMPLATE_ID_BYTES = 255;
export const MAX_HOST_BYTES = 2048;

/** Lines of a byte stream, without holding more than one line (capped) at a time. */
async function* linesOf(body: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  let total = 0;
  let rest = '';
  const decoder = new TextDecoder('utf-8');
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    total += buf.length;
    if (total > MAX_IMPORT_BYTES) throw badRequest(`the import is larger than ${MAX_IMPORT_BYTES} bytes`, 'body');
    rest += decoder.decode(buf, { stream: true });
    let nl: number;
    while ((nl = rest.indexOf('\n')) >= 0) {
      yield rest.slice(0, nl);
      rest = rest.slice(nl + 1);
    }
    if (rest.length > MAX_IMPORT_LINE) throw badRequest(`a line is longer than ${MAX_IMPORT_LINE} bytes`, 'body');
  }
  rest += decoder.decode();
  if (rest) yield rest;
}

/** One checked line: a nuclei result whose values the database can store. */
function readLine(line: string, n: number): FindingRow {
  // Counted before parsing, as for request bodies: a deep value would exhaust the stack later (when it
  // is written back as JSON, or in the database).
  if (jsonDepthExceeds(line, MAX_JSON_DEPTH))
    throw badRequest(`line ${n} is nested more than ${MAX_JSON_DEPTH} levels deep`, 'body');
  let ev: unknown;
  try {
    ev = JSON.parse(line);
  } catch {
    throw badRequest(`line ${n} is not JSON`, 'body');
  }
  if (!ev || typeof ev !== 'object' || Array.isArray(ev) || typeof (ev as ResultEvent)['template-id'] !== 'string') {
    throw badRequest(`line ${n} has no template-id: not a nuclei result`, 'body');
  }
  const r = ev as ResultEvent;
  checkIndexed(r, 'template-id', MAX_TEMPLATE_ID_BYTES, n);
  checkIndexed(r, 'host', MAX_HOST_BYTES, n);
  if (
    /\u0000/.test(line) ||
    /\\u0000/i.test(line) ||
    LONE_SURROGATE.test(line) ||
    /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i.test(line)
  ) {
    throw badRequest(`line ${n} contains a NUL character or an unpaired surrogate`, 'body');
  }
  if (r.port !== undefined && r.port !== '') {
    const p = Number(r.port);
    if (!Number.isInteger(p) || p < 0 || p > 65535)
      throw badRequest(`line ${n}: port ${JSON.stringify(r.port)} is out of range (0-65535)`, 'body');
  }
  if (r.timestamp !== undefined) {
    const t = typeof r.timestamp === 'string' ? new Date(r.timestamp) : new Date(NaN);
    const y = t.getUTCFullYear();
    if (Number.isNaN(t.getTime()) || y < 1 || y > 9999)
      throw badRequest(
        `line ${n}: timestamp ${JSON.stringify(r.timestamp)} is not a date between years 1 and 9999`,
        'body',
      );
  }
  return toFindingRow(r);
}

/** A field stored in an index: a string (when present) of at most `max` UTF-8 bytes. */
function checkIndexed(r: ResultEvent, field: 'template-id' | 'host', max: number, n: number): void {
  const v = r[field];
  if (v === undefined) return;
  if (typeof v !== 'string') throw badRequest(`line ${n}: ${field} must be a string`, field);
  if (Buffer.byteLength(v) > max) throw badRequest(`line ${n}: ${field} is longer than ${max} bytes`, field);
}

interface ImportState {
  scanId: string;
  teamId: string;
  seenLogs: Set<string>;
  hosts: Set<string>;
  extraHosts: number;
  templates: Set<string>;
  count: number;
}

async function flush(ctx: AppContext, st: ImportState, rows: FindingRow[]): Promise<void> {
  const logs: store.LogRow[] = [];
  for (const r of rows) {
    if (r.host) {
      if (st.hosts.size < MAX_LISTED_TARGETS) st.hosts.add(r.host);
      else if (!st.hosts.has(r.host)) st.extraHosts++;
    }
    st.templates.add(r.templateId);
    const key = `${r.host}\u0000${r.templateId}`;
    if (st.seenLogs.has(key)) continue;
    st.seenLogs.add(key);
    const at = new Date(r.event.timestamp ?? Date.now());
    logs.push({
      target: r.host,
      templateId: r.templateId,
      matched: true,
      severity: r.severity,
      error: null,
      event: logEventText(r.event),
      vulnHash: r.vulnHash,
      at: Number.isNaN(at.getTime()) ? new Date() : at,
    });
  }
  await ctx.db.transaction(async (tx) => {
    await store.insertFindings(tx, st.scanId, st.teamId, 0, rows);
    if (logs.length) await store.insertLogs(tx, st.scanId, st.teamId, 0, logs);
  });
  st.count += rows.length;
  // The embedded database runs on this thread and answers through microtasks only: without a turn of
  // the event loop here, other requests (and timers) would wait for the whole import.
  await new Promise((resolve) => setImmediate(resolve));
}

async function consume(
  ctx: AppContext,
  st: ImportState,
  body: AsyncIterable<Buffer | string>,
  beforeFirst: () => Promise<void>,
): Promise<void> {
  let batch: FindingRow[] = [];
  let started = false;
  let n = 0;
  for await (const raw of linesOf(body)) {
    n++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.trim()) continue;
    batch.push(readLine(line, n));
    if (batch.length >= BATCH) {
      if (!started) await beforeFirst();
      started = true;
      await flush(ctx, st, batch);
      batch = [];
    }
  }
  if (batch.length) {
    if (!started) await beforeFirst();
    await flush(ctx, st, batch);
  }
}

async function finish(ctx: AppContext, st: ImportState): Promise<void> {
  const targets = [...st.hosts];
  await store.completeImport(ctx.db, st.scanId, targets, targets.length + st.extraHosts, st.templates.size);
  await store.recountResults(ctx.db, st.scanId);
  await store.refreshResultStats(ctx.db, st.count);
}

/** POST /v1/scans/import: a new uploaded scan from a JSON-lines stream. */
export async function importResults(
  ctx: AppContext,
  caller: Caller,
  body: AsyncIterable<Buffer | string>,
  name: string | undefined,
) {
  const st: ImportState = {
    scanId: newScanId(),
    teamId: caller.teamId,
    seenLogs: new Set(),
    hosts: new Set(),
    extraHosts: 0,
    templates: new Set(),
    count: 0,
  };
  let created = false;
  try {
    await consume(ctx, st, body, async () => {
      await store.insertScan(ctx.db, {
        id: st.scanId,
        teamId: caller.teamId,
        name: name?.trim() || `import ${new Date().toISOString()}`,
        status: 'uploaded',
        createdBy: caller.userId,
        targets: [],
        totalTemplate: 0,
        request: {},
        engineOptions: {},
        isAutomatic: false,
        isInternal: false,
        isOss: true,
      });
      created = true;
    });
    if (st.count === 0) throw badRequest('the file holds no results', 'body');
    await finish(ctx, st);
  } catch (err) {
    // A bad line anywhere: the new scan and what was stored of it go (results and logs cascade).
    if (created) await store.deleteScan(ctx.db, caller.teamId, st.scanId).catch(() => {});
    throw err;
  }
  return { id: st.scanId, count: st.count };
}

/** PATCH /v1/scans/{scan_id}/import: more results for an uploaded scan (nuclei's uploader chunks). */
export async function appendResults(
  ctx: AppContext,
  caller: Caller,
  scanId: string,
  body: AsyncIterable<Buffer | string>,
) {
  const scan = await store.getScan(ctx.db, caller.teamId, scanId);
  if (!scan) throw notFound(`scan ${scanId} not found`, 'scan_id');
  if (scan.status !== 'uploaded')
    throw badRequest(`scan ${scanId} was not imported: results can only be added to uploaded scans`, 'scan_id');
  const st: ImportState = {
    scanId,
    teamId: caller.teamId,
    seenLogs: new Set(),
    hosts: new Set((scan.targets as string[] | null) ?? []),
    extraHosts: 0,
    templates: new Set(),
    count: 0,
  };
  for (const id of await store.resultTemplateIds(ctx.db, scanId)) st.templates.add(id);
  for (const r of await loggedPairs(ctx.db, scanId)) st.seenLogs.add(`${r.target}\u0000${r.template_id}`);
  await consume(ctx, st, body, async () => {});
  await finish(ctx, st);
  return { id: scanId, count: st.count };
}
