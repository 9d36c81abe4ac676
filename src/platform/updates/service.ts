// Keeping data current: `vigil templates update` (the latest public template release, imported
// incrementally) and `vigil intel update` (the official feeds). Every run is recorded (update_runs).
// Everything is downloaded to a temporary file first and imported only when complete, so a failed
// download leaves the catalogue and the vulnerability records exactly as they were.
import { closeSync, createReadStream, mkdirSync, mkdtempSync, openSync, readdirSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Unzip, UnzipInflate } from 'fflate';
import { fetch } from 'undici';
import type { Db } from '../../db/connection.ts';
import type { TaskIO } from '../shared/task-io.ts';
import { importCatalogueAndRelink } from '../intel/catalogue-import.ts';
import { importIntel } from '../intel/importer.ts';
import { download } from './download.ts';
import { feedSources, templatesReleaseUrl } from './sources.ts';
import * as store from './store.ts';

const MAX_EXTRACTED = 2 * 1024 ** 3;
const quiet: TaskIO = { out: () => {}, err: () => {}, tty: false };

export interface TemplatesUpdateResult {
  status: 'done' | 'unchanged';
  version: string;
  added?: number;
  updated?: number;
  removed?: number;
  templates?: number;
}

/** The latest release's tag and archive address, from an answer shaped like GitHub's releases API. */
async function latestRelease(url: string): Promise<{ tag: string; zip: string }> {
  let res;
  try {
    res = await fetch(url, {
      headers: { accept: 'application/vnd.github+json', 'user-agent': 'vigil-updater' },
      signal: AbortSignal.timeout(60_000),
    });
  } catch (err) {
    throw new Error(`cannot reach ${url}: ${(err as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`${url}: HTTP ${res.status}`);
  }
  const json = (await res.json().catch(() => undefined)) as { tag_name?: unknown; zipball_url?: unknown } | undefined;
  if (!json || typeof json.tag_name !== 'string' || typeof json.zipball_url !== 'string') {
    throw new Error(`${url}: not a release description (tag_name and zipball_url expected)`);
  }
  return { tag: json.tag_name, zip: new URL(json.zipball_url, url).href };
}

/**
 * Unpacks a zip into `dir`, member by member (flat memory). Members that would land outside `dir`
 * (absolute paths, `..`) are refused: an archive never writes anywhere else.
 */
export async function extractZip(file: string, dir: string): Promise<void> {
  let failure: Error | undefined;
  let total = 0;
  const unzip = new Unzip((member) => {
    if (member.name.endsWith('/')) return;
    const rel = path.posix.normalize(member.name.replace(/\\/g, '/'));
    if (rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel) || /^[A-Za-z]:/.test(rel)) {
      failure ??= new Error(`archive member "${member.name}" points outside the archive`);
      return;
    }
    if (member.compression !== 0 && member.compression !== 8) return;
    const target = path.join(dir, ...rel.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    const fd = openSync(target, 'w');
    member.ondata = (err, data, final) => {
      if (err) failure ??= err;
      else {
        total += data.length;
        if (total > MAX_EXTRACTED) failure ??= new Error(`archive unpacks to more than ${MAX_EXTRACTED} bytes`);
        else writeSync(fd, data);
      }
      if (final || err) closeSync(fd);
    };
    member.start();
  });
  unzip.register(UnzipInflate);
  for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
    unzip.push(chunk as Uint8Array);
    if (failure) throw failure;
  }
  unzip.push(new Uint8Array(0), true);
  if (failure) throw failure;
}

/** GitHub's archives hold one top folder (owner-repo-sha/): the templates root is inside it. */
function archiveRoot(dir: string): string {
  const entries = readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith('.'));
  return entries.length === 1 && entries[0]!.isDirectory() ? path.join(dir, entries[0]!.name) : dir;
}

export async function updateTemplates(
  db: Db,
  env: NodeJS.ProcessEnv,
  opts: { force?: boolean; io?: TaskIO } = {},
): Promise<TemplatesUpdateResult> {
  const io = opts.io ?? quiet;
  const url = templatesReleaseUrl(env);
  const run = await store.startRun(db, 'templates', url);
  try {
    const release = await latestRelease(url);
    if (!opts.force && (await store.lastTemplateRelease(db)) === release.tag) {
      await store.finishRun(db, run, 'unchanged', { version: release.tag });
      io.out(`templates: ${release.tag} is already imported\n`);
      return { status: 'unchanged', version: release.tag };
    }
    io.err(`templates: downloading ${release.tag}\n`);
    const zip = await download(release.zip, { name: 'templates.zip' });
    const work = mkdtempSync(path.join(tmpdir(), 'vigil-templates-'));
    try {
      await extractZip(zip.file, work);
      zip.cleanup();
      const s = await importCatalogueAndRelink(db, archiveRoot(work), {
        releaseTag: release.tag,
        progressEvery: 500,
        onProgress: (p) =>
          io.err(io.tty ? `\r\x1b[K${p.phase} ${p.done}/${p.total}${p.done === p.total ? '\n' : ''}` : ''),
      });
      const detail = {
        templates: s.templates,
        added: s.added,
        updated: s.updated,
        unchanged: s.unchanged,
        removed: s.removed,
        rejected: s.failed.length,
      };
      await store.finishRun(db, run, 'done', { version: release.tag, detail });
      io.out(
        `templates: ${release.tag} imported: ${s.templates} templates, ${s.added} added, ${s.updated} updated, ${s.removed} removed, ${s.failed.length} rejected\n`,
      );
      return { status: 'done', version: release.tag, ...detail };
    } finally {
      zip.cleanup();
      rmSync(work, { recursive: true, force: true });
    }
  } catch (err) {
    await store.finishRun(db, run, 'failed', { error: (err as Error).message });
    throw err;
  }
}

export interface IntelUpdateResult {
  feeds: { feed: string; status: 'done' | 'failed'; changed?: number; error?: string }[];
  skipped: { feed: string; reason: string }[];
}

/** Fetches each feed and imports it; one feed failing does not stop the others (the run says which). */
export async function updateIntel(
  db: Db,
  env: NodeJS.ProcessEnv,
  opts: { feeds?: string[]; io?: TaskIO } = {},
): Promise<IntelUpdateResult> {
  const io = opts.io ?? quiet;
  const { sources, skipped } = feedSources(env, opts.feeds);
  const out: IntelUpdateResult = { feeds: [], skipped };
  for (const s of skipped) io.err(`${s.feed}: skipped (${s.reason})\n`);
  for (const src of sources) {
    const run = await store.startRun(db, `intel:${src.feed}`, src.url);
    try {
      io.err(`${src.feed}: downloading ${src.url}\n`);
      const file = await download(src.url, { token: src.token });
      try {
        const report = await importIntel(db, [file.file], { format: src.feed });
        const f = report.feeds[0];
        // A complete download that holds nothing readable (an error page, another format) is a failure,
        // and it removed nothing: snapshot feeds only drop records when the new snapshot has some.
        if (!f || f.read === 0) {
          throw new Error(
            `the download holds no ${src.feed} records (${report.unreadable[0]?.reason ?? (report.unrecognised.length ? 'not a known feed format' : 'empty')})`,
          );
        }
        const detail = {
          bytes: file.bytes,
          read: f?.read ?? 0,
          changed: f?.changed ?? 0,
          removed: f?.removed ?? 0,
          records_changed: report.records_changed,
        };
        await store.finishRun(db, run, 'done', { detail });
        out.feeds.push({ feed: src.feed, status: 'done', changed: detail.changed });
        io.out(`${src.feed}: ${detail.read} read, ${detail.changed} changed, ${detail.removed} removed\n`);
      } finally {
        file.cleanup();
      }
    } catch (err) {
      const message = (err as Error).message;
      await store.finishRun(db, run, 'failed', { error: message });
      out.feeds.push({ feed: src.feed, status: 'failed', error: message });
      io.err(`${src.feed}: failed, the stored data is unchanged (${message})\n`);
    }
  }
  return out;
}
