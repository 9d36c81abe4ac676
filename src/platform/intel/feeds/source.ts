// Reads import inputs as documents: files, folders (recursively), .gz and .zip archives, and http(s) URLs.
// Zip archives (a file or a download) are streamed entry by entry, so an archive such as the whole CVE list
// (cvelistV5, hundreds of thousands of small files) is read in flat memory: only the entry being read and
// the documents not yet taken by the importer are held.
import { createReadStream, openSync, readdirSync, readFileSync, readSync, closeSync, statSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { Unzip, UnzipInflate, unzipSync } from 'fflate';
import { fetch } from 'undici';
import type { Doc } from './types.ts';

const DATA_FILE = /\.(json|jsonl|csv|ya?ml)$/i;
const WANTED_MEMBER = /\.(json|jsonl|csv|ya?ml|gz)$/i;
// Files that sit beside feeds but are not feeds (a folder's manifest, JSON schemas such as KEV's
// known_exploited_vulnerabilities_schema.json): skipped quietly inside folders and archives, instead of
// being reported as "not a known feed format". Named by itself, such a file is still read.
const NOT_A_FEED = /(^|\/)(manifest\.json|[^/]*[._-]schema\.json)$/i;

export class SourceError extends Error {}

export async function* readSources(inputs: string[]): AsyncGenerator<Doc> {
  for (const input of inputs) {
    if (/^https?:\/\//i.test(input)) yield* fromUrl(input);
    else yield* fromPath(input);
  }
}

async function* fromPath(p: string): AsyncGenerator<Doc> {
  let st;
  try {
    st = statSync(p);
  } catch {
    throw new SourceError(`${p}: no such file or folder`);
  }
  if (st.isDirectory()) {
    const entries = readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      if (e.name.startsWith('.') || NOT_A_FEED.test(e.name)) continue;
      const full = path.join(p, e.name);
      if (e.isDirectory() || DATA_FILE.test(e.name) || /\.(gz|zip)$/i.test(e.name)) yield* fromPath(full);
    }
    return;
  }
  if (isZipName(p) || isZipHead(headOf(p))) yield* zipEntries(p, createReadStream(p, { highWaterMark: 256 * 1024 }));
  else yield* fromBuffer(p, readFileSync(p));
}

async function* fromUrl(url: string): AsyncGenerator<Doc> {
  let body: AsyncIterable<Uint8Array>;
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(3_600_000) });
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new SourceError(`${url}: HTTP ${res.status}`);
    }
    body = res.body;
  } catch (err) {
    if (err instanceof SourceError) throw err;
    throw new SourceError(`${url}: cannot download (${(err as Error).message})`);
  }
  // Whether it is a zip shows in its first bytes; anything else is read whole (a document is parsed whole).
  const it = body[Symbol.asyncIterator]();
  const first = await downloadStep(url, it);
  if (first && (isZipName(new URL(url).pathname) || isZipHead(first))) {
    yield* zipEntries(
      url,
      (async function* () {
        yield first;
        for (let c = await downloadStep(url, it); c; c = await downloadStep(url, it)) yield c;
      })(),
    );
    return;
  }
  const parts: Uint8Array[] = first ? [first] : [];
  for (let c = await downloadStep(url, it); c; c = await downloadStep(url, it)) parts.push(c);
  yield* fromBuffer(url, Buffer.concat(parts));
}

async function downloadStep(url: string, it: AsyncIterator<Uint8Array>): Promise<Uint8Array | undefined> {
  try {
    const r = await it.next();
    return r.done ? undefined : r.value;
  } catch (err) {
    throw new SourceError(`${url}: download failed (${(err as Error).message})`);
  }
}

/**
 * The data files inside a zip, read as its bytes arrive. fflate calls back synchronously inside push(), so
 * the documents a chunk completes are handed out before the next chunk is read (the consumer's pace).
 */
async function* zipEntries(name: string, chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Doc> {
  const ready: Doc[] = [];
  let entries = 0;
  let failure: Error | undefined;
  const unzip = new Unzip((file) => {
    entries++;
    if (!WANTED_MEMBER.test(file.name) || NOT_A_FEED.test(file.name)) return; // not started: its bytes are skipped
    const member = `${name}!${file.name}`;
    if (file.compression !== 0 && file.compression !== 8) {
      ready.push({
        name: member,
        text: '',
        error: `compression method ${file.compression} is not supported (use deflate or none)`,
      });
      return;
    }
    const parts: Uint8Array[] = [];
    file.ondata = (err, data, final) => {
      if (err) return void (failure = err);
      parts.push(data);
      if (final) for (const d of fromBuffer(member, Buffer.concat(parts))) ready.push(d);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  let bytes = 0;
  const push = (chunk: Uint8Array, final: boolean) => {
    try {
      unzip.push(chunk, final);
    } catch (err) {
      failure = err as Error;
    }
    if (failure) throw new SourceError(`${name}: not a readable zip archive (${failure.message})`);
  };
  for await (const chunk of chunks) {
    bytes += chunk.length;
    push(chunk, false);
    while (ready.length) yield ready.shift()!;
  }
  push(new Uint8Array(0), true);
  while (ready.length) yield ready.shift()!;
  if (bytes > 0 && entries === 0) throw new SourceError(`${name}: not a readable zip archive (no entries found)`);
}

/** An in-memory document: plain, gzip (unpacked), or a zip nested in an archive (small; read whole). */
function* fromBuffer(name: string, buf: Buffer | Uint8Array): Generator<Doc> {
  if (name.toLowerCase().endsWith('.gz') || (buf[0] === 0x1f && buf[1] === 0x8b)) {
    let data: Buffer;
    try {
      data = gunzipSync(buf);
    } catch (err) {
      yield { name, text: '', error: `not a readable gzip file (${(err as Error).message})` };
      return;
    }
    yield* fromBuffer(name.replace(/\.gz$/i, ''), data);
    return;
  }
  if (isZipName(name) || isZipHead(buf)) {
    let files: Record<string, Uint8Array>;
    try {
      files = unzipSync(buf instanceof Uint8Array ? buf : new Uint8Array(buf), {
        filter: (f) => WANTED_MEMBER.test(f.name) && !NOT_A_FEED.test(f.name),
      });
    } catch (err) {
      yield { name, text: '', error: `not a readable zip archive (${(err as Error).message})` };
      return;
    }
    for (const member of Object.keys(files).sort()) yield* fromBuffer(`${name}!${member}`, files[member]!);
    return;
  }
  yield { name, text: Buffer.from(buf).toString('utf8') };
}

const isZipName = (name: string) => name.toLowerCase().endsWith('.zip');
const isZipHead = (b: Uint8Array) => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;

function headOf(file: string): Uint8Array {
  const fd = openSync(file, 'r');
  try {
    const b = new Uint8Array(4);
    readSync(fd, b, 0, 4, 0);
    return b;
  } finally {
    closeSync(fd);
  }
}
