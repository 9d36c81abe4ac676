// A broad scan on several worker threads: the targets are dealt out among the threads by host (every
// target of one host name on the same thread, so its max-host-errors count, cookies and connections stay
// whole), each thread runs every template on its share (clustering unchanged), and results come back to
// the caller's callbacks. Templates are compiled once here and sent as structured clones,
// which costs about a tenth of parsing them again (docs/performance.md). The rate limit is split
// evenly. Scans needing what cannot cross a thread (secrets, interactsh, workflows) run on one thread.
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import type { AttemptInfo, ProgressInfo, ScanOptions, ScanStats } from './types.ts';
import { runScan } from '../runner.ts';
import { compileTemplate } from '../template/lazy-template.ts';
import { workerThreads } from '../lazy.ts';

const BOOT = new URL('./threads-boot.mjs', import.meta.url);

/** What a worker gets: the scan's plain options (no callbacks, no signal) with its targets. */
export interface ThreadScan {
  /** Post every attempt / progress step back (only when the caller listens: each is a message). */
  attempts: boolean;
  progress: boolean;
  options: Omit<
    ScanOptions,
    | 'onResult'
    | 'onAttempt'
    | 'onNotice'
    | 'onTemplateSkipped'
    | 'onHostSkipped'
    | 'onProgress'
    | 'signal'
    | 'secrets'
    | 'interactsh'
    | 'workflowSource'
  >;
}

export type ThreadMessage =
  | { kind: 'result'; ev: ResultEvent }
  | { kind: 'attempt'; a: AttemptInfo }
  | { kind: 'progress'; p: ProgressInfo }
  | { kind: 'notice'; message: string }
  | { kind: 'template-skipped'; id: string; reason: string }
  | { kind: 'host-skipped'; host: string; errors: number }
  | { kind: 'done'; stats: ScanStats }
  | { kind: 'failed'; message: string };

/** Why this scan runs on one thread, or undefined when it can be split. */
export function singleThreadReason(opts: ScanOptions, threads: number): string | undefined {
  if (threads < 2) return 'one thread asked for';
  if (opts.secrets) return 'a secret file is used';
  if (opts.interactsh) return 'interactsh is used';
  if (opts.templates.some((t) => t.type === 'workflow')) return 'it has workflows';
  if (byHost(opts.targets).length < threads) return 'its targets are on fewer hosts than threads';
  return undefined;
}

/** The host name a target (URL, host, host:port) connects to, lower case. */
function hostName(target: string): string {
  try {
    return new URL(target.includes('://') ? target : `http://${target}`).hostname.toLowerCase();
  } catch {
    return target.toLowerCase();
  }
}

/** The scan's targets (trimmed, each once, in order) grouped by host name. */
function byHost(list: string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const t of new Set(list.map((x) => x.trim()).filter(Boolean))) {
    const host = hostName(t);
    const g = groups.get(host);
    if (g) g.push(t);
    else groups.set(host, [t]);
  }
  return [...groups.values()];
}

export async function runScanOnThreads(opts: ScanOptions, threads: number): Promise<ScanStats> {
  if (singleThreadReason(opts, threads)) return runScan(opts);
  const started = performance.now();
  const templates: Template[] = [];
  for (const t of opts.templates) {
    compileTemplate(t); // a lazy template's fields become plain data; an invalid one is skipped by runScan
    templates.push({ ...t });
  }
  // Largest host groups first, each to the thread with the fewest targets so far.
  const shares: string[][] = Array.from({ length: threads }, () => []);
  for (const group of byHost(opts.targets).sort((a, b) => b.length - a.length)) {
    const least = shares.reduce((a, s) => (s.length < a.length ? s : a));
    least.push(...group);
  }
  const {
    onResult,
    onAttempt,
    onNotice,
    onTemplateSkipped,
    onHostSkipped,
    onProgress,
    signal,
    secrets: _s,
    interactsh: _i,
    workflowSource: _w,
    ...plain
  } = opts;
  const rate = opts.rateLimit ?? 150;
  const all: ScanStats[] = [];
  // Each thread's latest progress; the caller sees their sum.
  const latest: ProgressInfo[] = shares.map(() => ({ done: 0, total: 0, requests: 0, errors: 0, matched: 0 }));
  const targetless = templates.filter((t) => !t.selfContained);
  const workers = shares.map((share, index) => {
    const options: ThreadScan['options'] = {
      ...plain,
      // A self-contained template runs once per scan, not once per thread: on the first.
      templates: index === 0 ? templates : targetless,
      targets: share,
      rateLimit: rate > 0 ? Math.max(1, Math.round(rate / threads)) : 0,
    };
    return new Promise<ScanStats>((resolve, reject) => {
      const worker = new (workerThreads().Worker)(BOOT, {
        workerData: { options, attempts: Boolean(onAttempt), progress: Boolean(onProgress) } satisfies ThreadScan,
      });
      const abort = () => worker.postMessage('abort');
      signal?.addEventListener('abort', abort, { once: true });
      let stats: ScanStats | undefined;
      worker.on('message', (m: ThreadMessage) => {
        switch (m.kind) {
          case 'result':
            onResult(m.ev);
            break;
          case 'attempt':
            onAttempt?.(m.a);
            break;
          case 'progress': {
            latest[index] = m.p;
            const sum = (k: keyof ProgressInfo) => latest.reduce((a, p) => a + p[k], 0);
            onProgress?.({
              done: sum('done'),
              total: sum('total'),
              requests: sum('requests'),
              errors: sum('errors'),
              matched: sum('matched'),
            });
            break;
          }
          case 'notice':
            // Each thread says the same thing about a template; the first thread speaks for all.
            if (index === 0 || !/^(skipped|refused) template /.test(m.message)) onNotice?.(m.message);
            break;
          case 'template-skipped':
            if (index === 0) onTemplateSkipped?.(m.id, m.reason);
            break;
          case 'host-skipped':
            onHostSkipped?.(m.host, m.errors);
            break;
          case 'done':
            // Done when it says so: a handle some protocol left open must not keep the scan waiting.
            stats = m.stats;
            signal?.removeEventListener('abort', abort);
            resolve(stats);
            void worker.terminate();
            break;
          case 'failed':
            reject(new Error(m.message));
            void worker.terminate();
            break;
        }
      });
      worker.once('error', reject);
      worker.once('exit', () => {
        signal?.removeEventListener('abort', abort);
        if (stats) resolve(stats);
        else reject(new Error('a scan thread stopped without its results'));
      });
    });
  });
  all.push(...(await Promise.all(workers)));
  const sum = (k: keyof ScanStats) => all.reduce((a, s) => a + Number(s[k]), 0);
  const first = all[0];
  return {
    templates: first.templates,
    skippedTemplates: first.skippedTemplates,
    refusedUnsigned: first.refusedUnsigned,
    targets: sum('targets'),
    total: sum('total'),
    done: sum('done'),
    requests: sum('requests'),
    errors: sum('errors'),
    matched: sum('matched'),
    results: sum('results'),
    skippedHosts: sum('skippedHosts'),
    aborted: Boolean(signal?.aborted),
    durationMs: performance.now() - started,
    threads,
  };
}
