// Labels set by hand: on the assets a filter matches (PATCH /v1/asset/labels) or on one asset
// (POST / PATCH / DELETE /v1/asset/{asset_id}/labels). Policies of type set_label / remove_label set them
// too (policies.ts); the `labels` filter finds them wherever assets are listed, filtered or targeted.
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { normalizeFilters, type AssetFiltersInput } from './filters.ts';
import * as store from './store.ts';

export type LabelMode = store.LabelMode;
export const LABEL_MODES: LabelMode[] = ['append', 'replace', 'delete'];

/**
 * Labels as stored: trimmed, distinct, each 1-200 characters without a comma (the labels filter is a
 * comma separated list, so a label with a comma could never be found again).
 */
export function checkLabels(labels: string[], param = 'labels', allowEmpty = false): string[] {
  const out = [...new Set(labels.map((l) => l.trim()))];
  out.forEach((l, i) => {
    if (!l) throw badRequest(`${param}[${i}] is empty`, `${param}[${i}]`);
    if (l.length > 200) throw badRequest(`${param}[${i}] is longer than 200 characters`, `${param}[${i}]`);
    if (l.includes(',')) throw badRequest(`${param}[${i}] "${l}" contains a comma`, `${param}[${i}]`);
    if (/[\u0000-\u001f\u007f]/.test(l))
      throw badRequest(`${param}[${i}] contains control characters`, `${param}[${i}]`);
  });
  if (!out.length && !allowEmpty) throw badRequest(`${param} must name at least one label`, param);
  return out;
}

function modeOf(updateType: string | undefined): LabelMode {
  const mode = (updateType ?? 'append') as LabelMode;
  if (!LABEL_MODES.includes(mode))
    throw badRequest(`update_type must be one of ${LABEL_MODES.join(', ')}`, 'update_type');
  return mode;
}

/** PATCH /v1/asset/labels: the labels of every current asset the filters match. */
export async function labelByFilter(
  ctx: AppContext,
  teamId: string,
  body: { filters: AssetFiltersInput; labels: string[] },
  updateType?: string,
): Promise<{ message: string; asset_count: number; async: boolean }> {
  const mode = modeOf(updateType);
  const filter = normalizeFilters(body.filters, 'filters.');
  const labels = checkLabels(body.labels, 'labels', mode === 'replace');
  const count = await store.updateLabels(ctx.db, { teamId, filter }, labels, mode);
  return { message: `labels of ${count} asset${count === 1 ? '' : 's'} updated`, asset_count: count, async: false };
}

function assetId(id: string): string {
  if (!/^\d{1,18}$/.test(id)) throw badRequest(`asset_id "${id}" is not an asset id (a whole number)`, 'asset_id');
  return id;
}

/** POST (append), PATCH (update_type) and DELETE (replace with none: every label) on one asset of the team. */
export async function labelAsset(
  ctx: AppContext,
  teamId: string,
  id: string,
  labels: string[],
  mode: LabelMode,
): Promise<void> {
  const checked = checkLabels(labels, 'labels', mode === 'replace');
  // Assets that have disappeared keep their labels and may still be labelled: no filter but the id.
  const n = await store.updateLabels(ctx.db, { teamId, filter: {}, ids: [assetId(id)], anyState: true }, checked, mode);
  if (!n) throw notFound(`asset ${id} not found`, 'asset_id');
}

export const labelModeOf = modeOf;
