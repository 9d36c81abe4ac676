// A sandbox thread: runs scripts in QuickJS (WebAssembly), one at a time, each in a new QuickJS runtime
// and context. Nothing of Node.js is inside: the script's world is QuickJS's standard built-ins, the
// values handed in as text and one function, `call(name, text)`, that posts the call to the engine
// thread and blocks (Atomics.wait) until the answer is there. See js/sandbox.ts for the host side.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSHandle, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';
import syncVariant from '@jitl/quickjs-wasmfile-release-sync';
import { VM_CODEC } from './marshal.ts';
import { SANDBOX_VALUE_CHARS } from './limits.ts';
import { ABORT, REPLIES, type DoneMessage, type ReplyMessage, type RunRequest, type ThreadData, type ThreadMessage } from './messages.ts';

const data = workerData as ThreadData;
const flags = new Int32Array(data.flags);
const post = (m: ThreadMessage) => parentPort!.postMessage(m);
const WASM_PAGE = 65536;
let callId = 0; // unique per thread: an answer to a call of an earlier run is never taken for a new one

// Builds the host functions' script side from the codec and the bridge, and decodes the values handed
// in: strict mode, built-ins kept in the closure (a script replacing JSON.parse changes nothing here).
const SETUP = `(function (codec, call, names, dataText) {
  'use strict';
  const Err = Error, create = Object.create, encode = codec.encode, decode = codec.decode;
  const host = create(null);
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    host[name] = function (...args) {
      const answer = decode(call(name, encode(args)));
      if (answer.e !== undefined) throw new Err(answer.e);
      return answer.v;
    };
  }
  return [host, decode(dataText)];
})`;

// Without a prelude, the host functions and the values become globals.
const INSTALL = `(function (host, data) {
  for (const k in host) globalThis[k] = host[k];
  for (const k in data) globalThis[k] = data[k];
})`;

async function start(): Promise<QuickJSWASMModule> {
  const memory = new WebAssembly.Memory({ initial: 256, maximum: data.memoryBytes / WASM_PAGE });
  // The package's types describe its CommonJS build; imported as a module, its default export is the variant.
  const variant = syncVariant as unknown as QuickJSSyncVariant;
  return newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: data.wasm, wasmMemory: memory }));
}

class Stopped {
  reason: 'aborted' | 'deadline' | 'cpu' | undefined;
}

function run(qjs: QuickJSWASMModule, req: RunRequest): DoneMessage {
  const rt = qjs.newRuntime();
  const stop = new Stopped();
  let computeUntil = Date.now() + req.cpuMs;
  rt.setMemoryLimit(data.memoryBytes);
  rt.setMaxStackSize(req.stackBytes);
  rt.setInterruptHandler(() => {
    if (Atomics.load(flags, ABORT) === 1) stop.reason = 'aborted';
    else {
      const now = Date.now();
      if (now > req.deadline) stop.reason = 'deadline';
      else if (now > computeUntil) stop.reason = 'cpu';
    }
    return stop.reason !== undefined;
  });
  const ctx = rt.newContext();
  const handles: QuickJSHandle[] = [];
  const keep = (h: QuickJSHandle) => (handles.push(h), h);
  try {
    const bridge = keep(ctx.newFunction('call', (nameH, textH) => {
      if (ctx.typeof(nameH) !== 'string' || ctx.typeof(textH) !== 'string') return ctx.newString('{"e":"bad host call"}');
      const text = ctx.getString(textH);
      if (text.length > SANDBOX_VALUE_CHARS) return ctx.newString(JSON.stringify({ e: `the arguments are larger than ${SANDBOX_VALUE_CHARS} characters` }));
      const answer = hostCall(++callId, ctx.getString(nameH), text, req.deadline);
      computeUntil = Date.now() + req.cpuMs;
      return ctx.newString(answer ?? '{"e":"the script was stopped"}');
    }));
    const codec = keep(ctx.unwrapResult(ctx.evalCode(VM_CODEC, 'codec.js', { type: 'global', strict: true })));
    const setup = keep(ctx.unwrapResult(ctx.evalCode(SETUP, 'setup.js', { type: 'global', strict: true })));
    const names = keep(ctx.newArray());
    req.functions.forEach((n, i) => ctx.setProp(names, i, keep(ctx.newString(n))));
    const pair = keep(ctx.unwrapResult(ctx.callFunction(setup, ctx.undefined, codec, bridge, names, keep(ctx.newString(req.data)))));
    const host = keep(ctx.getProp(pair, 0));
    const values = keep(ctx.getProp(pair, 1));
    const install = keep(ctx.unwrapResult(ctx.evalCode(
      req.prelude === undefined ? INSTALL : `(function (host, data) {\n${req.prelude}\n})`, 'prelude.js', { type: 'global', strict: true },
    )));
    keep(ctx.unwrapResult(ctx.callFunction(install, ctx.undefined, host, values)));
    computeUntil = Date.now() + req.cpuMs; // the setup's time is not the script's
    const result = ctx.evalCode(req.source, req.filename, { type: 'global', strict: false });
    if (result.error) return { type: 'done', value: 'null', error: failure(ctx, codec, keep(result.error), stop, req) };
    const value = keep(result.value);
    // Promise callbacks the script queued run now, under the same limits (nuclei's goja runs its job
    // queue at the end of a script too).
    while (rt.hasPendingJob() && stop.reason === undefined) {
      const jobs = rt.executePendingJobs();
      if (jobs.error) return { type: 'done', value: 'null', error: failure(ctx, codec, keep(jobs.error), stop, req) };
    }
    if (stop.reason) return { type: 'done', value: 'null', error: stoppedMessage(stop, req) };
    const encode = keep(ctx.getProp(codec, 'encode'));
    const text = ctx.callFunction(encode, ctx.undefined, value);
    if (text.error) {
      keep(text.error);
      return { type: 'done', value: 'null' };
    }
    const out = ctx.getString(keep(text.value));
    return { type: 'done', value: out.length > SANDBOX_VALUE_CHARS ? 'null' : out };
  } finally {
    for (const h of handles) if (h.alive) h.dispose();
    ctx.dispose();
    rt.dispose();
  }
}

function stoppedMessage(stop: Stopped, req: RunRequest): string {
  if (stop.reason === 'aborted') return 'the script was stopped';
  if (stop.reason === 'deadline') return 'the script ran past its deadline';
  return `the script computed for more than ${req.cpuMs / 1000} s without calling the host`;
}

/** The message of what the script threw, read inside the sandbox (a getter there runs there). */
function failure(ctx: QuickJSContext, codec: QuickJSHandle, error: QuickJSHandle, stop: Stopped, req: RunRequest): string {
  if (stop.reason) return stoppedMessage(stop, req);
  const describe = ctx.getProp(codec, 'message');
  try {
    const text = ctx.callFunction(describe, ctx.undefined, error);
    if (text.error) {
      text.error.dispose();
      return stop.reason ? stoppedMessage(stop, req) : 'the script failed';
    }
    const message = ctx.typeof(text.value) === 'string' ? ctx.getString(text.value) : 'the script failed';
    text.value.dispose();
    return message.slice(0, 1000);
  } finally {
    describe.dispose();
  }
}

/**
 * Posts a call to the engine thread and blocks until its answer (or the run's end). Answers are counted
 * in flags[REPLIES], so one posted between a check and the wait is never missed; an answer of an
 * earlier, abandoned call is dropped by its id.
 */
function hostCall(id: number, name: string, text: string, deadline: number): string | undefined {
  post({ type: 'call', id, name, text });
  for (;;) {
    const seen = Atomics.load(flags, REPLIES);
    for (let m = receiveMessageOnPort(data.replies); m; m = receiveMessageOnPort(data.replies)) {
      const reply = m.message as ReplyMessage;
      if (reply.id === id) return reply.text;
    }
    const left = deadline - Date.now();
    if (Atomics.load(flags, ABORT) === 1 || left <= 0) return undefined;
    Atomics.wait(flags, REPLIES, seen, Math.min(left, 1000));
  }
}

const qjs = await start();
parentPort!.on('message', (req: RunRequest) => {
  let done: DoneMessage;
  try {
    done = run(qjs, req);
  } catch (err) {
    // A trap inside WebAssembly (the thread's own stack exhausted, an assertion of QuickJS): this
    // instance is not used again.
    done = { type: 'done', value: 'null', error: `the script failed inside the sandbox (${(err as Error).message})`, broken: true };
  }
  post(done);
});
post({ type: 'ready' });
