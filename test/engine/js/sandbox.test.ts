// The sandbox's interface as its users see it (flows now, the javascript protocol next): host functions
// that are async on the host and blocking in the script, values both ways (byte arrays included),
// host errors as plain script errors, a prelude that builds the script's globals, the whole-run deadline
// across host calls, abort, more runs at once than threads, and nothing kept from one run to the next.
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScript, ScriptError } from '../../../src/engine/js/sandbox.ts';
import { SANDBOX_MAX_THREADS } from '../../../src/engine/js/limits.ts';

// A real TCP server, for a host function doing real network I/O while the script waits.
let echo: Server;
let port = 0;
beforeAll(async () => {
  echo = createServer((s) => s.on('data', (d) => s.end(Buffer.concat([Buffer.from('echo:'), d]))));
  await new Promise<void>((r) => echo.listen(0, '127.0.0.1', r));
  port = (echo.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((r) => echo.close(() => r())));

/** A host function that sends bytes to the echo server and answers what came back. */
async function send([data]: unknown[]): Promise<Buffer> {
  const { connect } = await import('node:net');
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect(port, '127.0.0.1', () => s.end(data as Buffer));
    s.on('data', (c) => chunks.push(c))
      .on('end', () => resolve(Buffer.concat(chunks)))
      .on('error', reject);
  });
}

describe('the sandbox interface', () => {
  it('an async host function is a blocking call in the script; bytes and plain values cross both ways', async () => {
    const got: unknown[] = [];
    const r = await runScript(
      `
      const reply = send(new Uint8Array([104, 105, 0, 255]));
      record({ text: 'x', n: 1.5, ok: true, none: null, list: [1, 'two', [3]], bytes: reply, nested: { deep: { er: 'y' } } });
      [reply instanceof Uint8Array, reply.length, reply[reply.length - 1], String.fromCharCode(...reply.subarray(0, 5))]`,
      {
        functions: {
          send,
          record: ([v]) => {
            got.push(v);
            return null;
          },
        },
      },
    );
    expect(r.value).toEqual([true, 9, 255, 'echo:']);
    expect(got).toEqual([
      {
        text: 'x',
        n: 1.5,
        ok: true,
        none: null,
        list: [1, 'two', [3]],
        bytes: Buffer.from('echo:hi\u0000\u00ff', 'latin1'),
        nested: { deep: { er: 'y' } },
      },
    ]);
  });

  it('a host error reaches the script as a plain Error with its message, nothing of the host object', async () => {
    const r = await runScript(
      `
      let out;
      try { fail(); } catch (e) {
        out = [e instanceof Error, Object.getPrototypeOf(e) === Error.prototype, e.message, Object.keys(e).length, e.stack.includes('host.ts')];
      }
      out`,
      {
        functions: {
          fail: async () => {
            throw Object.assign(new Error('no route to host'), { secret: 'x' });
          },
        },
      },
    );
    expect(r.value).toEqual([true, true, 'no route to host', 0, false]);
  });

  it('a prelude builds the globals from `host` and `data`; the script sees only what it made', async () => {
    const prelude = `
      const modules = { 'nuclei/echo': { Send: (s) => host.send(s) } };
      globalThis.require = (name) => { if (!(name in modules)) throw new Error('no module ' + name); return modules[name]; };
      globalThis.target = data.target;`;
    const r = await runScript(
      `
      const m = require('nuclei/echo');
      let missing;
      try { require('fs'); } catch (e) { missing = e.message; }
      [String.fromCharCode(...m.Send(target)), missing, typeof host, typeof data, typeof send]`,
      {
        prelude,
        data: { target: 'ping' },
        functions: { send: async ([s]) => send([Buffer.from(String(s))]) },
      },
    );
    expect(r.value).toEqual(['echo:ping', 'no module fs', 'undefined', 'undefined', 'undefined']);
  });

  it('without a prelude, functions and data are globals; the completion value comes back as data', async () => {
    const r = await runScript('({ sum: add(a, b), list: [a, b], u: undefined, f() {} })', {
      data: { a: 2, b: 3 },
      functions: { add: ([x, y]) => Number(x) + Number(y) },
    });
    expect(r.value).toEqual({ sum: 5, list: [2, 3] });
  });

  it('script errors reject with their message', async () => {
    await expect(runScript('null.x')).rejects.toThrow(ScriptError);
    await expect(runScript('throw new TypeError("bad input")')).rejects.toThrow('TypeError: bad input');
    await expect(runScript('throw { get message() { throw 1 } }')).rejects.toThrow(
      'the script threw a value that has no message',
    );
    await expect(runScript('let = ;')).rejects.toThrow(/SyntaxError/);
  });

  it('the whole-run deadline holds across host calls, and the host function hears of it', async () => {
    let aborted = false;
    const started = Date.now();
    await expect(
      runScript('for (;;) wait();', {
        timeoutMs: 1_000,
        functions: {
          wait: (_a, signal) =>
            new Promise((r) => {
              const t = setTimeout(r, 50);
              signal.addEventListener('abort', () => {
                aborted = true;
                clearTimeout(t);
                r(null);
              });
            }),
        },
      }),
    ).rejects.toThrow(/deadline|stopped/);
    expect(Date.now() - started).toBeLessThan(5_000);
    // A host call that never answers: the deadline ends the run all the same.
    await expect(
      runScript('hang(); 1', { timeoutMs: 500, functions: { hang: () => new Promise(() => {}) } }),
    ).rejects.toThrow(/deadline|stopped/);
    expect(aborted).toBe(true);
  });

  it('an abort stops a run while the host runs a call and while the script computes', async () => {
    const ac = new AbortController();
    const during = runScript('step(); for (;;) {}', {
      signal: ac.signal,
      functions: {
        step: () => {
          setTimeout(() => ac.abort(), 100);
          return null;
        },
      },
    });
    await expect(during).rejects.toThrow('the script was stopped');
    const ac2 = new AbortController();
    const inCall = runScript('hang(); 1', {
      signal: ac2.signal,
      functions: {
        hang: () => {
          ac2.abort();
          return new Promise(() => {});
        },
      },
    });
    await expect(inCall).rejects.toThrow('the script was stopped');
  });

  it(`more runs at once than the ${SANDBOX_MAX_THREADS} threads: the rest wait and all finish`, async () => {
    const n = SANDBOX_MAX_THREADS * 3;
    const results = await Promise.all(
      Array.from({ length: n }, (_v, i) =>
        runScript(`pause(); ${i} * 2`, {
          functions: { pause: () => new Promise((r) => setTimeout(() => r(null), 20)) },
        }),
      ),
    );
    expect(results.map((r) => r.value)).toEqual(Array.from({ length: n }, (_v, i) => i * 2));
  }, 60_000);

  it('a run aborted while it waits for a thread never starts', async () => {
    let release!: () => void;
    const gate = new Promise<null>((r) => {
      release = () => r(null);
    });
    const busy = Array.from({ length: SANDBOX_MAX_THREADS }, () =>
      runScript('hold(); 1', { functions: { hold: () => gate } }),
    );
    const ac = new AbortController();
    let ran = false;
    const queued = runScript('mark(); 1', {
      signal: ac.signal,
      functions: {
        mark: () => {
          ran = true;
          return null;
        },
      },
    });
    ac.abort();
    release();
    await expect(queued).rejects.toThrow('the script was stopped');
    expect((await Promise.all(busy)).map((r) => r.value)).toEqual(Array(SANDBOX_MAX_THREADS).fill(1));
    expect(ran).toBe(false);
  });

  it('nothing of one run is left for the next (globals, prototypes, pending jobs)', async () => {
    await runScript(
      'globalThis.leak = 1; Object.prototype.polluted = 1; Array.prototype.map = null; Promise.resolve().then(() => { globalThis.late = 1; });',
    );
    const runs = await Promise.all(
      Array.from({ length: SANDBOX_MAX_THREADS }, () =>
        runScript('[typeof leak, typeof ({}).polluted, typeof [].map, typeof late]'),
      ),
    );
    for (const r of runs) expect(r.value).toEqual(['undefined', 'undefined', 'function', 'undefined']);
  });

  it('a thread ended mid-run is replaced: later runs work', async () => {
    const ac = new AbortController();
    // Stuck in a host call that ignores the stop: the run ends at once, the thread is reused or replaced.
    // The stop comes once the host call is under way (its promise handed back), not on a timer.
    const p = runScript('hang()', {
      signal: ac.signal,
      functions: {
        hang: () => {
          setImmediate(() => ac.abort());
          return new Promise(() => {});
        },
      },
    });
    await expect(p).rejects.toThrow(/stopped/);
    expect((await runScript('40 + 2')).value).toBe(42);
  });
});
