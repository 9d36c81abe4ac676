// Asset groups (POST /v1/asset/enumerate/group, PATCH / DELETE .../group/{group_id}): a named set of the
// team's assets that scans can target by putting the group's id in `assets` (shown back as the scan's
// `asset_ids` and `assets_lists`). A group by filter holds what its filters match when a scan uses it; a
// static group (`static: true`) holds the assets its filters matched when it was made or last changed.
import type { AppContext } from '../shared/context.ts';
import type { Caller } from '../auth/service.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { pageEnvelope } from '../shared/paging.ts';
import { normalizeFilters, type AssetFilter, type AssetFiltersInput } from './filters.ts';
import { newId } from './service.ts';
import * as store from './store.ts';

/** A static group holds at most this many assets. */
export const MAX_STATIC_GROUP = 100_000;

/** Group ids start with "grp_", so they can never be taken for a (numeric) asset id in a scan's `assets`. */
export const isGroupId = (id: string) => id.startsWith('grp_');

export interface GroupBody {
  filters: AssetFiltersInput;
  name?: string;
  static?: boolean;
}

async function members(ctx: AppContext, teamId: string, filter: AssetFilter): Promise<string[]> {
  const ids = await store.matchingAssetIds(ctx.db, teamId, filter, MAX_STATIC_GROUP + 1);
  if (ids.length > MAX_STATIC_GROUP)
    throw badRequest(`a static group holds at most ${MAX_STATIC_GROUP} assets; narrow the filters`, 'filters');
  return ids;
}

function nameOf(name: string | undefined, fallback: string): string {
  if (name === undefined) return fallback;
  const n = name.trim();
  if (!n) throw badRequest('name must not be empty', 'name');
  if (n.length > 500) throw badRequest('name is longer than 500 characters', 'name');
  return n;
}

export async function createGroup(ctx: AppContext, caller: Caller, body: GroupBody): Promise<{ id: string }> {
  const filter = normalizeFilters(body.filters, 'filters.');
  const id = 'grp_' + newId();
  await store.insertGroup(ctx.db, {
    id,
    teamId: caller.teamId,
    name: nameOf(body.name, `group ${new Date().toISOString().slice(0, 10)}`),
    filters: body.filters,
    assetIds: body.static ? await members(ctx, caller.teamId, filter) : null,
    createdBy: caller.userId,
  });
  return { id };
}

/** Filters merged for update_type append: lists are joined, single values are replaced. */
function mergeFilters(old: AssetFiltersInput, add: AssetFiltersInput): AssetFiltersInput {
  const out: Record<string, unknown> = { ...old };
  for (const [k, v] of Object.entries(add)) {
    const prev = out[k];
    if (Array.isArray(v)) out[k] = [...new Set([...(Array.isArray(prev) ? prev : prev ? [prev] : []), ...v])];
    else if (
      typeof v === 'string' &&
      typeof prev === 'string' &&
      k !== 'time' &&
      !k.endsWith('_date') &&
      k !== 'search'
    )
      out[k] = [...new Set([...prev.split(','), ...v.split(',')].map((s) => s.trim()).filter(Boolean))].join(',');
    else out[k] = v;
  }
  return out as AssetFiltersInput;
}

export async function updateGroup(
  ctx: AppContext,
  teamId: string,
  id: string,
  body: GroupBody,
  updateType = 'append',
): Promise<void> {
  if (updateType !== 'append' && updateType !== 'replace')
    throw badRequest('update_type must be append or replace', 'update_type');
  const row = await store.getGroup(ctx.db, teamId, id);
  if (!row) throw notFound(`asset group ${id} not found`, 'group_id');
  const filters =
    updateType === 'replace' ? body.filters : mergeFilters(row.filters as AssetFiltersInput, body.filters);
  const filter = normalizeFilters(filters, 'filters.');
  let assetIds = row.asset_ids;
  const wantStatic = body.static ?? row.asset_ids !== null;
  if (wantStatic) {
    // append adds what the new filters match; replace recomputes the members from the filters.
    const matched = await members(
      ctx,
      teamId,
      updateType === 'replace' ? filter : normalizeFilters(body.filters, 'filters.'),
    );
    assetIds = updateType === 'replace' ? matched : [...new Set([...(row.asset_ids ?? []), ...matched])];
    if (assetIds.length > MAX_STATIC_GROUP)
      throw badRequest(`a static group holds at most ${MAX_STATIC_GROUP} assets; narrow the filters`, 'filters');
  } else assetIds = null;
  await store.updateGroup(ctx.db, teamId, id, { name: nameOf(body.name, row.name), filters, assetIds });
}

export async function deleteGroup(ctx: AppContext, teamId: string, id: string): Promise<void> {
  if (!(await store.deleteGroup(ctx.db, teamId, id))) throw notFound(`asset group ${id} not found`, 'group_id');
}

const groupView = (g: store.GroupRow) => ({
  id: g.id,
  name: g.name,
  filters: g.filters,
  static: g.asset_ids !== null,
  ...(g.asset_ids ? { total_assets: g.asset_ids.length } : {}),
  created_at: new Date(g.created_at).toISOString(),
  updated_at: new Date(g.updated_at).toISOString(),
});

export async function listGroups(ctx: AppContext, teamId: string, q: { offset?: number; limit?: number }) {
  const offset = q.offset ?? 0;
  const limit = q.limit ?? 100;
  const { rows, total } = await store.listGroups(ctx.db, teamId, offset, limit);
  return pageEnvelope(rows.map(groupView), total, offset, limit);
}

export async function getGroup(ctx: AppContext, teamId: string, id: string) {
  const row = await store.getGroup(ctx.db, teamId, id);
  if (!row) throw notFound(`asset group ${id} not found`, 'group_id');
  return { message: 'ok', data: groupView(row) };
}

/**
 * The assets of groups a scan names (each narrowed by the scan's own filter): the rows of dynamic groups'
 * filters and static groups' ids. Unknown ids are reported by their index in `ids`.
 */
export async function groupAssets(
  ctx: Pick<AppContext, 'db'>,
  teamId: string,
  ids: string[],
  filter: AssetFilter,
): Promise<{ rows: store.AssetRow[]; unknown?: string }> {
  const groups = await store.getGroups(ctx.db, teamId, ids);
  const missing = ids.find((id) => !groups.some((g) => g.id === id));
  if (missing) return { rows: [], unknown: missing };
  const rows: store.AssetRow[] = [];
  for (const g of groups) {
    if (g.asset_ids) {
      if (g.asset_ids.length) rows.push(...(await store.listAssets(ctx.db, { teamId, filter, ids: g.asset_ids })).rows);
    } else {
      const own = normalizeFilters(g.filters as AssetFiltersInput);
      rows.push(...(await store.listAssets(ctx.db, { teamId, filter: { ...own, ...filter } })).rows);
    }
  }
  return { rows };
}
