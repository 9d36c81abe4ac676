// The sandbox threads (js/worker.ts): started on first use, at most SANDBOX_MAX_THREADS at once (a run
// beyond waits for one), a few kept idle for the next runs and ended after SANDBOX_IDLE_MS. Idle threads
// never keep the process alive. The QuickJS WebAssembly module is compiled once, on the first run, and
// shared by every thread; `vigil scan` without a JavaScript flow never loads it.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { MessagePort, Worker } from 'node:worker_threads';
import { workerThreads } from '../lazy.ts';
import {
  SANDBOX_IDLE_MS,
  SANDBOX_IDLE_THREADS,
  SANDBOX_MAX_THREADS,
  SANDBOX_MEMORY_BYTES,
  SANDBOX_THREAD_STACK_MB,
  SANDBOX_VALUE_CHARS,
} from './limits.ts';
import { VM_CODEC, VM_INSTALL, VM_SETUP } from './marshal.ts';
import type { ThreadData, ThreadMessage } from './messages.ts';

const WORKER = new URL('./worker.mjs', import.meta.url);
const WASM_FILE = '@jitl/quickjs-wasmfile-release-sync/wasm';

export interface SandboxThread {
  worker: Worker;
  flags: Int32Array;
  /** Our end of the answer channel. */
  replies: MessagePort;
  idleTimer?: NodeJS.Timeout;
  ended?: boolean;
}

let compiled: Promise<WebAssembly.Module> | undefined;

/** The QuickJS module, compiled once (the file is found from the sources and from the bundles alike). */
function wasmModule(): Promise<WebAssembly.Module> {
  compiled ??= (async () => WebAssembly.compile(readFileSync(createRequire(import.meta.url).resolve(WASM_FILE))))();
  compiled.catch(() => {
    compiled = undefined;
  });
  return compiled;
}

async function spawn(): Promise<SandboxThread> {
  const wasm = await wasmModule();
  const { Worker, MessageChannel } = workerThreads();
  const sab = new SharedArrayBuffer(8);
  const channel = new MessageChannel();
  const workerData: ThreadData = {
    wasm,
    memoryBytes: SANDBOX_MEMORY_BYTES,
    valueChars: SANDBOX_VALUE_CHARS,
    flags: sab,
    replies: channel.port2,
    vm: { codec: VM_CODEC, setup: VM_SETUP, install: VM_INSTALL },
  };
  const worker = new Worker(WORKER, {
    workerData,
    transferList: [channel.port2],
    // The thread needs nothing of the environment (and so holds no DATABASE_URL or key).
    env: {},
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: SANDBOX_THREAD_STACK_MB },
  });
  await new Promise<void>((resolve, reject) => {
    const onMessage = (m: ThreadMessage) => {
      if (m.type !== 'ready') return;
      worker.off('error', onError).off('exit', onExit).off('message', onMessage);
      resolve();
    };
    const onError = (err: Error) => reject(new Error(`the script sandbox did not start: ${err.message}`));
    const onExit = (code: number) => reject(new Error(`the script sandbox did not start (exit ${code})`));
    worker.on('message', onMessage).once('error', onError).once('exit', onExit);
  });
  const t: SandboxThread = { worker, flags: new Int32Array(sab), replies: channel.port1 };
  // A thread that fails between runs is dropped (a run in progress hears of it through its own listeners).
  worker.on('error', () => {}).once('exit', () => threads.dropIdle(t));
  return t;
}

class ThreadPool {
  private idle: SandboxThread[] = [];
  private count = 0;
  private waiting: { resolve: (t: SandboxThread) => void; reject: (err: Error) => void }[] = [];

  async acquire(): Promise<SandboxThread> {
    const t = this.idle.pop();
    if (t) {
      clearTimeout(t.idleTimer);
      t.worker.ref();
      return t;
    }
    if (this.count >= SANDBOX_MAX_THREADS)
      return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
    this.count++;
    try {
      return await spawn();
    } catch (err) {
      this.count--;
      throw err;
    }
  }

  /** A thread whose run ended normally: to a waiting run, to the idle list, or ended. */
  release(t: SandboxThread): void {
    const next = this.waiting.shift();
    if (next) return next.resolve(t);
    if (this.idle.length >= SANDBOX_IDLE_THREADS) return this.discard(t);
    t.worker.unref();
    t.idleTimer = setTimeout(() => {
      this.idle = this.idle.filter((x) => x !== t);
      this.discard(t);
    }, SANDBOX_IDLE_MS).unref();
    this.idle.push(t);
  }

  dropIdle(t: SandboxThread): void {
    if (!t.ended && this.idle.includes(t)) {
      this.idle = this.idle.filter((x) => x !== t);
      clearTimeout(t.idleTimer);
      this.discard(t);
    }
  }

  /** Ends a thread (stuck, broken or not needed); a waiting run gets a new one. */
  discard(t: SandboxThread): void {
    if (t.ended) return;
    t.ended = true;
    this.count--;
    void t.worker.terminate();
    t.replies.close();
    const next = this.waiting.shift();
    if (!next) return;
    this.count++;
    spawn().then(next.resolve, (err: Error) => {
      this.count--;
      next.reject(err);
    });
  }
}

export const threads = new ThreadPool();
