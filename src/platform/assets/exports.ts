// Inventory exports: every enumeration's assets (GET /v1/asset/enumerate/export), one enumeration's
// (GET /v1/asset/enumerate/{enum_id}/export), both filtered as the contents list is, and the input
// domains of an enumeration (GET .../{enumerate_id}/domains/export). Streamed in pages of assets by id
// (shared/export-file.ts), as raw lines, JSON (the EnumerationContent records of the contents list) or CSV.
import type { Readable } from 'node:stream';
import type { AppContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { exportFormatOf, exportStream, type ExportFormat } from '../shared/export-file.ts';
import { normalizeFilters, type AssetFiltersInput } from './filters.ts';
import * as store from './store.ts';
import { assetView } from './views.ts';

const PAGE = 1000;

type AssetRecord = ReturnType<typeof assetView>;

const CSV_COLUMNS: [string, (a: AssetRecord) => unknown][] = [
  ['id', (a) => a.id],
  ['name', (a) => a.name],
  ['type', (a) => a.type],
  ['host', (a) => a.host],
  ['port', (a) => a.port],
  ['ip', (a) => a.ip],
  ['cname', (a) => a.cname],
  ['status_code', (a) => a.status_code],
  ['content_length', (a) => a.content_length],
  ['title', (a) => a.title],
  ['webserver', (a) => a.webserver],
  ['technologies', (a) => a.technologies],
  ['labels', (a) => a.labels],
  ['is_new', (a) => a.is_new],
  ['tls_subject_cn', (a) => a.tls_subject_cn],
  ['tls_not_after', (a) => a.tls_not_after],
  ['enumeration_id', (a) => a.enumeration_id],
  ['enumeration_name', (a) => a.enumeration_name],
  ['created_at', (a) => a.created_at],
  ['last_seen_at', (a) => a.last_seen_at],
];

export interface ExportQuery extends AssetFiltersInput {
  format?: string;
  domains?: string;
  async?: boolean;
}

export async function inventoryExport(
  ctx: AppContext,
  teamId: string,
  enumerationId: string | undefined,
  q: ExportQuery,
): Promise<{ stream: Readable; format: ExportFormat; name: string }> {
  const { format: f, domains, async: _async, ...filters } = q;
  void _async;
  const format = exportFormatOf(f);
  if (domains && !filters.domain) filters.domain = domains;
  const filter = normalizeFilters(filters);
  if (enumerationId) {
    if (!(await store.getEnumeration(ctx.db, teamId, enumerationId)))
      throw notFound(`enumeration ${enumerationId} not found`, 'enum_id');
    filter.enumeration_ids = [enumerationId];
  }
  async function* batches(): AsyncGenerator<AssetRecord[]> {
    let after: string | undefined;
    for (;;) {
      const { rows } = await store.listAssets(ctx.db, { teamId, filter, afterId: after, limit: PAGE, noTotal: true });
      if (!rows.length) return;
      yield rows.map(assetView);
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1]!.id;
    }
  }
  const stream = exportStream<AssetRecord>({
    format,
    batches: batches(),
    json: (a) => a,
    raw: (a) => a.name,
    csv: { columns: CSV_COLUMNS.map((c) => c[0]), row: (a) => CSV_COLUMNS.map((c) => c[1](a)) },
  });
  const base = enumerationId ? `enumeration-${enumerationId}` : 'assets';
  return { stream, format, name: `${base}.${format === 'raw' ? 'txt' : format}` };
}

/** The unique input domains (roots) of an enumeration, optionally those containing `search`. */
export async function domainsExport(
  ctx: AppContext,
  teamId: string,
  enumerationId: string,
  q: { search?: string; format?: string },
): Promise<{ stream: Readable; format: ExportFormat; name: string }> {
  const format = exportFormatOf(q.format);
  const row = await store.getEnumeration(ctx.db, teamId, enumerationId);
  if (!row) throw notFound(`enumeration ${enumerationId} not found`, 'enumerate_id');
  const search = q.search?.trim().toLowerCase();
  const domains = [...new Set(row.root_domains.map((d) => d.toLowerCase()))].filter(
    (d) => !search || d.includes(search),
  );
  async function* batches() {
    yield domains.map((domain) => ({ domain }));
  }
  const stream = exportStream<{ domain: string }>({
    format,
    batches: batches(),
    json: (d) => d,
    raw: (d) => d.domain,
    csv: { columns: ['domain'], row: (d) => [d.domain] },
  });
  return { stream, format, name: `enumeration-${enumerationId}-domains.${format === 'raw' ? 'txt' : format}` };
}
