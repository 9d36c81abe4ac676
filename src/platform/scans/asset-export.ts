// GET /v1/scans/{scan_id}/asset/export: the unique assets (targets) a scan ran over, with how many results
// each had, as raw lines, JSON or CSV (streamed through shared/export-file.ts).
import type { Readable } from 'node:stream';
import type { AppContext } from '../shared/context.ts';
import { notFound } from '../shared/errors.ts';
import { exportFormatOf, exportStream, type ExportFormat } from '../shared/export-file.ts';
import { getScan, resultCountsByHost } from './store.ts';

interface ScanAsset {
  asset: string;
  host: string;
  port?: number;
  total_results: number;
}

function hostPort(target: string): { host: string; port?: number } {
  try {
    const u = new URL(target.includes('://') ? target : `tcp://${target}`);
    const port = u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : u.protocol === 'http:' ? 80 : undefined;
    return { host: u.hostname.replace(/^\[|\]$/g, ''), ...(port ? { port } : {}) };
  } catch {
    return { host: target };
  }
}

export async function scanAssetExport(
  ctx: AppContext,
  teamId: string,
  scanId: string,
  q: { search?: string; format?: string },
): Promise<{ stream: Readable; format: ExportFormat; name: string }> {
  const format = exportFormatOf(q.format);
  const scan = await getScan(ctx.db, teamId, scanId);
  if (!scan) throw notFound(`scan ${scanId} not found`, 'scan_id');
  const counts = await resultCountsByHost(ctx.db, scanId);
  const search = q.search?.trim().toLowerCase();
  const seen = new Set<string>();
  async function* batches(): AsyncGenerator<ScanAsset[]> {
    let batch: ScanAsset[] = [];
    for (const t of scan!.targets) {
      if (seen.has(t) || (search && !t.toLowerCase().includes(search))) continue;
      seen.add(t);
      const hp = hostPort(t);
      let n = 0;
      for (const [h, c] of counts) if (h === t || h.startsWith(t) || hostPort(h).host === hp.host) n += c;
      batch.push({ asset: t, ...hp, total_results: n });
      if (batch.length === 1000) {
        yield batch;
        batch = [];
      }
    }
    if (batch.length) yield batch;
  }
  const stream = exportStream<ScanAsset>({
    format,
    batches: batches(),
    json: (r) => r,
    raw: (r) => r.asset,
    csv: {
      columns: ['asset', 'host', 'port', 'total_results'],
      row: (r) => [r.asset, r.host, r.port, r.total_results],
    },
  });
  return { stream, format, name: `scan-${scanId}-assets.${format === 'raw' ? 'txt' : format}` };
}
