// A sandbox thread: runs scripts in QuickJS (WebAssembly), one at a time, each in a new QuickJS runtime
// and context. Nothing of Node.js is inside: the script's world is QuickJS's standard built-ins, the
// values handed in as text and one function, `call(name, text)`, that posts the call to the engine
// thread and blocks (Atomics.wait) until the answer is there. See js/sandbox.ts for the host side and
// js/messages.ts for the messages. Plain JavaScript, so a thread starts without a TypeScript loader
// (about a sixth of the time); the script sources it runs come from js/marshal.ts through workerData.
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import variant from '@jitl/quickjs-wasmfile-release-sync';

const REPLIES = 0; // messages.ts
const ABORT = 1;
const WASM_PAGE = 65536;

/** @type {import('./messages.ts').ThreadData} */
const data = workerData;
const flags = new Int32Array(data.flags);
let callId = 0; // unique per thread: an answer to a call of an earlier run is never taken for a new one

// The memory's maximum is the cap: QuickJS's malloc fails past it and the script gets "out of memory".
const memory = new WebAssembly.Memory({ initial: 256, maximum: data.memoryBytes / WASM_PAGE });
const qjs = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: data.wasm, wasmMemory: memory }));

/** @param {import('./messages.ts').RunRequest} req @returns {import('./messages.ts').DoneMessage} */
function run(req) {
  const rt = qjs.newRuntime();
  /** @type {{ reason?: 'aborted' | 'deadline' | 'cpu' }} */
  const stop = {};
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
  const handles = [];
  const keep = (h) => (handles.push(h), h);
  const stopped = () =>
    stop.reason === 'aborted'
      ? 'the script was stopped'
      : stop.reason === 'deadline'
        ? 'the script ran past its deadline'
        : `the script computed for more than ${req.cpuMs / 1000} s without calling the host`;
  try {
    const bridge = keep(
      ctx.newFunction('call', (nameH, textH) => {
        if (ctx.typeof(nameH) !== 'string' || ctx.typeof(textH) !== 'string')
          return ctx.newString('{"e":"bad host call"}');
        const text = ctx.getString(textH);
        if (text.length > data.valueChars)
          return ctx.newString(JSON.stringify({ e: `the arguments are larger than ${data.valueChars} characters` }));
        const answer = hostCall(++callId, ctx.getString(nameH), text, req.deadline);
        computeUntil = Date.now() + req.cpuMs;
        return ctx.newString(answer ?? '{"e":"the script was stopped"}');
      }),
    );
    const codec = keep(ctx.unwrapResult(ctx.evalCode(data.vm.codec, 'codec.js', { type: 'global', strict: true })));
    const setup = keep(ctx.unwrapResult(ctx.evalCode(data.vm.setup, 'setup.js', { type: 'global', strict: true })));
    const names = keep(ctx.newArray());
    req.functions.forEach((n, i) => ctx.setProp(names, i, keep(ctx.newString(n))));
    const pair = keep(
      ctx.unwrapResult(ctx.callFunction(setup, ctx.undefined, codec, bridge, names, keep(ctx.newString(req.data)))),
    );
    const install = keep(
      ctx.unwrapResult(
        ctx.evalCode(
          req.prelude === undefined ? data.vm.install : `(function (host, data) {\n${req.prelude}\n})`,
          'prelude.js',
          { type: 'global', strict: true },
        ),
      ),
    );
    keep(
      ctx.unwrapResult(
        ctx.callFunction(install, ctx.undefined, keep(ctx.getProp(pair, 0)), keep(ctx.getProp(pair, 1))),
      ),
    );
    computeUntil = Date.now() + req.cpuMs; // the setup's time is not the script's
    const fail = (errorH) => {
      keep(errorH);
      const message = stop.reason ? undefined : failure(ctx, codec, errorH); // may itself be interrupted
      return { type: 'done', value: 'null', error: stop.reason ? stopped() : (message ?? 'the script failed') };
    };
    const result = ctx.evalCode(req.source, req.filename, { type: 'global', strict: false });
    if (result.error) return fail(result.error);
    const value = keep(result.value);
    // Promise callbacks the script queued run now, under the same limits (nuclei's goja runs its job
    // queue at the end of a script too).
    while (rt.hasPendingJob() && stop.reason === undefined) {
      const jobs = rt.executePendingJobs();
      if (jobs.error) return fail(jobs.error);
    }
    if (stop.reason) return { type: 'done', value: 'null', error: stopped() };
    const encode = keep(ctx.getProp(codec, 'encode'));
    const text = ctx.callFunction(encode, ctx.undefined, value);
    if (text.error) {
      keep(text.error);
      return { type: 'done', value: 'null' };
    }
    const out = ctx.getString(keep(text.value));
    return { type: 'done', value: out.length > data.valueChars ? 'null' : out };
  } finally {
    for (const h of handles) if (h.alive) h.dispose();
    ctx.dispose();
    rt.dispose();
  }
}

/** The message of what the script threw, read inside the sandbox (a getter there runs there). */
function failure(ctx, codec, errorH) {
  if (ctx.typeof(errorH) === 'object' && ctx.dump(errorH) === null)
    return 'the script ran out of memory (or threw null)';
  const describe = ctx.getProp(codec, 'message');
  try {
    const text = ctx.callFunction(describe, ctx.undefined, errorH);
    if (text.error) {
      text.error.dispose();
      return undefined;
    }
    const message = ctx.typeof(text.value) === 'string' ? ctx.getString(text.value) : undefined;
    text.value.dispose();
    return message?.slice(0, 1000);
  } finally {
    describe.dispose();
  }
}

/**
 * Posts a call to the engine thread and blocks until its answer (or the run's end). Answers are counted
 * in flags[REPLIES], so one posted between a check and the wait is never missed; an answer of an
 * earlier, abandoned call is dropped by its id.
 */
function hostCall(id, name, text, deadline) {
  parentPort.postMessage({ type: 'call', id, name, text });
  for (;;) {
    const seen = Atomics.load(flags, REPLIES);
    for (let m = receiveMessageOnPort(data.replies); m; m = receiveMessageOnPort(data.replies)) {
      if (m.message.id === id) return m.message.text;
    }
    const left = deadline - Date.now();
    if (Atomics.load(flags, ABORT) === 1 || left <= 0) return undefined;
    Atomics.wait(flags, REPLIES, seen, Math.min(left, 1000));
  }
}

parentPort.on('message', (req) => {
  let done;
  try {
    done = run(req);
  } catch (err) {
    // A trap inside WebAssembly (the thread's own stack exhausted, an assertion of QuickJS): this
    // instance is not used again.
    done = {
      type: 'done',
      value: 'null',
      error: `the script failed inside the sandbox (${err?.message})`,
      broken: true,
    };
  }
  parentPort.postMessage(done);
});
parentPort.postMessage({ type: 'ready' });
