// Downloads to a file before anything is imported, so a download that fails half-way changes no data.
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Readable, Transform } from 'node:stream';
import { fetch } from 'undici';

const MAX_BYTES = 4 * 1024 ** 3; // the CVE list archive is about 0.5 GiB

export interface Downloaded {
  file: string;
  bytes: number;
  /** Removes the temporary folder. */
  cleanup(): void;
}

export async function download(
  url: string,
  opts: { token?: string; name?: string; timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<Downloaded> {
  const dir = mkdtempSync(path.join(tmpdir(), 'vigil-update-'));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  const file = path.join(dir, opts.name ?? (path.posix.basename(new URL(url).pathname) || 'download'));
  try {
    const signals = [AbortSignal.timeout(opts.timeoutMs ?? 3_600_000), ...(opts.signal ? [opts.signal] : [])];
    const res = await fetch(url, {
      headers: { 'user-agent': 'vigil-updater', ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      signal: AbortSignal.any(signals),
    });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new Error(`HTTP ${res.status}`);
    }
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        bytes += chunk.length;
        cb(bytes > MAX_BYTES ? new Error(`larger than ${MAX_BYTES} bytes`) : null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as never), count, createWriteStream(file));
    const expected = Number(res.headers.get('content-length'));
    if (Number.isFinite(expected) && expected > 0 && expected !== bytes)
      throw new Error(`truncated: ${bytes} of ${expected} bytes`);
    return { file, bytes, cleanup };
  } catch (err) {
    cleanup();
    throw new Error(`cannot download ${url}: ${(err as Error).message}`);
  }
}
