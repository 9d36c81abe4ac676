// Flows with JavaScript statements (`if`, `for ... of iterate(...)`, `set`, `template.x`): the script runs
// in a node:vm context inside its own worker thread, with a memory cap, and calls the template's blocks
// synchronously, as nuclei's flow engine does: a call posts a message and the script's thread waits
// (Atomics.wait) until this thread has run the block and written the answer into shared memory. A
// script that computes for more than FLOW_CPU_MS without calling a block is stopped (its thread is
// terminated), and so is one that runs longer than the flow's total deadline.
import { FLOW_PROTOCOLS, type FlowCall } from './simple.ts';
import { workerThreads } from '../lazy.ts';

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

// The script's side. node:vm is not a security boundary by itself: a script that reaches any object of
// this thread's realm (a function we hand it, an error we throw into it) can climb to its Function
// constructor and out. So the context starts empty, everything the script sees is created inside the
// context from JSON text, and the one host function (`bridge`) stays in the closure of in-context
// functions, strict mode, and never throws: it answers strings.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const flag = new Int32Array(workerData.sab, 0, 2);
const bytes = new Uint8Array(workerData.sab, 8);
const decoder = new TextDecoder();
function bridge(kind, a, b) {
  try {
    if (kind === 'log') { parentPort.postMessage({ type: 'log', text: String(a).slice(0, 4096) }); return ''; }
    if (kind === 'set') { parentPort.postMessage({ type: 'set', name: String(a), json: String(b) }); return ''; }
    if (kind === 'call') {
      Atomics.store(flag, 0, 0);
      parentPort.postMessage({ type: 'call', protocol: String(a), ids: JSON.parse(String(b)) });
      Atomics.wait(flag, 0, 0);
      return decoder.decode(bytes.subarray(0, Atomics.load(flag, 1)));
    }
  } catch (err) {
    return '{"passed":false,"values":{}}';
  }
  return '';
}
const ctx = vm.createContext(Object.create(null), { codeGeneration: { strings: false, wasm: false } });
const install = vm.runInContext(\`(function (bridge, protocols, valuesJson) {
  'use strict';
  const template = JSON.parse(valuesJson);
  Object.defineProperty(globalThis, 'template', { value: template });
  globalThis.set = function set(name, value) {
    template[name] = value;
    bridge('set', String(name), JSON.stringify(value === undefined ? null : value));
  };
  globalThis.log = function log(...args) {
    bridge('log', args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  };
  globalThis.iterate = function iterate(...args) {
    const out = [];
    for (const a of args) {
      if (a === undefined || a === null || a === '') continue;
      if (Array.isArray(a)) { for (const x of a) if (x !== undefined && x !== null && x !== '') out.push(x); } else out.push(a);
    }
    return out;
  };
  for (const p of JSON.parse(protocols)) {
    globalThis[p] = function (...ids) {
      const answer = JSON.parse(bridge('call', p, JSON.stringify(ids.map(String))));
      Object.assign(template, answer.values);
      return answer.passed === true;
    };
  }
})\`, ctx);
install(bridge, JSON.stringify(workerData.protocols), JSON.stringify(workerData.values));
try {
  const value = vm.runInContext(workerData.source, ctx, { timeout: workerData.timeoutMs });
  parentPort.postMessage({ type: 'done', value: value === true || (typeof value !== 'object' && Boolean(value)) });
} catch (err) {
  let message = 'the flow script failed';
  try { message = String(err && err.message); } catch {}
  parentPort.postMessage({ type: 'error', message });
}
`;


export function runJsFlow(source: string, call: FlowCall, o: JsFlowOptions): Promise<boolean> {
  const sab = new SharedArrayBuffer(8 + ANSWER_BYTES);
  const flag = new Int32Array(sab, 0, 2);
  const bytes = new Uint8Array(sab, 8);
  const timeoutMs = o.timeoutMs ?? 300_000;
  const worker = new (workerThreads().Worker)(WORKER, {
    eval: true,
    workerData: { sab, source, values: plain(o.values()), protocols: FLOW_PROTOCOLS, timeoutMs },
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
      const text = JSON.stringify({ passed, values: plain(o.values()) });
      const n = new TextEncoder().encodeInto(text, bytes).written;
      Atomics.store(flag, 1, n);
      Atomics.store(flag, 0, 1);
      Atomics.notify(flag, 0);
      computingSince = Date.now();
    };
    worker.on('message', (m: { type: string; protocol?: string; ids?: string[]; name?: string; json?: string; text?: string; value?: boolean; message?: string }) => {
      if (m.type === 'log') return o.log?.(String(m.text ?? ''));
      if (m.type === 'error') return finish(new Error(`flow: ${m.message}`));
      if (m.type === 'set') {
        try {
          o.set(String(m.name), JSON.parse(String(m.json)));
        } catch {
          // a value JSON cannot carry is not set
        }
        return;
      }
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

/**
 * Values the script can see: JSON-safe copies (Buffers and functions left out). Flows export every
 * response value (`http_body` ...): when they do not all fit the answer buffer, the largest are left
 * out first, so the small ones (extracted values, `set()` values) always reach the script.
 */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const sizes: [string, number][] = [];
  let total = 0;
  for (const [k, v] of Object.entries(values)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) out[k] = v;
    else continue;
    const n = Buffer.byteLength(JSON.stringify(k)) + Buffer.byteLength(JSON.stringify(v)) + 2; // bytes as JSON text
    sizes.push([k, n]);
    total += n;
  }
  if (total > ANSWER_BYTES - 64) {
    for (const [k, n] of sizes.sort((a, b) => b[1] - a[1])) {
      if (total <= ANSWER_BYTES - 64) break;
      delete out[k];
      total -= n;
    }
  }
  return out;
}
