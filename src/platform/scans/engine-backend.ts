// The two engine back-ends a chunk runs on: `vigil serve` runs the engine on worker threads
// (engine-pool.ts, the templates parsed there); `vigil worker` processes, and chunks that carry the
// worker's secrets (which never leave this thread), run it here on templates parsed once per scan run
// and cached. Either way the engine's output goes to the chunk's result sink.
import {
  memoryWorkflowSource,
  parseTemplate,
  runScan,
  type ParseOptions,
  type ScanOptions,
  type Template,
} from '../../engine/index.ts';
import type { AppContext } from '../shared/context.ts';
import { workflowDependencies } from './workflow-deps.ts';
import type { engineThreads, ThreadScanOptions } from './engine-pool.ts';

type EnginePool = NonNullable<ReturnType<typeof engineThreads>>;
import type { ResultEvent } from './findings.ts';
import type { EngineCallbacks } from './result-sink.ts';
import * as store from './store.ts';

/** A scan run's parsed templates, and those that did not load (uri and reason). */
export interface ParsedSet extends Array<Template> {
  skipped?: { uri: string; reason: string }[];
  /** Templates the scan's workflows call (from the catalogue); they run only through a workflow. */
  deps?: Template[];
}

// Parsed templates per scan run (the promise, so chunks starting together parse once): a worker runs
// many chunks of the same scan.
const parsedCache = new Map<string, Promise<ParsedSet>>();

// Bounded by the template text the cached sets were parsed from (a scan of the whole catalogue holds far
// more than one of two templates), and by count.
const parsedSize = new Map<string, number>();
const MAX_PARSED_CHARS = 64 * 1024 * 1024;

/**
 * How a stored template is parsed: with the payload files kept at import; a template of the public
 * catalogue may also read the instance's corpus folder (VIGIL_TEMPLATES_DIR, when set) with javascript's
 * nuclei/fs, confined to it; any other (inline, private, shared, an agent's) reads no file.
 */
export function storedParseOptions(
  t: { payloadFiles?: Record<string, string[]>; catalogue?: boolean },
  corpusDir: string | undefined,
): ParseOptions {
  return {
    ...(t.payloadFiles ? { payloadFiles: t.payloadFiles } : {}),
    ...(t.catalogue && corpusDir ? { filesRoot: corpusDir } : {}),
  };
}

/** The scan run's templates, parsed on this thread (cached). */
export function parsedTemplates(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  scanId: string,
  run: number,
): Promise<ParsedSet> {
  const key = `${scanId}:${run}`;
  let hit = parsedCache.get(key);
  if (!hit) {
    hit = parseAll(ctx, scanId, key);
    hit.catch(() => {
      parsedCache.delete(key);
      parsedSize.delete(key);
    });
    if (parsedCache.size >= 20) evictOldest();
    parsedCache.set(key, hit);
  }
  return hit;
}

function evictOldest(): void {
  const oldest = parsedCache.keys().next().value;
  if (oldest === undefined) return;
  parsedCache.delete(oldest);
  parsedSize.delete(oldest);
}

async function parseAll(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  scanId: string,
  key: string,
): Promise<ParsedSet> {
  const out: ParsedSet = [];
  out.skipped = [];
  const rows = await store.loadTemplates(ctx.db, scanId);
  const size = rows.reduce((n, t) => n + t.raw.length, 0);
  parsedSize.set(key, size);
  let total = [...parsedSize.values()].reduce((a, b) => a + b, 0);
  while (total > MAX_PARSED_CHARS && parsedCache.size > 1 && parsedCache.keys().next().value !== key) {
    const oldest = parsedCache.keys().next().value!;
    total -= parsedSize.get(oldest) ?? 0;
    evictOldest();
  }
  out.deps = [];
  for (const t of await workflowDependencies(ctx.db, rows)) {
    const res = parseTemplate(t.raw, t.uri, t.payloadFiles ? { payloadFiles: t.payloadFiles } : {});
    if (res.template) out.deps.push(res.template);
  }
  for (const t of rows) {
    const res = parseTemplate(t.raw, t.uri, storedParseOptions(t, ctx.config.templatesDir));
    if (res.template) out.push(res.template);
    else {
      ctx.log.warn({ scan_id: scanId, template: t.uri, issue: res.issues[0] }, 'template does not load; skipped');
      out.skipped.push({ uri: t.uri, reason: res.issues[0]?.reason ?? 'not a template' });
    }
  }
  return out;
}

/** One chunk's engine run. */
export interface EngineRun {
  scanId: string;
  run: number;
  targets: string[];
  options: ThreadScanOptions;
  signal: AbortSignal;
  sink: EngineCallbacks;
}

/** Runs the chunk on an engine thread (templates parsed there). Returns true when none of the scan's templates loaded. */
export async function runOnThreads(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  pool: EnginePool,
  r: EngineRun,
): Promise<boolean> {
  let loadedNone = false;
  await pool.run({
    key: `${r.scanId}:${r.run}`,
    loadTemplates: async () => {
      const rows = await store.loadTemplates(ctx.db, r.scanId);
      const deps = await workflowDependencies(ctx.db, rows);
      return [
        ...rows.map((t) => ({ raw: t.raw, uri: t.uri, ...storedParseOptions(t, ctx.config.templatesDir) })),
        ...deps.map((d) => ({ ...d, dependency: true })),
      ];
    },
    targets: r.targets,
    options: r.options,
    signal: r.signal,
    onLoaded(count, skipped) {
      loadedNone = count === 0;
      for (const s of skipped) {
        ctx.log.warn({ scan_id: r.scanId, template: s.uri, reason: s.reason }, 'template does not load; skipped');
        r.sink.onTemplateSkipped(s.uri, `it does not load: ${s.reason}`);
      }
    },
    onResult: (ev) => r.sink.onResult(ev as unknown as ResultEvent),
    onAttempt: (a) => r.sink.onAttempt(a),
    onHostSkipped: (host, errors) => r.sink.onHostSkipped(host, errors),
    onTemplateSkipped: (id, reason) => r.sink.onTemplateSkipped(id, reason),
  });
  return loadedNone;
}

/**
 * Runs the chunk on this thread, on `preloaded` templates or the cached parse of the scan run, with the
 * worker's secrets if any. Returns true when none of the scan's templates loaded.
 */
export async function runInProcess(
  ctx: Pick<AppContext, 'db' | 'log' | 'config'>,
  r: EngineRun,
  preloaded: ParsedSet | undefined,
  secrets: ScanOptions['secrets'],
): Promise<boolean> {
  const list = preloaded && preloaded.length > 0 ? preloaded : await parsedTemplates(ctx, r.scanId, r.run);
  for (const sk of list.skipped ?? []) r.sink.onTemplateSkipped(sk.uri, `it does not load: ${sk.reason}`);
  if (list.length === 0) return true;
  await runScan({
    ...r.options,
    targets: r.targets,
    templates: list,
    secrets,
    signal: r.signal,
    workflowSource: memoryWorkflowSource(list.deps ?? []),
    onResult: (ev) => r.sink.onResult(ev as unknown as ResultEvent),
    onAttempt: (a) => r.sink.onAttempt(a),
    onHostSkipped: (host, errors) => r.sink.onHostSkipped(host, errors),
    onTemplateSkipped: (id, reason) => r.sink.onTemplateSkipped(id, reason),
  });
  return false;
}
