// Named configurations (/v1/scans/config): create, list, read, change, delete. The YAML is checked against
// its type's schema (documents.ts) before anything is stored. Callers who may not manage configs
// (Members, Viewers, Guests) see names and types, never the text, which holds tokens and passwords.
import { randomUUID } from 'node:crypto';
import yaml from 'js-yaml';
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { can } from '../auth/permissions.ts';
import { badRequest, forbidden, notFound } from '../shared/errors.ts';
import { CONFIG_TYPES, providerName, validateConfig, type ConfigType } from './documents.ts';
import * as store from './store.ts';
import { parseConfig } from './parsed.ts';

export interface CreateConfigBody {
  name: string;
  config_type?: string;
  config: string;
  global?: boolean;
  read_only?: boolean;
}

function checkType(value: string | undefined, param: string): ConfigType {
  if (value === undefined) throw badRequest(`${param} is required (${CONFIG_TYPES.join(', ')})`, param);
  if (!(CONFIG_TYPES as readonly string[]).includes(value))
    throw badRequest(`${param} must be one of ${CONFIG_TYPES.join(', ')}`, param);
  return value as ConfigType;
}

function checkName(name: string | undefined): string | undefined {
  if (name === undefined) return undefined;
  const n = name.trim();
  if (!n) throw badRequest('name must not be empty', 'name');
  return n;
}

const alertEvents = (r: store.ConfigRow): string[] => {
  const events = parseConfig(r).events;
  return Array.isArray(events) ? events.map(String) : [];
};

export function configView(r: store.ConfigRow, showText: boolean) {
  return {
    id: r.id,
    name: r.name,
    config_type: r.config_type,
    config: showText ? r.config : '',
    provider_name: r.provider_name,
    ...(r.config_type === 'alerting' ? { events: alertEvents(r) } : {}),
    read_only: r.read_only,
    global: r.is_global,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export async function createConfig(ctx: AppContext, caller: Caller, body: CreateConfigBody): Promise<string> {
  const type = checkType(body.config_type, 'config_type');
  const name = checkName(body.name)!;
  const doc = validateConfig(type, body.config);
  const id = randomUUID();
  await store.insertConfig(ctx.db, {
    id,
    team_id: caller.teamId,
    name,
    config_type: type,
    config: body.config,
    provider_name: providerName(type, doc),
    is_global: body.global ?? false,
    read_only: body.read_only ?? false,
  });
  return id;
}

export async function listConfigs(
  ctx: AppContext,
  caller: Caller,
  q: { type?: string; search?: string; limit?: number; offset?: number },
) {
  const type = q.type === undefined || q.type === '' ? undefined : checkType(q.type, 'type');
  const rows = await store.listConfigs(ctx.db, caller.teamId, {
    type,
    search: q.search?.trim() || undefined,
    limit: q.limit ?? 100,
    offset: q.offset ?? 0,
  });
  const show = can(caller.role, 'configs:manage');
  return rows.map((r) => configView(r, show));
}

export async function mustGetConfig(ctx: AppContext, teamId: string, id: string): Promise<store.ConfigRow> {
  const row = await store.getConfig(ctx.db, teamId, id);
  if (!row) throw notFound(`config ${id} not found`, 'config_id');
  return row;
}

/** `asJson`: the config text as JSON (the reference's config_json), for callers who may see it. */
export async function getConfig(ctx: AppContext, caller: Caller, id: string, asJson = false) {
  const view = configView(await mustGetConfig(ctx, caller.teamId, id), can(caller.role, 'configs:manage'));
  if (asJson && view.config) view.config = JSON.stringify(yaml.load(view.config, { schema: yaml.CORE_SCHEMA }) ?? null);
  return view;
}

export async function updateConfig(
  ctx: AppContext,
  caller: Caller,
  id: string,
  body: { name?: string; config?: string; global?: boolean },
): Promise<void> {
  const row = await mustGetConfig(ctx, caller.teamId, id);
  if (row.read_only) throw forbidden(`config ${id} is read-only`);
  const name = checkName(body.name);
  let provider: string | undefined;
  if (body.config !== undefined)
    provider = providerName(row.config_type as ConfigType, validateConfig(row.config_type as ConfigType, body.config));
  if (
    !(await store.updateConfig(ctx.db, caller.teamId, id, {
      name,
      config: body.config,
      provider_name: provider,
      is_global: body.global,
    }))
  ) {
    throw notFound(`config ${id} not found`, 'config_id');
  }
}

export async function deleteConfig(ctx: AppContext, caller: Caller, id: string): Promise<void> {
  const row = await mustGetConfig(ctx, caller.teamId, id);
  if (row.read_only) throw forbidden(`config ${id} is read-only`);
  if (!(await store.deleteConfig(ctx.db, caller.teamId, id))) throw notFound(`config ${id} not found`, 'config_id');
}
