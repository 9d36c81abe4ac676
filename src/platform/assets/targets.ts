// Scan targets from the inventory, for scans over `assets`, `enumeration_ids`, `scan_all_assets` and
// `asset_filters`: the URL of each web asset (http_probe found a web server on it). DNS-only records and
// ports without a web server are not targets. Disappeared assets are not scanned.
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import { normalizeFilters, type AssetFiltersInput } from './filters.ts';
import * as store from './store.ts';
import { enumerationType } from './views.ts';
import { groupAssets, isGroupId } from './groups.ts';
import { provideAssetInventory, type AssetSelection, type EnumerationRef } from '../scans/sources.ts';

export async function assetTargets(db: Db, teamId: string, sel: AssetSelection): Promise<string[]> {
  const filter = normalizeFilters(sel.assetFilters as AssetFiltersInput | undefined, 'asset_filters.');
  if (filter.time) delete filter.time;
  const hasFilter = Object.keys(filter).length > 0;
  if (!sel.assets.length && !sel.enumerationIds.length && !sel.scanAllAssets && !hasFilter) return [];

  // `assets` names assets (by id) and asset groups (by their grp_ id).
  const groupIds = sel.assets.filter(isGroupId);
  const assetIds = sel.assets.filter((a) => !isGroupId(a));
  const bad = sel.assets.findIndex((a) => !isGroupId(a) && !/^\d{1,18}$/.test(a));
  if (bad >= 0) throw badRequest(`unknown asset id "${sel.assets[bad]}"`, `assets[${bad}]`);
  if (assetIds.length) {
    const { rows } = await store.listAssets(db, { teamId, filter: {}, ids: assetIds });
    const have = new Set(rows.map((r) => r.id));
    const missing = sel.assets.findIndex((a) => !isGroupId(a) && !have.has(String(BigInt(a))));
    if (missing >= 0) throw badRequest(`unknown asset id "${sel.assets[missing]}"`, `assets[${missing}]`);
  }
  const fromGroups = groupIds.length ? await groupAssets({ db }, teamId, groupIds, filter) : { rows: [] };
  if (fromGroups.unknown) {
    const i = sel.assets.indexOf(fromGroups.unknown);
    throw badRequest(`unknown asset group "${fromGroups.unknown}"`, `assets[${i}]`);
  }
  if (sel.enumerationIds.length) {
    const known = await store.existingEnumerationIds(db, teamId, sel.enumerationIds);
    const missing = sel.enumerationIds.findIndex((id) => !known.has(id));
    if (missing >= 0)
      throw badRequest(`unknown enumeration id "${sel.enumerationIds[missing]}"`, `enumeration_ids[${missing}].id`);
  }

  // The named assets, plus the assets of the named enumerations; all of them (scan_all_assets) or the
  // filter's matches when neither names any. The filter narrows whichever set that is.
  const rows: store.AssetRow[] = [...fromGroups.rows];
  if (sel.scanAllAssets || (!sel.assets.length && !sel.enumerationIds.length)) {
    rows.push(...(await store.listAssets(db, { teamId, filter })).rows);
  } else {
    if (assetIds.length) rows.push(...(await store.listAssets(db, { teamId, filter, ids: assetIds })).rows);
    if (sel.enumerationIds.length) {
      const ids = filter.enumeration_ids
        ? filter.enumeration_ids.filter((e) => sel.enumerationIds.includes(e))
        : sel.enumerationIds;
      rows.push(...(await store.listAssets(db, { teamId, filter: { ...filter, enumeration_ids: ids } })).rows);
    }
  }
  const out = new Set<string>();
  for (const a of rows) if (a.url) out.add(a.url.replace(/\/$/, ''));
  return [...out];
}

/** The spec's EnumerationRef of each id the team still has (a scan's configuration shows them). */
export async function enumerationRefs(db: Db, teamId: string, ids: string[]): Promise<EnumerationRef[]> {
  const out = [];
  for (const id of ids) {
    const e = await store.getEnumeration(db, teamId, id);
    if (e)
      out.push({
        id,
        name: e.name,
        ...enumerationType(e),
        types: ['hosts', 'ports', 'http'],
        total_assets: e.total_assets,
      });
  }
  return out;
}

// The scans area reads the inventory through this (it sits below assets and cannot import them).
provideAssetInventory({ targets: assetTargets, enumerationRefs });
