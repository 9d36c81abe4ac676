// Flows with JavaScript statements (`if`, `for ... of iterate(...)`, `set`, `template.x`): the script
// runs in the engine's JavaScript sandbox (QuickJS in WebAssembly, js/sandbox.ts) and calls the
// template's blocks synchronously, as nuclei's flow engine does: `http(1)` is a host call that runs the
// block on the engine thread while the script waits. The script sees `template` (the variables and every
// value exported so far), `set`, `log`, `iterate` and one function per protocol, nothing else.
import { runScript, ScriptError } from '../js/sandbox.ts';
import { FLOW_PROTOCOLS, type FlowCall } from './simple.ts';

/** The values handed to the script per answer, as JSON text; the largest are left out past it. */
const VALUES_BYTES = 1024 * 1024;

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

// The flow's globals, built inside the sandbox from the host functions `call`, `set` and `log`.
// `template` cannot be replaced; after each block it takes the values the block exported.
const PRELUDE = `
  'use strict';
  const assign = Object.assign, isArray = Array.isArray, stringify = JSON.stringify, Str = String;
  const template = data.values;
  Object.defineProperty(globalThis, 'template', { value: template });
  globalThis.set = function set(name, value) {
    template[name] = value;
    host.set(Str(name), value === undefined ? null : value);
  };
  globalThis.log = function log(...args) {
    const parts = [];
    for (const a of args) parts.push(typeof a === 'string' ? a : stringify(a));
    host.log(parts.join(' '));
  };
  globalThis.iterate = function iterate(...args) {
    const out = [];
    for (const a of args) {
      if (a === undefined || a === null || a === '') continue;
      if (isArray(a)) { for (const x of a) if (x !== undefined && x !== null && x !== '') out.push(x); } else out.push(a);
    }
    return out;
  };
  for (const p of data.protocols) {
    globalThis[p] = function (...ids) {
      const names = [];
      for (const id of ids) names.push(Str(id));
      const answer = host.call(p, names);
      assign(template, answer.values);
      return answer.passed === true;
    };
  }
`;

/** Names `set()` may not take: on the host they would change the shared values' prototype. */
const UNSAFE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export async function runJsFlow(source: string, call: FlowCall, o: JsFlowOptions): Promise<boolean> {
  try {
    const { value } = await runScript(source, {
      filename: 'flow.js',
      prelude: PRELUDE,
      data: { values: plain(o.values()), protocols: FLOW_PROTOCOLS },
      timeoutMs: o.timeoutMs,
      signal: o.signal,
      functions: {
        call: async ([protocol, ids]) => {
          const names = Array.isArray(ids) ? ids.map(String) : [];
          const passed = await call(protocol === 'network' ? 'tcp' : String(protocol), names).catch(() => false);
          return { passed, values: plain(o.values()) };
        },
        set: ([name, value]) => {
          const key = String(name);
          if (UNSAFE_NAMES.has(key)) throw new Error(`set(): '${key}' is not a variable name`);
          o.set(key, value);
          return null;
        },
        log: ([text]) => {
          o.log?.(String(text).slice(0, 4096));
          return null;
        },
      },
    });
    return value === true || (value !== null && typeof value !== 'object' && Boolean(value));
  } catch (err) {
    throw err instanceof ScriptError ? new Error(`flow: ${err.message}`) : err;
  }
}

/**
 * Values the script can see: JSON-safe copies (Buffers and functions left out). Flows export every
 * response value (`http_body` ...): when they do not all fit VALUES_BYTES, the largest are left out
 * first, so the small ones (extracted values, `set()` values) always reach the script.
 */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null); // a key "__proto__" stays a key
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
  if (total > VALUES_BYTES - 64) {
    for (const [k, n] of sizes.sort((a, b) => b[1] - a[1])) {
      if (total <= VALUES_BYTES - 64) break;
      delete out[k];
      total -= n;
    }
  }
  return out;
}
