// Reads import inputs as documents: files, folders (recursively), .gz and .zip archives, and http(s) URLs.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { unzipSync } from 'fflate';
import { fetch } from 'undici';
import type { Doc } from './types.ts';

const DATA_FILE = /\.(json|jsonl|csv|ya?ml)$/i;

export class SourceError extends Error {}

export async function* readSources(inputs: string[]): AsyncGenerator<Doc> {
  for (const input of inputs) {
    if (/^https?:\/\//i.test(input)) yield* fromBuffer(input, await download(input));
    else yield* fromPath(input);
  }
}

function* fromPath(p: string): Generator<Doc> {
  let st;
  try {
    st = statSync(p);
  } catch {
    throw new SourceError(`${p}: no such file or folder`);
  }
  if (st.isDirectory()) {
    const entries = readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.')) continue;
      const full = path.join(p, e.name);
      if (e.isDirectory()) yield* fromPath(full);
      else if (DATA_FILE.test(e.name) || /\.(gz|zip)$/i.test(e.name)) yield* fromBuffer(full, readFileSync(full));
    }
    return;
  }
  yield* fromBuffer(p, readFileSync(p));
}

function* fromBuffer(name: string, buf: Buffer | Uint8Array): Generator<Doc> {
  if (name.toLowerCase().endsWith('.gz') || (buf[0] === 0x1f && buf[1] === 0x8b)) {
    yield* fromBuffer(name.replace(/\.gz$/i, ''), gunzipSync(buf));
    return;
  }
  if (name.toLowerCase().endsWith('.zip') || (buf[0] === 0x50 && buf[1] === 0x4b && buf[2] === 0x03 && buf[3] === 0x04)) {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(buf instanceof Uint8Array ? buf : new Uint8Array(buf), { filter: (f) => DATA_FILE.test(f.name) || /\.gz$/i.test(f.name) });
    } catch (err) {
      throw new SourceError(`${name}: not a readable zip archive (${(err as Error).message})`);
    }
    for (const member of Object.keys(files).sort()) yield* fromBuffer(`${name}!${member}`, files[member]!);
    return;
  }
  yield { name, text: Buffer.from(buf).toString('utf8') };
}

async function download(url: string): Promise<Buffer> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(600_000) });
    if (!res.ok) {
      await res.body?.cancel();
      throw new SourceError(`${url}: HTTP ${res.status}`);
    }
    return Buffer.from(await res.arrayBuffer());
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`${url}: cannot download (${(err as Error).message})`);
  }
}
