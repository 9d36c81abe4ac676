// Flows with JavaScript statements (`if`, `for ... of iterate(...)`, `set`, `template.x`): the script runs
// in a node:vm context inside its own worker thread, with a memory cap, and calls the template's blocks
// synchronously, as nuclei's flow engine does: a call posts a message and the script's thread waits
// (Atomics.wait) until this thread has run the block and written the answer into shared memory. A
// script that computes for more than FLOW_CPU_MS without calling a block is stopped (its thread is
// terminated), and so is one that runs longer than the flow's total deadline.
import { Worker } from 'node:worker_threads';
import type { FlowCall } from './simple.ts';

const ANSWER_BYTES = 1024 * 1024;
const FLOW_CPU_MS = 5_000;

export interface JsFlowOptions {
  /** The values `template` shows the script (variables, extracted values); read before each answer. */
  values: () => Record<string, unknown>;
  /** `set(name, value)` in the script. */
  set: (name: string, value: unknown) => void;
  log?: (text: string) => void;
  /** Whole-flow deadline. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

// The script's side: builds the context, runs the flow, blocks on each protocol call.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const flag = new Int32Array(workerData.sab, 0, 2);
const bytes = new Uint8Array(workerData.sab, 8);
const decoder = new TextDecoder();
let template = workerData.values;
const pending = {};
const call = (protocol) => (...ids) => {
  Atomics.store(flag, 0, 0);
  parentPort.postMessage({ type: 'call', protocol, ids: ids.map(String), sets: Object.assign({}, pending) });
  for (const k of Object.keys(pending)) delete pending[k];
  Atomics.wait(flag, 0, 0);
  const answer = JSON.parse(decoder.decode(bytes.subarray(0, Atomics.load(flag, 1))));
  Object.assign(template, answer.values);
  return answer.passed;
};
const sandbox = {
  set(name, value) { template[name] = value; pending[name] = value; },
  iterate(...args) {
    const out = [];
    for (const a of args) {
      if (a === undefined || a === null || a === '') continue;
      if (Array.isArray(a)) out.push(...a.filter((x) => x !== undefined && x !== null && x !== ''));
      else out.push(a);
    }
    return out;
  },
  log(...args) { parentPort.postMessage({ type: 'log', text: args.map((a) => typeof a === 'string' ? a : JSON.stringify(a)).join(' ') }); },
  JSON, Math, Number, String, Boolean, Array, Object, RegExp, Date, parseInt, parseFloat, isNaN,
};
Object.defineProperty(sandbox, 'template', { get: () => template });
for (const p of workerData.protocols) sandbox[p] = call(p);
const ctx = vm.createContext(sandbox, { codeGeneration: { strings: false, wasm: false } });
try {
  const value = vm.runInContext(workerData.source, ctx, { timeout: workerData.timeoutMs });
  parentPort.postMessage({ type: 'done', value: Boolean(value), sets: pending });
} catch (err) {
  parentPort.postMessage({ type: 'error', message: String(err && err.message || err) });
}
`;

const PROTOCOL_FUNCTIONS = ['http', 'dns', 'tcp', 'network', 'ssl', 'file', 'headless', 'websocket', 'whois', 'code', 'javascript'];

export function runJsFlow(source: string, call: FlowCall, o: JsFlowOptions): Promise<boolean> {
  const sab = new SharedArrayBuffer(8 + ANSWER_BYTES);
  const flag = new Int32Array(sab, 0, 2);
  const bytes = new Uint8Array(sab, 8);
  const timeoutMs = o.timeoutMs ?? 300_000;
  const worker = new Worker(WORKER, {
    eval: true,
    workerData: { sab, source, values: plain(o.values()), protocols: PROTOCOL_FUNCTIONS, timeoutMs },
    resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
  });
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    let computingSince = Date.now();
    const finish = (err: Error | undefined, value?: boolean) => {
      if (settled) return;
      settled = true;
      clearInterval(watchdog);
      o.signal?.removeEventListener('abort', onAbort);
      void worker.terminate();
      if (err) reject(err);
      else resolve(value ?? false);
    };
    const onAbort = () => finish(new Error('flow stopped'));
    o.signal?.addEventListener('abort', onAbort, { once: true });
    const started = Date.now();
    // The script's own computing time (between block calls) and the whole flow are both bounded.
    const watchdog = setInterval(() => {
      if (computingSince && Date.now() - computingSince > FLOW_CPU_MS) finish(new Error(`the flow script ran ${FLOW_CPU_MS / 1000} s without calling a block`));
      else if (Date.now() - started > timeoutMs) finish(new Error('the flow took longer than its deadline'));
    }, 250);
    const answer = (passed: boolean) => {
      let text = JSON.stringify({ passed, values: plain(o.values()) });
      if (Buffer.byteLength(text) > ANSWER_BYTES) text = JSON.stringify({ passed, values: {} });
      const n = new TextEncoder().encodeInto(text, bytes).written;
      Atomics.store(flag, 1, n);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      computingSince = Date.now();
    };
    worker.on('message', (m: { type: string; protocol?: string; ids?: string[]; sets?: Record<string, unknown>; text?: string; value?: boolean; message?: string }) => {
      if (m.type === 'log') return o.log?.(String(m.text ?? ''));
      if (m.type === 'error') return finish(new Error(`flow: ${m.message}`));
      for (const [k, v] of Object.entries(m.sets ?? {})) o.set(k, v);
      if (m.type === 'done') return finish(undefined, m.value);
      if (m.type === 'call') {
        computingSince = 0;
        call(m.protocol === 'network' ? 'tcp' : m.protocol!, m.ids ?? []).then(answer, () => answer(false));
      }
    });
    worker.on('error', (err) => finish(new Error(`flow: ${err.message}`)));
    worker.on('exit', (code) => finish(new Error(`flow: the script's thread ended (${code})`)));
  });
}

/** Values the script can see: JSON-safe copies (Buffers and functions left out). */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out[k] = v;
  }
  return out;
}
