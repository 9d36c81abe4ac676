// What the engine thread and a sandbox thread (js/worker.ts) say to each other. Values travel as the
// text of js/marshal.ts; the thread never parses them (it hands text between the script and the host).
import type { MessagePort } from 'node:worker_threads';

/** workerData of a sandbox thread. */
export interface ThreadData {
  /** The compiled QuickJS WebAssembly module (compiled once per process, shared by every thread). */
  wasm: WebAssembly.Module;
  memoryBytes: number;
  /** Largest encoded value, in characters. */
  valueChars: number;
  /** Script sources the thread runs in each context first (js/marshal.ts). */
  vm: { codec: string; setup: string; install: string };
  /**
   * Int32 slots: [REPLIES] counts answers posted on `replies` (the thread waits on it with
   * Atomics.wait while the host runs a call), [ABORT] is 1 when the run must stop.
   */
  flags: SharedArrayBuffer;
  /** Answers to host calls, read with receiveMessageOnPort while the thread is blocked. */
  replies: MessagePort;
}

// worker.mjs (plain JavaScript, started without a TypeScript loader) uses the same slot numbers.
export const REPLIES = 0;
export const ABORT = 1;

export interface RunRequest {
  type: 'run';
  source: string;
  filename: string;
  /** Trusted setup code, body of a function of (host, data); without it, both become globals. */
  prelude?: string;
  /** Encoded object of the values handed to the script. */
  data: string;
  /** Names of the host functions. */
  functions: string[];
  /** Epoch ms: the whole run's end. */
  deadline: number;
  cpuMs: number;
  stackBytes: number;
}

/** A host call: `text` is the encoded array of arguments. */
export interface CallMessage {
  type: 'call';
  id: number;
  name: string;
  text: string;
}

export interface DoneMessage {
  type: 'done';
  /** Encoded completion value of the script ('null' when it failed). */
  value: string;
  error?: string;
  /** The QuickJS instance cannot be trusted any more (a trap inside WebAssembly): end the thread. */
  broken?: boolean;
}

export type ThreadMessage = { type: 'ready' } | CallMessage | DoneMessage;

/** Answer to a host call: `{"v": value}` or `{"e": "message"}` as text. */
export interface ReplyMessage {
  id: number;
  text: string;
}
