// Rules for a team's private templates: content must be a valid template (the engine's validator decides),
// only the team's own private templates can be read, changed or deleted.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { hashToken, newToken } from '../shared/tokens.ts';
import { ApiError, badRequest, forbidden, notFound } from '../shared/errors.ts';
import { columnsFor, parseFields, toRecord, type TemplateRecord } from './format.ts';
import { readTemplate, type TemplateFields } from './record.ts';
import * as store from './store.ts';
import { fillRecordJson } from './record-json.ts';
import * as shares from './share-store.ts';
import { locateIssue } from './locate.ts';

export interface TemplateInput {
  template: string;
  filename?: string;
  dir?: string;
  prompt?: string;
}

const MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;

function validate(text: string, name: string): TemplateFields {
  if (!text.trim()) throw badRequest('template is empty', 'template');
  if (Buffer.byteLength(text) > MAX_TEMPLATE_BYTES) throw badRequest('template is larger than 2 MiB', 'template');
  // Private templates have no folder on disk: payload file names cannot be resolved, so only warn.
  const res = readTemplate(text, name, { missingPayloadFile: 'warn' });
  if (!res.ok) throw badRequest(`invalid template: ${res.message}`, 'template');
  return res.fields;
}

function cleanFilename(filename: string | undefined, id: string): string {
  const base = (filename ?? '').trim().split(/[\\/]/).pop() ?? '';
  if (!base) return `${id}.yaml`;
  return /\.ya?ml$/i.test(base) ? base : `${base}.yaml`;
}

function cleanDir(dir: string | undefined): string | null {
  const d = (dir ?? '').trim().replace(/^\/+|\/+$/g, '');
  return d || null;
}

function aiMeta(prompt: string | undefined): Record<string, unknown> | null {
  return prompt?.trim() ? { prompt: prompt.trim(), is_prompt_by_human: true, is_template_by_human: true } : null;
}

export async function createPrivate(db: Db, teamId: string, input: TemplateInput): Promise<TemplateRecord> {
  const fields = validate(input.template, input.filename ?? 'template.yaml');
  const templateId = randomUUID();
  const row = await store.insertOne(db, {
    ...fields,
    team_id: teamId,
    template_type: 'user',
    template_id: templateId,
    uri: templateId,
    dir: cleanDir(input.dir),
    filename: cleanFilename(input.filename, fields.id),
    ai_meta: aiMeta(input.prompt),
  });
  await storeRecord(db, row.pk);
  return toRecord(row);
}

/**
 * Writes the row's Template record as search pages send it (record-json.ts). Should that fail (a lost
 * connection), the write stands and search reads the row's columns until the next fill.
 */
async function storeRecord(db: Db, pk: number | string): Promise<void> {
  await fillRecordJson(db, [Number(pk)]).catch(() => 0);
}

export async function updatePrivate(
  db: Db,
  teamId: string,
  templateId: string,
  input: TemplateInput,
): Promise<TemplateRecord> {
  const current = await store.getPrivate(db, teamId, templateId);
  if (!current) throw await missing(db, templateId);
  const fields = validate(input.template, input.filename ?? current.filename ?? 'template.yaml');
  const row = await store.updatePrivate(db, teamId, templateId, {
    ...fields,
    team_id: teamId,
    template_type: current.template_type as 'user',
    template_id: templateId,
    uri: current.uri,
    dir: input.dir !== undefined ? cleanDir(input.dir) : current.dir,
    filename: input.filename !== undefined ? cleanFilename(input.filename, fields.id) : current.filename,
    release_tag: current.release_tag,
    ref: current.ref,
    ai_meta: input.prompt !== undefined ? aiMeta(input.prompt) : current.ai_meta,
  });
  // Deleted between the read and the write.
  if (!row) throw notFound(`no private template ${templateId} in this team`, 'template_id');
  await storeRecord(db, row.pk);
  return toRecord(row);
}

/** 404 for unknown ids; 403 when the id is a public catalogue template (those are read-only). */
async function missing(db: Db, templateId: string) {
  if (await store.getPublic(db, templateId)) {
    return forbidden(`${templateId} is a public catalogue template; only the team's private templates can be changed`);
  }
  return notFound(`no private template ${templateId} in this team`, 'template_id');
}

export async function getPrivate(
  db: Db,
  teamId: string,
  templateId: string,
  fieldsParam?: string,
): Promise<TemplateRecord> {
  const fields = parseFields(fieldsParam);
  const row = await store.getPrivate(db, teamId, templateId);
  if (!row) throw notFound(`no private template ${templateId} in this team`, 'template_id');
  return toRecord(row, fields);
}

export async function deletePrivate(db: Db, teamId: string, templateId: string): Promise<void> {
  if (!(await store.deletePrivate(db, teamId, templateId))) throw await missing(db, templateId);
}

export async function listPrivate(db: Db, teamId: string, q: { offset?: number; limit?: number; fields?: string }) {
  const fields = parseFields(q.fields);
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  if (limit < 0 || limit > 1000) throw badRequest('limit must be between 0 and 1000', 'limit');
  if (offset < 0) throw badRequest('offset must not be negative', 'offset');
  const { rows, total } = await store.listPrivate(db, teamId, offset, limit, columnsFor(fields));
  const results = rows.map((r) => toRecord(r, fields));
  return { results, message: 'ok', count: results.length, total };
}

/** A public catalogue template by id or path (GET /v1/template/public/{template_id}). */
export async function getPublic(db: Db, idOrUri: string, fieldsParam?: string): Promise<TemplateRecord> {
  const fields = parseFields(fieldsParam);
  const row = await store.getPublic(db, idOrUri);
  if (!row) throw notFound(`no public template ${idOrUri}`, 'template_id');
  return toRecord(row, fields);
}

export interface LocatedIssue {
  message: string;
  field: string;
  line?: number;
  column?: number;
}

/** The validator's verdict on template text, each issue with its line (for the console's editor). */
export function checkTemplate(text: string): { valid: boolean; errors: LocatedIssue[]; warnings: LocatedIssue[] } {
  const where = (field: string, reason: string): LocatedIssue => ({
    message: reason,
    field,
    ...locateIssue(text, field, reason),
  });
  if (!text.trim()) return { valid: false, errors: [{ message: 'template is empty', field: '' }], warnings: [] };
  if (Buffer.byteLength(text) > MAX_TEMPLATE_BYTES)
    return { valid: false, errors: [{ message: 'template is larger than 2 MiB', field: '' }], warnings: [] };
  const res = readTemplate(text, 'template.yaml', { missingPayloadFile: 'warn' });
  if (res.ok) return { valid: true, errors: [], warnings: [] };
  const issues = res.issues.length ? res.issues : [{ field: '', reason: res.message }];
  return { valid: false, errors: issues.map((i) => where(i.field, i.reason)), warnings: [] };
}

/** A page of the public catalogue (GET /v1/template/public) or of its early-access set (GET /v1/template/early). */
export async function listPublic(db: Db, early: boolean, q: { offset?: number; limit?: number; fields?: string }) {
  const fields = parseFields(q.fields);
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  if (limit < 0 || limit > 1000) throw badRequest('limit must be between 0 and 1000', 'limit');
  if (offset < 0) throw badRequest('offset must not be negative', 'offset');
  const { rows, total } = await store.listPublic(db, early, offset, limit, columnsFor(fields));
  const results = rows.map((r) => toRecord(r, fields));
  return { results, message: 'ok', count: results.length, total };
}

/** An early-access catalogue template by id or path (GET /v1/template/early/{id}). */
export async function getEarly(db: Db, idOrUri: string, fieldsParam?: string): Promise<TemplateRecord> {
  const fields = parseFields(fieldsParam);
  const row = await store.getEarly(db, idOrUri);
  if (!row) throw notFound(`no early-access template ${idOrUri}`, 'id');
  return toRecord(row, fields);
}

// Sharing by link. The token is the link's credential: 256 random bits, shown once, stored as a hash.

export const SHARE_TOKEN_PREFIX = 'vts_';
const DEFAULT_TTL = '7d';
const MAX_TTL_MS = 365 * 24 * 3600 * 1000;
const TTL_UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A share's lifetime ("30m", "12h", "7d", "2w"; m is minutes) as milliseconds; 400 for anything else. */
export function parseTtl(ttl: string): number {
  const m = /^(\d{1,7})([smhdw])$/.exec(ttl.trim());
  const ms = m ? Number(m[1]) * TTL_UNITS[m[2]!]! : NaN;
  if (!(ms > 0))
    throw badRequest(`ttl must be a positive duration such as 30m, 12h, 7d or 2w (got "${ttl.slice(0, 40)}")`, 'ttl');
  if (ms > MAX_TTL_MS) throw badRequest('ttl must be at most 365d: a share link always expires', 'ttl');
  return ms;
}

/** Only link sharing exists here: users and organizations of the hosted platform have no equivalent. */
function checkShareType(shareType: string | undefined): 'unlisted' {
  if (shareType === undefined || shareType === 'unlisted') return 'unlisted';
  throw badRequest(
    `share_type ${shareType} is not available: Vigil shares templates by link only (share_type unlisted)`,
    'share_type',
  );
}

function shareMeta(templateId: string, s: shares.ShareRow) {
  return {
    template_id: templateId,
    share_type: s.share_type,
    ttl: s.ttl,
    expires_at: s.expires_at.toISOString(),
    organizations: [],
    users_email: [],
  };
}

/** Shares a private template of the team by link; the answer carries the token, which is never shown again. */
export async function shareTemplate(
  db: Db,
  teamId: string,
  input: { template_id: string; share_type?: string; ttl?: string },
) {
  const shareType = checkShareType(input.share_type);
  const ttl = (input.ttl ?? DEFAULT_TTL).trim();
  const expiresAt = new Date(Date.now() + parseTtl(ttl));
  const token = newToken(SHARE_TOKEN_PREFIX);
  const row = await shares.upsert(db, teamId, input.template_id, {
    tokenHash: hashToken(token),
    shareType,
    ttl,
    expiresAt,
  });
  if (!row) throw await missing(db, input.template_id);
  return { ...shareMeta(input.template_id, row), share_token: token, share_path: `/v1/template/share/${token}` };
}

/** Changes how long a share lasts (from now); the link stays the same. */
export async function updateShare(
  db: Db,
  teamId: string,
  templateId: string,
  input: { ttl?: string; share_type?: string },
) {
  checkShareType(input.share_type);
  if (input.ttl === undefined)
    throw badRequest('ttl is required: it is the only setting of a link share that can change', 'ttl');
  const ttl = input.ttl.trim();
  const row = await shares.update(db, teamId, templateId, { ttl, expiresAt: new Date(Date.now() + parseTtl(ttl)) });
  if (!row) throw notFound(`template ${templateId} of this team is not shared`, 'template_id');
  return shareMeta(templateId, row);
}

export async function unshare(db: Db, teamId: string, templateId: string): Promise<void> {
  if (!(await shares.remove(db, teamId, templateId)))
    throw notFound(`template ${templateId} of this team is not shared`, 'template_id');
}

function sharedRecord(row: shares.SharedRow, fields: string[]): TemplateRecord {
  return {
    ...toRecord(row, fields),
    share_type: row.share_type,
    ttl: row.ttl,
    expires_at: row.share_expires_at.toISOString(),
  };
}

/** The template a link opens (read-only): 404 for an unknown or revoked link, 410 once it has expired. */
export async function readShared(db: Db, token: string, fieldsParam?: string): Promise<TemplateRecord> {
  const fields = parseFields(fieldsParam);
  const row =
    token.startsWith(SHARE_TOKEN_PREFIX) && token.length <= 100
      ? await shares.findByTokenHash(db, hashToken(token), columnsFor(fields))
      : undefined;
  if (!row) throw notFound('no shared template at this link (unknown or revoked)', 'template_id');
  if (row.share_expires_at.getTime() <= Date.now())
    throw new ApiError(410, 'this share link has expired', 'expired', 'template_id');
  const record = sharedRecord(row, fields);
  // To the reader it is a shared template, whatever it is to its team.
  if ('template_type' in record) record.template_type = 'shared';
  return record;
}

const SORT_HELP = Object.keys(shares.SORTS).join(', ');

function sortOrder(asc?: string, desc?: string): { key: string; desc: boolean }[] {
  const parse = (csv: string | undefined, isDesc: boolean, param: string) =>
    (csv ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
      .map((key) => {
        if (!(key in shares.SORTS))
          throw badRequest(`cannot sort by "${key.slice(0, 40)}"; sort keys: ${SORT_HELP}`, param);
        return { key, desc: isDesc };
      });
  return [...parse(desc, true, 'sort_desc'), ...parse(asc, false, 'sort_asc')];
}

/** The team's shared templates, with each share's type, ttl and expiry (never the link's token). */
export async function listShares(
  db: Db,
  teamId: string,
  q: { offset?: number; limit?: number; fields?: string; sort_asc?: string; sort_desc?: string },
) {
  const fields = parseFields(q.fields);
  const limit = q.limit ?? 100;
  const offset = q.offset ?? 0;
  if (limit < 0 || limit > 1000) throw badRequest('limit must be between 0 and 1000', 'limit');
  if (offset < 0) throw badRequest('offset must not be negative', 'offset');
  const { rows, total } = await shares.list(db, teamId, {
    offset,
    limit,
    columns: columnsFor(fields),
    order: sortOrder(q.sort_asc, q.sort_desc),
  });
  const results = rows.map((r) => sharedRecord(r, fields));
  return { results, message: 'ok', count: results.length, total };
}
