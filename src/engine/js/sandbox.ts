// Template JavaScript (flows now, the javascript protocol next) runs here: in QuickJS compiled to
// WebAssembly, on a sandbox thread of its own (js/worker.ts, js/pool.ts). Nothing of the host is inside:
// the script sees QuickJS's standard built-ins, the values the caller hands in and the host functions
// the caller names, nothing else (no require, no process, no import of anything).
//
// The interface, for every user of the sandbox:
// - `data`: values the script gets, copied in as data (JSON values and byte arrays, js/marshal.ts).
// - `functions`: host functions by name. The script calls them as plain blocking functions; the host
//   function may be async (network I/O): the script's thread waits until its promise settles. Arguments
//   arrive as plain data (objects, arrays, strings, numbers, booleans, null, Buffers for byte arrays),
//   the value returned goes back the same way, and a thrown error reaches the script as a plain
//   `Error` with the same message (never a host object). Each gets an AbortSignal that fires when the run
//   ends, is aborted or passes its deadline.
// - `prelude`: trusted setup code run before the script, as the body of `function (host, data)`; it
//   builds the script's globals (flow/js.ts: `template`, `set`, `http()` ...). Without one, the host
//   functions and the values become globals by name.
// - The run's result is the script's completion value, as data; a script error, a stop (abort,
//   deadline, computing too long) or running out of memory rejects with a ScriptError.
// Limits (js/limits.ts): WebAssembly memory of SANDBOX_MEMORY_BYTES, SANDBOX_CPU_MS of computing between
// host calls (QuickJS's interrupt handler), a whole-run deadline across host calls, QuickJS's stack limit
// and the thread's own, and a thread that does not stop by itself is terminated.
// Why threads and QuickJS's sync build, not its asyncify build on this thread: docs/engine.md (deep
// recursion overflowed V8's stack at 22 calls there, and a script's computing would block the scan).
import { decodeValue, encodeValue } from './marshal.ts';
import { threads, type SandboxThread } from './pool.ts';
import { ABORT, REPLIES, type CallMessage, type DoneMessage, type RunRequest, type ThreadMessage } from './messages.ts';
import {
  SANDBOX_CPU_MS,
  SANDBOX_GRACE_MS,
  SANDBOX_STACK_BYTES,
  SANDBOX_TIMEOUT_MS,
  SANDBOX_VALUE_CHARS,
} from './limits.ts';

export type HostFunction = (args: unknown[], signal: AbortSignal) => unknown;

export interface ScriptOptions {
  data?: Record<string, unknown>;
  functions?: Record<string, HostFunction>;
  prelude?: string;
  /** Shown in the script's stack traces. */
  filename?: string;
  /** The whole run, host calls included. */
  timeoutMs?: number;
  /** Computing between two host calls. */
  cpuMs?: number;
  signal?: AbortSignal;
}

export interface ScriptResult {
  /** The script's completion value, as data (undefined and functions become null). */
  value: unknown;
}

/** Why a script did not finish: its own error, a stop or a limit. The message is safe to show. */
export class ScriptError extends Error {}

export async function runScript(source: string, o: ScriptOptions = {}): Promise<ScriptResult> {
  const data = encodeValue(o.data ?? {});
  if (data.length > SANDBOX_VALUE_CHARS)
    throw new ScriptError(`the values handed to the script are larger than ${SANDBOX_VALUE_CHARS} characters`);
  if (o.signal?.aborted) throw new ScriptError('the script was stopped');
  const thread = await threads.acquire();
  if (o.signal?.aborted) {
    threads.release(thread); // aborted while waiting for a thread
    throw new ScriptError('the script was stopped');
  }
  const timeoutMs = o.timeoutMs ?? SANDBOX_TIMEOUT_MS;
  const req: RunRequest = {
    type: 'run',
    source,
    filename: o.filename ?? 'template.js',
    prelude: o.prelude,
    data,
    functions: Object.keys(o.functions ?? {}),
    deadline: Date.now() + timeoutMs,
    cpuMs: o.cpuMs ?? SANDBOX_CPU_MS,
    stackBytes: SANDBOX_STACK_BYTES,
  };
  return new Run(thread, o, req).result;
}

/** One run on one thread: answers its host calls, watches its limits, gives the thread back. */
class Run {
  readonly result: Promise<ScriptResult>;
  private settle!: (err: Error | undefined, value?: unknown) => void;
  private readonly ended = new AbortController();
  private done = false;
  private inCall = false;
  private computingSince = Date.now();
  private stopAt: number | undefined;
  private readonly watchdog: NodeJS.Timeout;

  constructor(
    private readonly t: SandboxThread,
    private readonly o: ScriptOptions,
    private readonly req: RunRequest,
  ) {
    this.result = new Promise<ScriptResult>((resolve, reject) => {
      this.settle = (err, value) => (err ? reject(err) : resolve({ value }));
    });
    Atomics.store(t.flags, ABORT, 0);
    t.worker.on('message', this.onMessage).on('error', this.onError).on('exit', this.onExit);
    o.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.watchdog = setInterval(() => this.watch(), 250);
    t.worker.postMessage(req);
  }

  private onMessage = (m: ThreadMessage) => {
    if (m.type === 'call') void this.call(m);
    else if (m.type === 'done') this.finish(m);
  };

  private onError = (err: Error) => this.end(new ScriptError(`the script sandbox failed: ${err.message}`), false);
  private onExit = (code: number) => this.end(new ScriptError(`the script sandbox ended (${code})`), false);
  private onAbort = () => this.stop();

  /** Asks the thread to stop (its interrupt handler sees the flag); past the grace time it is ended. */
  private stop(): void {
    this.ended.abort();
    Atomics.store(this.t.flags, ABORT, 1);
    Atomics.add(this.t.flags, REPLIES, 1);
    Atomics.notify(this.t.flags, REPLIES);
    this.stopAt ??= Date.now() + SANDBOX_GRACE_MS;
  }

  private watch(): void {
    const now = Date.now();
    if (this.stopAt !== undefined && now > this.stopAt)
      return this.end(new ScriptError('the script did not stop and was ended'), false);
    if (now > this.req.deadline) this.stop();
    else if (!this.inCall && now - this.computingSince > this.req.cpuMs + SANDBOX_GRACE_MS) {
      this.end(
        new ScriptError(`the script computed for more than ${this.req.cpuMs / 1000} s without calling the host`),
        false,
      );
    }
  }

  private async call(m: CallMessage): Promise<void> {
    this.inCall = true;
    let text: string;
    try {
      const fn = this.o.functions?.[m.name];
      if (!fn || !Object.hasOwn(this.o.functions!, m.name)) throw new Error(`${m.name} is not a host function`);
      if (this.ended.signal.aborted) throw new Error('the script was stopped');
      const args = decodeValue(m.text);
      text = `{"v":${encodeValue(await fn(Array.isArray(args) ? args : [], this.ended.signal))}}`;
      if (text.length > SANDBOX_VALUE_CHARS)
        throw new Error(`the answer of ${m.name} is larger than ${SANDBOX_VALUE_CHARS} characters`);
    } catch (err) {
      text = JSON.stringify({ e: String((err as Error)?.message ?? err).slice(0, 1000) });
    }
    if (this.done) return; // the thread may already run another script
    this.inCall = false;
    this.computingSince = Date.now();
    this.t.replies.postMessage({ id: m.id, text });
    Atomics.add(this.t.flags, REPLIES, 1);
    Atomics.notify(this.t.flags, REPLIES);
  }

  private finish(m: DoneMessage): void {
    if (m.error !== undefined) return this.end(new ScriptError(m.error), !m.broken);
    let value: unknown = null;
    try {
      value = decodeValue(m.value);
    } catch {
      // an unreadable completion value is no value
    }
    this.end(undefined, !m.broken, value);
  }

  private end(err: Error | undefined, reusable: boolean, value?: unknown): void {
    if (this.done) return;
    this.done = true;
    clearInterval(this.watchdog);
    this.o.signal?.removeEventListener('abort', this.onAbort);
    this.t.worker.off('message', this.onMessage).off('error', this.onError).off('exit', this.onExit);
    this.ended.abort();
    if (reusable) threads.release(this.t);
    else threads.discard(this.t);
    this.settle(err, value);
  }
}
