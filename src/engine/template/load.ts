// Loading templates from files and folders: walk, read with bounded concurrency, parse, filter.
import { readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Severity, Template, TemplateIssue } from './types.ts';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';
import { parseFile } from './parse-file.ts';
import { parseOnWorkers } from './worker-pool.ts';

export interface TemplateFilter {
  /** Keep templates having any of these tags. */
  tags?: string[];
  excludeTags?: string[];
  severities?: Severity[];
  ids?: string[];
  excludeIds?: string[];
  /** Keep templates by any of these authors. */
  authors?: string[];
  /** Template.type values: http, dns, tcp, ... */
  types?: string[];
}

export interface LoadOptions extends ParseOptions {
  /** Files read and parsed between two yields to the event loop (default 64). */
  batchSize?: number;
  /**
   * Worker threads to parse on (default 0: main thread). Each worker pays its own start-up and cold JIT,
   * so this only pays off for large folders on idle multi-core machines; see bench/engine-corpus.ts.
   */
  workers?: number;
  /**
   * Read each template's metadata only (id, info, self-contained, its protocol blocks) and compile the
   * rest on first use (lazy-template.ts): what a scan of a filtered corpus wants. Problems outside
   * `id` and `info` are then found when compiled (compileTemplate), not counted here. Main thread only.
   */
  lazy?: boolean;
}

export interface LoadResult {
  templates: Template[];
  /** Problems of invalid templates (and unreadable paths). */
  issues: TemplateIssue[];
  warnings: TemplateIssue[];
  /** YAML files looked at. */
  files: number;
  valid: number;
  invalid: number;
  /** YAML files that are not templates (config files and the like). */
  skipped: string[];
  /** Valid templates left out by the filter. */
  filtered: number;
}

const YAML_FILE = /\.ya?ml$/i;

interface FileGroup {
  /** The folder given, for a folder's files; none for a file given by itself. */
  root?: string;
  files: string[];
}

export async function loadTemplateFile(file: string, opts: ParseOptions = {}): Promise<ParseResult> {
  const text = await readFile(file, 'utf8');
  return parseTemplate(text, file, { ...opts, fromDisk: true });
}

export async function loadTemplates(
  paths: string[],
  filter: TemplateFilter = {},
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const result: LoadResult = {
    templates: [],
    issues: [],
    warnings: [],
    files: 0,
    valid: 0,
    invalid: 0,
    skipped: [],
    filtered: 0,
  };
  // The files in walk order, by the path given (a folder is the root of its files' payload paths): no
  // object per file, which the young generation would promote before the parse gets to it.
  const groups: FileGroup[] = [];
  for (const p of paths) {
    try {
      const info = await stat(p);
      if (info.isDirectory()) groups.push({ root: p, files: await listYamlFiles(p) });
      else groups.push({ files: [p] });
    } catch (err) {
      result.issues.push({ file: p, field: '', reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? err}` });
      result.invalid++;
    }
  }
  for (const g of groups) result.files += g.files.length;

  const { batchSize, workers = 0, lazy = false, ...parseOpts } = opts;
  // Results are gathered in walk order so output is stable from run to run.
  const seenIds = new Map<string, string>();
  const match = compileFilter(filter);
  const collect = (r: ParseResult | undefined, file: string) => {
    if (!r) return;
    result.warnings.push(...r.warnings);
    if (r.notTemplate) {
      result.skipped.push(file);
      return;
    }
    if (!r.template) {
      result.invalid++;
      result.issues.push(...r.issues);
      return;
    }
    result.valid++;
    const t = r.template;
    const earlier = seenIds.get(t.id);
    if (earlier)
      result.warnings.push({ file: t.path, field: 'id', reason: `duplicate id "${t.id}" (also in ${earlier})` });
    else seenIds.set(t.id, t.path);
    if (match(t)) result.templates.push(t);
    else result.filtered++;
  };
  if (workers > 0 && result.files > 0 && !lazy) {
    const jobs = groups.flatMap(({ root, files }) => files.map((file) => ({ file, root })));
    const parsed = await parseOnWorkers(jobs, parseOpts, workers).catch(() => undefined);
    if (parsed) {
      parsed.forEach((r, index) => collect(r, jobs[index].file));
      return result;
    }
  }
  await parseOnMainThread(groups, parseOpts, batchSize ?? 64, lazy, collect);
  return result;
}

/**
 * Reads and parses in batches, yielding to the event loop between batches so a server stays responsive.
 * Each result goes to `collect` as soon as it is parsed, in walk order: a result kept until the end
 * (10,000 of them for the corpus) would outlive the young generation's collections for nothing.
 * Reads are synchronous on purpose: for many small files, async readFile costs about five times the CPU
 * (measured on the corpus: ~1.1 s against ~0.2 s), and parsing is the bottleneck either way.
 */
async function parseOnMainThread(
  groups: FileGroup[],
  opts: ParseOptions,
  batchSize: number,
  lazy: boolean,
  collect: (r: ParseResult, file: string) => void,
): Promise<void> {
  // One options object per root, not per file: a lazy template keeps its options until compiled.
  const byRoot = new Map<string | undefined, ParseOptions>();
  // A lazy load keeps every template's `info`: equal strings are kept once (lazy-template.ts).
  const strings = lazy ? new Map<string, string>() : undefined;
  const optionsFor = (root: string | undefined) => {
    let o = byRoot.get(root);
    if (!o) byRoot.set(root, (o = { ...opts, templatesRoot: opts.templatesRoot ?? root, fromDisk: true }));
    return o;
  };
  let inBatch = 0;
  for (const { root, files } of groups) {
    const o = optionsFor(root);
    for (const file of files) {
      if (inBatch++ === Math.max(1, batchSize)) {
        inBatch = 1;
        await new Promise((resolve) => setImmediate(resolve));
      }
      collect(parseFile(file, o, lazy, strings), file);
    }
  }
}

/**
 * YAML files under `dir`, sorted by relative path, `.git` folders left out. A synchronous walk on
 * purpose: fs.promises.readdir({ recursive }) cost ~260 ms CPU on the corpus against ~45 ms for this,
 * and the walk blocks the event loop only for that long. Symbolic links to folders are not followed.
 */
async function listYamlFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const visit = (rel: string): void => {
    for (const entry of readdirSync(rel ? path.join(dir, rel) : dir, { withFileTypes: true })) {
      const name = rel ? `${rel}${path.sep}${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (entry.name !== '.git') visit(name);
      } else if (YAML_FILE.test(entry.name)) found.push(path.join(dir, name));
    }
  };
  visit('');
  // Every path starts with the same joined `dir`, so this is the order of the relative paths.
  return found.sort();
}

function lowerSet(values?: string[]): Set<string> | undefined {
  return values && values.length > 0 ? new Set(values.map((v) => v.trim().toLowerCase())) : undefined;
}

export function compileFilter(filter: TemplateFilter): (t: Template) => boolean {
  const tags = lowerSet(filter.tags);
  const excludeTags = lowerSet(filter.excludeTags);
  const severities = lowerSet(filter.severities);
  const ids = lowerSet(filter.ids);
  const excludeIds = lowerSet(filter.excludeIds);
  const authors = lowerSet(filter.authors);
  const types = lowerSet(filter.types);
  return (t) => {
    if (ids && !ids.has(t.id.toLowerCase())) return false;
    if (excludeIds?.has(t.id.toLowerCase())) return false;
    if (severities && !severities.has(t.info.severity)) return false;
    if (types && !types.has(t.type)) return false;
    if (tags && !t.info.tags.some((tag) => tags.has(tag))) return false;
    if (excludeTags && t.info.tags.some((tag) => excludeTags.has(tag))) return false;
    if (authors && !t.info.author.some((a) => authors.has(a.toLowerCase()))) return false;
    return true;
  };
}
