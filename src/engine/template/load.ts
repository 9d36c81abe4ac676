// Loading templates from files and folders: walk, read with bounded concurrency, parse, filter.
import { readFile, readdir, stat } from 'node:fs/promises';
import { readFile as readFileCallback } from 'node:fs';
import path from 'node:path';
import type { Severity, Template, TemplateIssue } from './types.ts';
import { parseTemplate, type ParseOptions, type ParseResult } from './parse.ts';
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
  /** Files read at the same time on the main thread (default 32). */
  concurrency?: number;
  /**
   * Worker threads to parse on (default 0: main thread). Each worker pays its own start-up and cold JIT,
   * so this only pays off for large folders on idle multi-core machines; see bench-corpus.ts.
   */
  workers?: number;
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

export async function loadTemplateFile(file: string, opts: ParseOptions = {}): Promise<ParseResult> {
  const text = await readFile(file, 'utf8');
  return parseTemplate(text, file, opts);
}

export async function loadTemplates(
  paths: string[],
  filter: TemplateFilter = {},
  opts: LoadOptions = {},
): Promise<LoadResult> {
  const result: LoadResult = { templates: [], issues: [], warnings: [], files: 0, valid: 0, invalid: 0, skipped: [], filtered: 0 };
  const jobs: { file: string; root?: string }[] = [];
  for (const p of paths) {
    try {
      const info = await stat(p);
      if (info.isDirectory()) {
        for (const file of await listYamlFiles(p)) jobs.push({ file, root: p });
      } else jobs.push({ file: p });
    } catch (err) {
      result.issues.push({ file: p, field: '', reason: `cannot read: ${(err as NodeJS.ErrnoException).code ?? err}` });
      result.invalid++;
    }
  }
  result.files = jobs.length;

  const { concurrency, workers = 0, ...parseOpts } = opts;
  let parsed: (ParseResult | undefined)[] | undefined;
  if (workers > 0 && jobs.length > 0) {
    parsed = await parseOnWorkers(jobs, parseOpts, workers).catch(() => undefined);
  }
  parsed ??= await parseOnMainThread(jobs, parseOpts, concurrency ?? 32);


  // Results are gathered in walk order so output is stable from run to run.
  const seenIds = new Map<string, string>();
  const match = compileFilter(filter);
  parsed.forEach((r, index) => {
    if (!r) return;
    result.warnings.push(...r.warnings);
    if (r.notTemplate) {
      result.skipped.push(jobs[index].file);
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
    if (earlier) result.warnings.push({ file: t.path, field: 'id', reason: `duplicate id "${t.id}" (also in ${earlier})` });
    else seenIds.set(t.id, t.path);
    if (match(t)) result.templates.push(t);
    else result.filtered++;
  });
  return result;
}

/** Reads with bounded concurrency and parses each file as it arrives. */
async function parseOnMainThread(jobs: { file: string; root?: string }[], opts: ParseOptions, concurrency: number): Promise<ParseResult[]> {
  const parsed: ParseResult[] = new Array(jobs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) {
      const index = next++;
      const { file, root } = jobs[index];
      try {
        const text = await readText(file);
        parsed[index] = parseTemplate(text, file, { ...opts, templatesRoot: opts.templatesRoot ?? root });
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
        parsed[index] = { issues: [{ file, field: '', reason: `cannot read: ${code}` }], warnings: [] };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return parsed;
}

async function listYamlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries
    .filter((e) => YAML_FILE.test(e) && !e.split(path.sep).includes('.git'))
    .sort()
    .map((e) => path.join(dir, e));
}

// The callback form of readFile is several times faster than fs/promises for many small files.
function readText(file: string): Promise<string> {
  return new Promise((resolve, reject) => readFileCallback(file, 'utf8', (err, data) => (err ? reject(err) : resolve(data))));
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
