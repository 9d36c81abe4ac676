// Template JavaScript (flows) against the sandbox it runs in (src/engine/js/): real flow templates run by
// the engine against a real server on 127.0.0.1, each trying a way out or a way to exhaust the host. A
// flow reports what it saw by the paths it makes its blocks request (`set("note", ...)`, then http(2)
// asks /two/<note>), so every test also proves that the script ran and went on as far as it says.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScan, closeClients } from '../../src/engine/runner.ts';
import type { Template } from '../../src/engine/template/types.ts';
import { SANDBOX_MEMORY_BYTES } from '../../src/engine/js/limits.ts';
import { startHttpServer, type TestServer } from '../helpers/targets.ts';
import { tpl } from '../helpers/templates.ts';
import { closeEngineThreads, useEngineThreads } from '../../src/platform/scans/engine-pool.ts';
import { createScanApp } from '../platform/scans/fixtures.ts';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startHttpServer((_req, res) => res.end('ready'));
  dir = mkdtempSync(path.join(tmpdir(), 'vigil-sandbox-'));
});
afterAll(async () => {
  await closeClients();
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const BLOCKS = `http:
  - method: GET
    path: ["{{BaseURL}}/one"]
    matchers:
      - type: word
        words: ["ready"]
  - method: GET
    path: ["{{BaseURL}}/two/{{note}}"]
  - method: GET
    path: ["{{BaseURL}}/reached-after-escape"]
  - method: GET
    path: ["{{BaseURL}}/p/{{injected}}"]
`;

function flowText(id: string, flow: string): string {
  const body = flow
    .trim()
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
  return `id: ${id}\ninfo: { name: ${id}, author: vigil, severity: high }\nflow: |\n${body}\n${BLOCKS}`;
}

const flowTemplate = (id: string, flow: string): Template => tpl(flowText(id, flow));

/** Runs the flows, returns the paths the server saw meanwhile and each template's error. */
async function scan(templates: Template[], signal?: AbortSignal) {
  const before = server.requests.length;
  const errors: Record<string, string | undefined> = {};
  const started = Date.now();
  await runScan({
    targets: [server.url],
    templates,
    rateLimit: 0,
    timeout: 5,
    retries: 0,
    signal,
    onResult: () => {},
    onAttempt: (a) => {
      errors[a.templateId] = a.error;
    },
  });
  return {
    paths: server.requests.slice(before).map((r) => decodeURIComponent(r.url)),
    errors,
    ms: Date.now() - started,
  };
}

/**
 * The attack that broke node:vm: a thrown object whose message getter, run by the host's code that reads
 * err.message, walks the structured stack for a frame whose `this` is the host's global, and with it
 * writes `marker` and runs a command.
 */
const escapeFlow = (marker: string) => `
Error.prepareStackTrace = (e, frames) => frames;
throw { get message() {
  const frames = new Error().stack;
  for (const f of (typeof frames === 'object' ? frames : [])) {
    const g = f && f.getThis && f.getThis();
    if (g && g.process) {
      const p = g.process;
      p.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'escaped ' + Object.keys(p.env).join(','));
      p.getBuiltinModule('child_process').execSync('true');
    }
  }
  return 'getter ran, stack is a ' + typeof frames;
} }`;

describe('flow scripts reach nothing of the host', () => {
  it('the stack-trace escape (Error.prepareStackTrace, CallSite.getThis) finds no host global: no file written', async () => {
    const marker = path.join(dir, 'escaped');
    const t = flowTemplate('escape-stack', escapeFlow(marker));
    const r = await scan([t]);
    expect(existsSync(marker)).toBe(false);
    // The getter ran (inside the sandbox, where a stack is only text).
    expect(r.errors['escape-stack']).toBe('flow: getter ran, stack is a string');
  });

  it('no host name, module loader or foreign global anywhere reachable from the script', async () => {
    const t = flowTemplate(
      'reachable',
      `
const hostNames = ['process', 'require', 'module', 'exports', 'Buffer', 'setTimeout', 'setImmediate', 'queueMicrotask',
  'fetch', 'WebAssembly', 'console', 'std', 'os', '__filename', '__dirname', 'getBuiltinModule', 'binding', 'mainModule', 'dlopen', 'env', 'pid'];
const found = [];
if (typeof global !== 'undefined') found.push('global');
// Walk everything reachable from the global object: own properties (names and symbols, enumerable or
// not), getters' values, prototypes, constructors, to depth 6.
const seen = new Set();
const walk = (v, depth) => {
  if (v === null || (typeof v !== 'object' && typeof v !== 'function') || seen.has(v) || depth > 6) return;
  seen.add(v);
  for (const k of Reflect.ownKeys(v)) {
    if (typeof k === 'string' && hostNames.includes(k) && v !== hostNames) found.push(k);
    let x;
    try { x = v[k]; } catch (e) { continue; }
    walk(x, depth + 1);
  }
  walk(Object.getPrototypeOf(v), depth + 1);
};
walk(globalThis, 0);
// Every function's Function constructor makes functions of this same sandbox.
for (const f of [set, log, iterate, http, dns, template, globalThis, Object, Error]) {
  const F = f.constructor.constructor;
  if (F('return this')() !== globalThis) found.push('another-global');
  if (F('return typeof process')() !== 'undefined') found.push('process');
}
// eval works inside QuickJS, and sees the same nothing.
if (eval('typeof require') !== 'undefined') found.push('eval-require');
set('note', found.length ? 'found-' + found.join('-') : 'clean-' + seen.size);
http(2);
import('fs').then(() => { set('note', 'import-loaded'); http(2); }, (e) => { set('note', 'import-refused'); http(2); });
`,
    );
    const r = await scan([t]);
    expect(r.errors.reachable).toBeUndefined();
    expect(r.paths).toHaveLength(2);
    expect(r.paths[0]).toMatch(/^\/two\/clean-\d{3,}$/); // hundreds of objects walked, none of the host
    expect(r.paths[1]).toBe('/two/import-refused');
  });

  it('the tricks node:vm needed closing: constructors of what is provided, a thrown host error, eval, require', async () => {
    const escapes = [
      'set.constructor.constructor("return process")()',
      'http.constructor.constructor("return process")()',
      'template.constructor.constructor("return process")()',
      'globalThis.constructor.constructor("return process")()',
      'eval("process")',
      'require("fs")',
      // an error thrown by a host function (set refuses the name) is a plain script Error
      '(() => { try { set("__proto__", 1) } catch (e) { return e.constructor.constructor("return process")() } })()',
      '(() => { try { http({ toString() { throw new Error("x") } }) } catch (e) { return e.constructor.constructor("return process")() } })()',
    ];
    const templates = escapes.map((e, i) =>
      flowTemplate(
        `trick-${i}`,
        `
let p = null;
try { p = ${e}; } catch (err) { p = null; }
if (p && p.pid) { http(3); }
set('note', 'done-${i}');
http(2);`,
      ),
    );
    const r = await scan(templates);
    expect(r.paths.sort()).toEqual(escapes.map((_e, i) => `/two/done-${i}`).sort());
  }, 60_000);

  it('prototype pollution through what the script is given or gives back changes nothing on the host', async () => {
    const t = flowTemplate(
      'pollute',
      `
const out = [];
template.__proto__.polluted = 'vm';
Object.prototype.polluted = 'vm';
try { set('__proto__', { injected: 'evil', polluted: 'evil' }); } catch (e) { out.push('proto-refused'); }
try { set('constructor', { prototype: { injected: 'evil' } }); } catch (e) { out.push('ctor-refused'); }
try { set('prototype', { injected: 'evil' }); } catch (e) { out.push('prototype-refused'); }
set('payload', JSON.parse('{"__proto__": {"injected": "evil", "polluted": "evil"}}'));
set('note', out.join('-'));
http(2);
http(4);`,
    );
    const r = await scan([t]);
    expect(r.paths[0]).toBe('/two/proto-refused-ctor-refused-prototype-refused');
    expect(r.paths.some((p) => p.includes('evil'))).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).injected).toBeUndefined();
  });

  it('hostile values given to host functions (getters, proxies, cycles, throwing toString) stay in the sandbox', async () => {
    const t = flowTemplate(
      'hostile-values',
      `
const out = [];
const cyclic = {}; cyclic.self = cyclic;
try { set('c', cyclic); } catch (e) { out.push('cycle-' + e.name); }
let reads = 0;
set('g', { get v() { reads++; return 'g'; } });
out.push('getter-' + reads);
set('p', new Proxy({}, { ownKeys: () => ['a'], getOwnPropertyDescriptor: () => ({ value: 'p', enumerable: true, configurable: true }), get: () => 'p' }));
try { http({ toString() { throw new Error('boom'); } }); } catch (e) { out.push('tostring-' + e.message); }
try { log({ toJSON() { return http(1); } }); out.push('tojson-ran'); } catch (e) { out.push('tojson-' + e.message); }
try { set('x', new Proxy({}, { ownKeys() { throw new TypeError('trap'); } })); } catch (e) { out.push('trap-' + e.message); }
set('note', out.join('-'));
http(2);`,
    );
    const r = await scan([t]);
    expect(r.errors['hostile-values']).toBeUndefined();
    // the toJSON's http(1) ran as a plain call before log's; nothing else reached the host
    expect(r.paths).toEqual(['/one', '/two/cycle-TypeError-getter-1-tostring-boom-tojson-ran-trap-trap']);
  });
});

describe('flow scripts cannot exhaust the host', () => {
  it('loops are stopped: plain, inside try/catch, in an async function and in a promise job', async () => {
    // Each loop is followed by http(3), which must never run.
    const loops = {
      plain: 'while (true) {} http(3);',
      caught: 'for (;;) { try { while (true) {} } catch (e) {} } http(3);',
      async: '(async () => { await null; while (true) {} http(3); })();',
      job: 'Promise.resolve().then(() => { while (true) {} http(3); });',
    };
    const templates = Object.entries(loops).map(([k, src]) =>
      flowTemplate(`loop-${k}`, `set('note', '${k}');\nhttp(2);\n${src}`),
    );
    const r = await scan(templates);
    expect(r.paths.sort()).toEqual(
      Object.keys(loops)
        .map((k) => `/two/${k}`)
        .sort(),
    ); // each ran, none went past its loop
    for (const k of Object.keys(loops))
      expect(r.errors[`loop-${k}`]).toMatch(/computed for more than 5 s without calling the host/);
    expect(r.ms).toBeLessThan(20_000);
  }, 60_000);

  it('deep recursion and huge strings are script errors the script can catch', async () => {
    const t = flowTemplate(
      'recursion-strings',
      `
const out = [];
function f(n) { return f(n + 1) + 1; }
try { f(0); } catch (e) { out.push(e.message); }
const o = { get x() { return o.x; } };
try { o.x; } catch (e) { out.push(e.message); }
let s = 'x', n = 0;
try { for (;;) { s = s + s; n++; } } catch (e) { out.push(e.message + ' at ' + n); }
try { set('flat', s.slice(0, 64 * 1024 * 1024)); } catch (e) { out.push(e.message); }
s = null;
try { set('big', 'y'.repeat(9 * 1024 * 1024)); } catch (e) { out.push(e.message.split(' ').slice(0, 4).join(' ')); }
set('note', encodeURIComponent(out.join('_')));
http(2);`,
    );
    const r = await scan([t]);
    expect(r.errors['recursion-strings']).toBeUndefined();
    const [stack1, stack2, doubling, flat, big] = r.paths[0]!.replace('/two/', '').split('_');
    expect([stack1, stack2]).toEqual(['stack overflow', 'stack overflow']);
    // Doubling makes ropes (no copy) until QuickJS's length limit; flattening 64 M of it runs out of memory.
    expect(doubling).toMatch(/^(string too long|out of memory) at \d+$/);
    expect(flat).toBe('out of memory');
    expect(big).toMatch(/out of memory|larger than/);
  }, 60_000);

  it('an abort of the scan stops a flow that keeps calling blocks', async () => {
    const ac = new AbortController();
    const t = flowTemplate('abort-loop', 'while (true) { http(1); }');
    const counted = () => server.requests.filter((q) => q.url === '/one').length;
    const start = counted();
    const waitFor = setInterval(() => {
      if (counted() - start >= 20) ac.abort();
    }, 10);
    const r = await scan([t], ac.signal);
    clearInterval(waitFor);
    const atEnd = counted();
    expect(atEnd - start).toBeGreaterThanOrEqual(20);
    // Stopped, not finished: once a later scan has been answered, at most the one request that was on the
    // wire when the abort came has arrived since (the flow calls one block at a time); a flow still looping
    // would have sent many more while the later scan ran.
    const later = await scan([flowTemplate('after-abort', "set('note', 'later');\nhttp(2)")]);
    expect(later.paths).toContain('/two/later');
    expect(counted() - atEnd).toBeLessThanOrEqual(1);
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);

  it('an ArrayBuffer flood between blocks keeps `vigil scan` within the sandbox memory cap', async () => {
    // 4 x 64 MiB, then 1 MiB at a time up to 512 MiB, all written: node:vm let all of it through (ArrayBuffers live
    // outside V8's heap limit); QuickJS's own byte count does not hold either (it counts blocks). The
    // WebAssembly memory's maximum does.
    const flood = `
http(1);
let keep = [];
try { for (let i = 0; i < 4; i++) keep.push(new Uint8Array(64 * 1024 * 1024).fill(7)); } catch (e) { set('big', 'refused'); }
http(1);
try { for (let i = 0; i < 512; i++) keep.push(new Uint8Array(1024 * 1024).fill(7)); } catch (e) { set('small', 'refused-after-' + keep.length); }
keep = null;
set('note', template.big + '-' + template.small);
http(2);`;
    const quiet = `http(1);\nhttp(1);\nset('note', 'quiet');\nhttp(2);`;
    const peak = async (flow: string) => {
      const file = path.join(dir, `flood-${Math.random().toString(36).slice(2)}.yaml`);
      writeFileSync(file, flowText('flood', flow));
      return childPeak(['scan', '-t', file, '-u', server.url, '-rl', '0', '--timeout', '5', '--retries', '0']);
    };
    const base = await peak(quiet);
    const before = server.requests.length;
    const flooded = await peak(flood);
    const grown = flooded.peakBytes - base.peakBytes;
    console.log(
      `vigil scan peak RSS: ${mb(base.peakBytes)} MiB quiet flow, ${mb(flooded.peakBytes)} MiB flood (+${mb(grown)} MiB; cap ${mb(SANDBOX_MEMORY_BYTES)} MiB)`,
    );
    expect(grown).toBeLessThan(SANDBOX_MEMORY_BYTES + 48 * 1024 * 1024);
    // The script was refused memory (the 64 MiB arrays at once, the small ones past the cap) and went on.
    const note = server.requests
      .slice(before)
      .map((q) => q.url)
      .find((u) => u.startsWith('/two/'));
    expect(note).toMatch(/^\/two\/refused-refused-after-\d+$/);
  }, 120_000);
});

describe('flow scripts in a platform scan (private templates, engine on a worker thread as in vigil serve)', () => {
  it('the escape finds nothing there either, and a flow with statements still reports', async () => {
    useEngineThreads(1);
    const app = await createScanApp('pglite');
    try {
      const marker = path.join(dir, 'escaped-platform');
      const legit = flowText('js-flow-ok', `for (const n of iterate('a', 'b')) { set('note', n); http(2); }`).replace(
        'path: ["{{BaseURL}}/two/{{note}}"]',
        'path: ["{{BaseURL}}/two/{{note}}"]\n    matchers:\n      - type: word\n        words: ["ready"]',
      );
      const res = await app.request({
        method: 'POST',
        url: '/v1/scans',
        payload: {
          targets: [server.url],
          private_templates: [
            { name: 'escape.yaml', contents: flowText('escape-stack', escapeFlow(marker)) },
            { name: 'ok.yaml', contents: legit },
          ],
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().id;
      expect(await app.waitStatus(id, ['finished', 'failed'], 60_000)).toMatchObject({ status: 'finished' });
      const results = (await app.request({ method: 'GET', url: `/v1/scans/results?scan_id=${id}` })).json();
      const found = results.data
        .map(
          (r: { event: Record<string, unknown>[] }) =>
            `${r.event[0]!['template-id']} ${String(r.event[0]!['matched-at']).replace(server.url, '')}`,
        )
        .sort();
      expect(found).toEqual(['js-flow-ok /two/a', 'js-flow-ok /two/b']);
      expect(existsSync(marker)).toBe(false);
    } finally {
      await app.close();
      await closeEngineThreads();
    }
  }, 120_000);
});

const mb = (n: number) => Math.round(n / 1024 / 1024);

/** Runs `vigil <args>` and reads its peak resident size (VmHWM) until it ends. */
function childPeak(args: string[]): Promise<{ code: number; peakBytes: number; stderr: string }> {
  return new Promise((resolve) => {
    let peakBytes = 0;
    const child = execFile(
      process.execPath,
      [path.join(repo, 'bin/vigil.mjs'), ...args],
      { cwd: repo, timeout: 90_000 },
      (err, _stdout, stderr) => {
        clearInterval(poll);
        resolve({ code: err ? 1 : 0, peakBytes, stderr });
      },
    );
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) peakBytes = Math.max(peakBytes, Number(m[1]) * 1024);
      } catch {
        // ended between two reads
      }
    }, 10);
  });
}
