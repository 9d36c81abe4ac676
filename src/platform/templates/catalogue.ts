// The public catalogue: importing a nuclei template repository checkout into the templates table.
// Incremental: files whose digest is unchanged are not parsed again; templates gone from the folder are
// removed; is_new marks what this import added. `vigil templates import` and `vigil serve` call it.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../../db/connection.ts';
import { advisoryXactLock } from '../../db/generic.ts';
import { readProfile, type Profile } from './profiles.ts';
import { digestOf, readTemplate } from './record.ts';
import * as store from './store.ts';
import { fillRecordJson } from './record-json.ts';

export interface ImportProgress {
  phase: 'read' | 'write';
  done: number;
  total: number;
}

export interface ImportOptions {
  /** Templates of this import are early-access ones (is_early); they replace the previous early import. */
  early?: boolean;
  /** Called every `progressEvery` files and at the end of each phase. */
  onProgress?: (p: ImportProgress) => void;
  progressEvery?: number;
  /** Release tag and commit of a downloaded release (a checkout's own git data is used otherwise). */
  releaseTag?: string;
  ref?: string;
}

export interface ImportSummary {
  dir: string;
  files: number;
  templates: number;
  added: number;
  updated: number;
  unchanged: number;
  removed: number;
  /** YAML files that are not templates (profiles, configs). */
  skipped: number;
  /** Scan profiles kept (profiles/*.yml; not counted in skipped); null for an early import, which keeps none. */
  profiles: number | null;
  /** Template files the validator rejects: not stored (a previous version is removed). */
  failed: { file: string; message: string }[];
  release_tag: string | null;
  ref: string | null;
  ms: number;
}

const IMPORT_LOCK = 7_305_121; // one catalogue import at a time across processes

export async function importCatalogue(db: Db, dir: string, opts: ImportOptions = {}): Promise<ImportSummary> {
  const started = Date.now();
  const root = path.resolve(dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`template folder not found: ${root}`);
  const early = opts.early ?? false;
  const every = opts.progressEvery ?? 500;
  const found = gitInfo(root);
  const git = { tag: opts.releaseTag ?? found.tag, commit: opts.ref ?? found.commit };
  const files = listTemplateFiles(root);
  const existing = await store.publicDigests(db);

  const summary: ImportSummary = {
    dir: root,
    files: files.length,
    templates: 0,
    added: 0,
    updated: 0,
    unchanged: 0,
    removed: 0,
    skipped: 0,
    profiles: early ? null : 0,
    failed: [],
    release_tag: git.tag,
    ref: git.commit,
    ms: 0,
  };
  const seen = new Set<string>();
  const writes: store.NewRow[] = [];
  const added: string[] = [];
  const profiles: Profile[] = [];

  files.forEach((rel, i) => {
    const file = path.join(root, rel);
    const uri = rel.split(path.sep).join('/');
    const text = readFileSync(file, 'utf8');
    // A scan profile of the checkout (profiles/NAME.yml): kept beside the catalogue, not a template.
    const profile = early ? null : readProfile(uri, text);
    if (profile) {
      profiles.push(profile);
      return report(i + 1);
    }
    const before = existing.get(uri);
    // An early import never takes over a template that is already generally available.
    if (early && before && !before.is_early) {
      summary.skipped++;
      return report(i + 1);
    }
    if (before && before.digest === digestOf(text) && before.is_early === early) {
      seen.add(uri);
      summary.templates++;
      summary.unchanged++;
      return report(i + 1);
    }
    const res = readTemplate(text, file, { templatesRoot: root, missingPayloadFile: 'warn' });
    if (!res.ok) {
      if (res.notTemplate) summary.skipped++;
      else summary.failed.push({ file: uri, message: res.message });
      return report(i + 1);
    }
    seen.add(uri);
    summary.templates++;
    if (before) summary.updated++;
    else {
      summary.added++;
      added.push(uri);
    }
    const slash = uri.indexOf('/');
    writes.push({
      ...res.fields,
      team_id: null,
      template_type: 'public',
      template_id: res.fields.id,
      uri,
      dir: slash > 0 ? uri.slice(0, slash) : null,
      filename: path.posix.basename(uri),
      release_tag: git.tag,
      ref: git.commit,
      is_new: !before,
      is_early: early,
      is_svcteam: true,
    });
    report(i + 1);
  });

  function report(done: number): void {
    if (opts.onProgress && (done % every === 0 || done === files.length))
      opts.onProgress({ phase: 'read', done, total: files.length });
  }

  const gone = [...existing].filter(([uri, e]) => e.is_early === early && !seen.has(uri)).map(([uri]) => uri);
  const cleared = await db.transaction(async (tx) => {
    await advisoryXactLock(tx, IMPORT_LOCK);
    const batch = 200;
    for (let i = 0; i < writes.length; i += batch) {
      await store.upsertPublic(tx, writes.slice(i, i + batch), batch);
      const done = Math.min(i + batch, writes.length);
      if (done % every < batch || done === writes.length)
        opts.onProgress?.({ phase: 'write', done, total: writes.length });
    }
    await store.deletePublic(tx, gone);
    if (!early) await store.saveProfiles(tx, profiles);
    return store.clearNewExcept(tx, added);
  });
  // The Template records of the rows written (and of any other row without one) as the search sends them.
  await fillRecordJson(db);
  // Fresh planner statistics after a bulk change keep search plans right (row estimates, index choice).
  // VACUUM, not only ANALYZE: the GIN indexes' entry statistics, which the planner needs to prefer the
  // word index over a full scan, are only refreshed by VACUUM. The facet counts changed as much.
  if (writes.length + gone.length + cleared > 100) await store.vacuumAnalyze(db);
  summary.removed = gone.length;
  if (!early) summary.profiles = profiles.length;
  summary.ms = Date.now() - started;
  return summary;
}

/** Every .yaml/.yml file under root, relative, sorted; hidden folders (.git, .github) are skipped. */
export function listTemplateFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(path.join(root, rel), { withFileTypes: true })) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const child = rel ? path.join(rel, e.name) : e.name;
      if (e.isDirectory()) walk(child);
      else if (e.isFile() && /\.ya?ml$/i.test(e.name)) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

/** Commit and tag of the checkout when root is the top of a git work tree; nulls otherwise. */
export function gitInfo(root: string): { commit: string | null; tag: string | null } {
  const run = (...args: string[]) => {
    try {
      return (
        execFileSync('git', ['-C', root, ...args], { stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 })
          .toString()
          .trim() || null
      );
    } catch {
      return null;
    }
  };
  const top = run('rev-parse', '--show-toplevel');
  if (!top || realpathSync(top) !== realpathSync(root)) return { commit: null, tag: null };
  return { commit: run('rev-parse', 'HEAD'), tag: run('describe', '--tags', '--abbrev=0') };
}
