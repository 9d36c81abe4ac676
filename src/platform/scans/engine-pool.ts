// Worker threads that run the engine for `vigil serve`'s in-process worker (see engine-thread.ts), so that
// no template, response or regex can hold up the thread that answers the API. VIGIL_ENGINE_THREADS of them
// (default: one fewer than the machine's cores, at least 1 and at most 4: this process's main thread and,
// usually, PostgreSQL need a core too). A thread runs the chunks of one scan run at a time, as many as it is
// given at once, as the engine does on one thread in a `vigil worker` process; another run's chunks wait
// for a free thread. A chunk that does not stop within 5 s of an abort has its thread terminated and
// replaced, so even a template that somehow loops cannot keep a chunk (or the process) hostage; the
// thread's other chunks (the same run's) fail with it and are retried.
import { availableParallelism } from 'node:os';
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
  | {
      type: 'run';
      id: number;
      key: string;
      templates?: ThreadTemplate[];
      targets: string[];
      options: ThreadScanOptions;
    }
  | { type: 'abort'; id: number; reason: string };

/** Messages from a thread, each about one of its chunks (`id`, given by the pool). */
export type ThreadMessage = { id: number } & (
  | { type: 'need-templates' }
  | { type: 'loaded'; count: number; skipped: { uri: string; reason: string }[] }
  | { type: 'batch'; results: ResultEvent[]; attempts: AttemptInfo[] }
  | { type: 'host-skipped'; host: string; errors: number }
  | { type: 'template-skipped'; templateId: string; reason: string }
  | { type: 'done' }
  | { type: 'error'; message: string }
);

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

/**
 * A thread, the scan run whose chunks it runs now (undefined while idle), and those chunks by id: their
 * message handlers, and how each ends on a failure.
 */
interface EngineThread {
  worker: Worker;
  key: string | undefined;
  running: Map<number, { onMessage: (m: ThreadMessage) => void; fail: (err: Error) => void }>;
}

/** A chunk waiting for a thread: `start` runs it on the thread it is given, at once. */
interface Waiting {
  key: string;
  start: (thread: EngineThread) => void;
  fail: (err: Error) => void;
}

class EnginePool {
  private threads: EngineThread[] = [];
  private waiting: Waiting[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly size: number) {}

  private spawn(): EngineThread {
    const worker = new Worker(BOOT);
    worker.unref(); // idle threads never keep the process alive
    const thread: EngineThread = { worker, key: undefined, running: new Map() };
    worker.on('message', (m: ThreadMessage) => thread.running.get(m.id)?.onMessage(m));
    worker.once('error', (err) => this.fail(thread, err));
    worker.once('exit', (code) => this.fail(thread, new Error(`engine thread exited (${code})`)));
    this.threads.push(thread);
    return thread;
  }

  /** Ends every chunk of a thread with err and replaces the thread (it failed, exited or was stuck). */
  private fail(thread: EngineThread, err: Error): void {
    this.threads = this.threads.filter((t) => t !== thread);
    for (const c of [...thread.running.values()]) c.fail(err);
    void thread.worker.terminate();
    this.drain();
  }

  /**
   * The thread a chunk of scan run `key` may start on now: one running chunks of the same run, else an idle
   * one, else a new one while there are fewer than `size`; undefined when it must wait. A thread runs any
   * number of chunks of one run at once (the engine is asynchronous), so a scan's chunks together keep the
   * concurrency the scan asked for however few threads there are. Chunks of different runs never share a
   * thread: one team's template that makes its thread slow, or that has to be terminated, never touches
   * another scan's chunks. While another run's chunk waits (`othersWaiting`), a run's new chunk does not
   * join its busy thread either, but waits in turn: a long scan cannot keep a thread from the others.
   */
  private threadFor(key: string, othersWaiting: boolean): EngineThread | undefined {
    return (
      (othersWaiting ? undefined : this.threads.find((t) => t.key === key && t.running.size > 0)) ??
      this.threads.find((t) => t.running.size === 0) ??
      (this.threads.length < this.size ? this.spawn() : undefined)
    );
  }

  /** Starts the waiting chunks that can start now, in the order they came. */
  private drain(): void {
    if (this.closed) return;
    const stillWaiting = new Set<string>();
    for (const w of [...this.waiting]) {
      const thread = this.threadFor(
        w.key,
        [...stillWaiting].some((k) => k !== w.key),
      );
      if (!thread) {
        stillWaiting.add(w.key);
        continue;
      }
      this.waiting = this.waiting.filter((x) => x !== w);
      w.start(thread);
    }
  }

  /** Stops every thread: running and waiting chunks fail (their jobs are retried). */
  async close(): Promise<void> {
    this.closed = true;
    for (const w of [...this.waiting]) w.fail(new Error('the engine threads were closed'));
    const all = this.threads;
    this.threads = [];
    await Promise.all(all.map((t) => t.worker.terminate()));
  }

  run(chunk: ThreadChunk): Promise<void> {
    const id = this.nextId++;
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      let killTimer: NodeJS.Timeout | undefined;
      let thread: EngineThread | undefined;
      const finish = (err?: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(killTimer);
        chunk.signal.removeEventListener('abort', onAbort);
        this.waiting = this.waiting.filter((x) => x !== waiting);
        if (thread) {
          thread.running.delete(id);
          if (thread.running.size === 0) thread.key = undefined;
          this.drain();
        }
        if (err) reject(err);
        else resolve();
      };
      const post = (m: ThreadRequest) => thread?.worker.postMessage(m);
      const onMessage = (m: ThreadMessage) => {
        try {
          switch (m.type) {
            case 'need-templates':
              // The thread had not started the chunk yet: an abort meanwhile ends it here.
              void chunk.loadTemplates().then(
                (templates) =>
                  chunk.signal.aborted
                    ? finish(new Error('aborted'))
                    : post({
                        type: 'run',
                        id,
                        key: chunk.key,
                        templates,
                        targets: chunk.targets,
                        options: chunk.options,
                      }),
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
      // A chunk still waiting for a thread just ends. A running one that does not stop within 5 s of its
      // abort takes its thread down with it, and the thread's other chunks (of the same scan run) fail and
      // are retried: a chunk is safe to run again.
      const onAbort = () => {
        if (!thread) return finish(new Error('aborted'));
        const t = thread;
        post({ type: 'abort', id, reason: String(chunk.signal.reason ?? 'aborted') });
        killTimer = setTimeout(
          () => this.fail(t, new Error('the engine thread did not stop; it was terminated')),
          5_000,
        );
      };
      const start = (t: EngineThread) => {
        thread = t;
        t.key = chunk.key;
        t.running.set(id, { onMessage, fail: finish });
        post({ type: 'run', id, key: chunk.key, targets: chunk.targets, options: chunk.options });
      };
      const waiting: Waiting = { key: chunk.key, start, fail: finish };
      if (chunk.signal.aborted) return finish(new Error('aborted'));
      if (this.closed) return finish(new Error('the engine threads were closed'));
      chunk.signal.addEventListener('abort', onAbort, { once: true });
      const now = this.threadFor(
        chunk.key,
        this.waiting.some((w) => w.key !== chunk.key),
      );
      if (now) start(now);
      else this.waiting.push(waiting);
    });
  }
}

let pool: EnginePool | undefined;

/** Turns engine threads on for this process's scan chunks (vigil serve's in-process worker). */
export function useEngineThreads(size = Number(process.env.VIGIL_ENGINE_THREADS || NaN)): void {
  pool ??= new EnginePool(Number.isInteger(size) ? Math.max(1, size) : defaultEngineThreads());
}

/**
 * One fewer than the cores, at least 1 and at most 4. On 2 cores, two engine threads beside the API thread,
 * PostgreSQL and the targets cost more CPU per attempt than one (bench:scans, 27 Nov: 5.7 against 4.9 s of
 * CPU per 50,000 attempts, all sides) and ran no faster.
 */
export function defaultEngineThreads(cores = availableParallelism()): number {
  return Math.max(1, Math.min(4, cores - 1));
}

export function engineThreads(): EnginePool | undefined {
  return pool;
}

export async function closeEngineThreads(): Promise<void> {
  const p = pool;
  pool = undefined;
  await p?.close();
}
