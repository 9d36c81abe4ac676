// Worker threads that run the engine for `vigil serve`'s in-process worker (see engine-thread.ts). A
// fixed number of threads (VIGIL_ENGINE_THREADS, default 2) each run one chunk at a time; a chunk waits
// for a free thread. A thread that does not stop within 5 s of an abort is terminated and replaced, so
// even a template that somehow loops cannot keep a chunk (or the process) hostage.
import { Worker } from 'node:worker_threads';
import type { AttemptInfo, ResultEvent, ScanOptions } from '../../engine/index.ts';

export type ThreadScanOptions = Pick<
  ScanOptions,
  | 'concurrency'
  | 'bulkSize'
  | 'rateLimit'
  | 'timeout'
  | 'retries'
  | 'maxHostErrors'
  | 'vars'
  | 'socks5Proxy'
  | 'headers'
  | 'egress'
  | 'trustedCertificates'
  | 'allowUnsigned'
  | 'disableUnsigned'
  | 'interactsh'
>;

/** A template's text for a thread; `dependency`: only a workflow of the scan may run it. */
export interface ThreadTemplate {
  raw: string;
  uri: string;
  payloadFiles?: Record<string, string[]>;
  /** The corpus folder a catalogue template's nuclei/fs may read (engine-backend.ts storedParseOptions). */
  filesRoot?: string;
  dependency?: boolean;
}

export type ThreadRequest =
  | { type: 'run'; key: string; templates?: ThreadTemplate[]; targets: string[]; options: ThreadScanOptions }
  | { type: 'abort'; reason: string };

export type ThreadMessage =
  | { type: 'need-templates' }
  | { type: 'loaded'; count: number; skipped: { uri: string; reason: string }[] }
  | { type: 'batch'; results: ResultEvent[]; attempts: AttemptInfo[] }
  | { type: 'host-skipped'; host: string; errors: number }
  | { type: 'template-skipped'; templateId: string; reason: string }
  | { type: 'done' }
  | { type: 'error'; message: string };

const BOOT = new URL('./engine-thread-boot.mjs', import.meta.url);

export interface ThreadChunk {
  key: string;
  loadTemplates: () => Promise<ThreadTemplate[]>;
  targets: string[];
  options: ThreadScanOptions;
  signal: AbortSignal;
  onLoaded: (count: number, skipped: { uri: string; reason: string }[]) => void;
  onResult: (ev: ResultEvent) => void;
  onAttempt: (a: AttemptInfo) => void;
  onHostSkipped: (host: string, errors: number) => void;
  onTemplateSkipped: (templateId: string, reason: string) => void;
}

class EnginePool {
  private idle: Worker[] = [];
  private count = 0;
  private waiting: ((w: Worker) => void)[] = [];
  private all = new Set<Worker>();

  constructor(private readonly size: number) {}

  private spawn(): Worker {
    const w = new Worker(BOOT);
    w.unref(); // idle threads never keep the process alive
    this.all.add(w);
    w.once('exit', () => {
      this.all.delete(w);
      this.idle = this.idle.filter((x) => x !== w);
      this.count--;
    });
    this.count++;
    return w;
  }

  acquire(): Promise<Worker> {
    const w = this.idle.pop();
    if (w) return Promise.resolve(w);
    if (this.count < this.size) return Promise.resolve(this.spawn());
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(w: Worker, healthy: boolean): void {
    if (!healthy) {
      void w.terminate();
      const next = this.waiting.shift();
      if (next) queueMicrotask(() => next(this.spawn()));
      return;
    }
    const next = this.waiting.shift();
    if (next) next(w);
    else this.idle.push(w);
  }

  async close(): Promise<void> {
    await Promise.all([...this.all].map((w) => w.terminate()));
  }

  run(chunk: ThreadChunk): Promise<void> {
    return this.acquire().then(
      (w) =>
        new Promise<void>((resolve, reject) => {
          let settled = false;
          let killTimer: NodeJS.Timeout | undefined;
          const finish = (err?: Error, healthy = true) => {
            if (settled) return;
            settled = true;
            clearTimeout(killTimer);
            w.off('message', onMessage);
            w.off('error', onError);
            w.off('exit', onExit);
            chunk.signal.removeEventListener('abort', onAbort);
            this.release(w, healthy);
            if (err) reject(err);
            else resolve();
          };
          const onMessage = (m: ThreadMessage) => {
            try {
              switch (m.type) {
                case 'need-templates':
                  void chunk.loadTemplates().then(
                    (templates) =>
                      w.postMessage({
                        type: 'run',
                        key: chunk.key,
                        templates,
                        targets: chunk.targets,
                        options: chunk.options,
                      } satisfies ThreadRequest),
                    (err) => finish(err as Error),
                  );
                  break;
                case 'loaded':
                  chunk.onLoaded(m.count, m.skipped);
                  break;
                case 'batch':
                  for (const r of m.results) chunk.onResult(r);
                  for (const a of m.attempts) chunk.onAttempt(a);
                  break;
                case 'host-skipped':
                  chunk.onHostSkipped(m.host, m.errors);
                  break;
                case 'template-skipped':
                  chunk.onTemplateSkipped(m.templateId, m.reason);
                  break;
                case 'done':
                  finish();
                  break;
                case 'error':
                  finish(new Error(m.message));
                  break;
              }
            } catch (err) {
              finish(err as Error);
            }
          };
          const onError = (err: Error) => finish(err, false);
          const onExit = (code: number) => finish(new Error(`engine thread exited (${code})`), false);
          const onAbort = () => {
            w.postMessage({ type: 'abort', reason: String(chunk.signal.reason ?? 'aborted') } satisfies ThreadRequest);
            killTimer = setTimeout(
              () => finish(new Error('the engine thread did not stop; it was terminated'), false),
              5_000,
            );
          };
          w.on('message', onMessage);
          w.once('error', onError);
          w.once('exit', onExit);
          if (chunk.signal.aborted) return finish(new Error('aborted'));
          chunk.signal.addEventListener('abort', onAbort, { once: true });
          w.postMessage({
            type: 'run',
            key: chunk.key,
            targets: chunk.targets,
            options: chunk.options,
          } satisfies ThreadRequest);
        }),
    );
  }
}

let pool: EnginePool | undefined;

/** Turns engine threads on for this process's scan chunks (vigil serve's in-process worker). */
export function useEngineThreads(size = Number(process.env.VIGIL_ENGINE_THREADS ?? 2)): void {
  pool ??= new EnginePool(Math.max(1, Number.isInteger(size) ? size : 2));
}

export function engineThreads(): EnginePool | undefined {
  return pool;
}

export async function closeEngineThreads(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
