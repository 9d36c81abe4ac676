// Rules for a team's private templates: content must be a valid template (the engine's validator decides),
// only the team's own private templates can be read, changed or deleted.
import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/connection.ts';
import { badRequest, forbidden, notFound } from '../shared/errors.ts';
import { columnsFor, parseFields, toRecord, type TemplateRecord } from './format.ts';
import { readTemplate, type TemplateFields } from './record.ts';
import * as store from './store.ts';
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
  return toRecord(row);
}

export async function updatePrivate(db: Db, teamId: string, templateId: string, input: TemplateInput): Promise<TemplateRecord> {
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
  return toRecord(row);
}

/** 404 for unknown ids; 403 when the id is a public catalogue template (those are read-only). */
async function missing(db: Db, templateId: string) {
  if (await store.getPublic(db, templateId)) {
    return forbidden(`${templateId} is a public catalogue template; only the team's private templates can be changed`);
  }
  return notFound(`no private template ${templateId} in this team`, 'template_id');
}

export async function getPrivate(db: Db, teamId: string, templateId: string, fieldsParam?: string): Promise<TemplateRecord> {
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
  const where = (field: string, reason: string): LocatedIssue => ({ message: reason, field, ...locateIssue(text, field, reason) });
  if (!text.trim()) return { valid: false, errors: [{ message: 'template is empty', field: '' }], warnings: [] };
  if (Buffer.byteLength(text) > MAX_TEMPLATE_BYTES) return { valid: false, errors: [{ message: 'template is larger than 2 MiB', field: '' }], warnings: [] };
  const res = readTemplate(text, 'template.yaml', { missingPayloadFile: 'warn' });
  if (res.ok) return { valid: true, errors: [], warnings: [] };
  const issues = res.issues.length ? res.issues : [{ field: '', reason: res.message }];
  return { valid: false, errors: issues.map((i) => where(i.field, i.reason)), warnings: [] };
}
