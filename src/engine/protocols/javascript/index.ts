// The javascript protocol (nuclei's pkg/protocols/javascript): for each port named by the `Port` arg
// (comma-separated; the input's own port wins unless it is a web or DNS port or in `exclude-ports`), the
// block's `pre-condition` runs first and must succeed; then `code` runs once, or once per payload
// combination (attack type, `threads` at once, `stop-at-first-match`), with the block's `args` rendered
// as globals. Matchers and extractors read `response`, `success`, `error`, the ExportAs values, the
// payload values and the template's variables; a matcher or extractor without a part reads `response`.
// Scripts run in the engine's WebAssembly sandbox (script.ts) and reach the network only through the
// `nuclei/<name>` modules, each call checked against the deny list and the scan's target.
import type { Extractor, Matcher, Payloads, Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import {
  awaitInteraction,
  blockVars,
  combos,
  commonBlock,
  inputVariables,
  oastNamesFor,
  operate,
  render,
  type CommonBlock,
  type OastNames,
} from '../common/block.ts';
import { runTemplateScript, stringOf, type ScriptOutcome } from './script.ts';
import { MODULES, REFUSED_MODULES } from './prelude.ts';

export interface JsBlock extends CommonBlock {
  code: string;
  preCondition?: string;
  init?: string;
  args: Record<string, unknown>;
  ports: string[];
  excludePorts?: string[];
  threads: number;
  stopAtFirstMatch: boolean;
  /** The templates folder `nuclei/fs` may read (the template's, from disk); unset: it reads nothing. */
  filesRoot?: string;
}

/** Ports nuclei does not keep from an input when the template names its own (web and DNS ports). */
const RESERVED_PORTS = ['80', '443', '8080', '8443', '8081', '53'];
/** At most this many scripts of one block at once, whatever `threads` says. */
const MAX_THREADS = 16;

function compile(t: Template): JsBlock[] {
  return t.other
    .filter((b) => b.protocol === 'javascript')
    .map((b): JsBlock => {
      const c = commonBlock(b);
      const f = c.fields;
      const args = f.args && typeof f.args === 'object' ? { ...(f.args as Record<string, unknown>) } : {};
      const argOf = (name: string) => Object.entries(args).find(([k]) => k.toLowerCase() === name)?.[1];
      const split = (v: unknown) =>
        v === undefined || v === null
          ? []
          : [
              ...new Set(
                String(v)
                  .split(',')
                  .map((p) => p.trim())
                  .filter(Boolean),
              ),
            ];
      const exclude = argOf('exclude-ports');
      return {
        ...c,
        // As nuclei: a matcher or extractor without a part reads `response` (dsl matchers read everything).
        matchers: c.matchers.map((m): Matcher => (m.part || m.type === 'dsl' ? m : { ...m, part: 'response' })),
        extractors: c.extractors.map((e): Extractor => (e.part ? e : { ...e, part: 'response' })),
        code: typeof f.code === 'string' ? f.code : '',
        preCondition:
          typeof f['pre-condition'] === 'string' && f['pre-condition'].trim() ? f['pre-condition'] : undefined,
        init: typeof f.init === 'string' && f.init.trim() ? f.init : undefined,
        args,
        ports: split(argOf('port')),
        excludePorts: exclude === undefined ? undefined : split(exclude),
        threads: typeof f.threads === 'number' && f.threads > 0 ? Math.min(f.threads, MAX_THREADS) : 1,
        stopAtFirstMatch: f['stop-at-first-match'] === true,
        filesRoot: b.filesRoot,
      };
    });
}

const compiled = new WeakMap<Template, JsBlock[]>();

/** The `nuclei/<name>` modules a block's scripts require. */
export function requiredModules(b: { code: string; preCondition?: string; init?: string }): string[] {
  const src = `${b.preCondition ?? ''}\n${b.code}\n${b.init ?? ''}`;
  return [...new Set([...src.matchAll(/require\(\s*["'`](nuclei\/[A-Za-z0-9_-]+)["'`]\s*\)/g)].map((m) => m[1]!))];
}

function unsupported(b: JsBlock): string | undefined {
  const missing = requiredModules(b).filter(
    (m) => !MODULES.includes(m.slice('nuclei/'.length)) && REFUSED_MODULES[m] === undefined,
  );
  if (missing.length > 0) return `uses the javascript module${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  return undefined;
}

/** host:port for an input and a port from `Port` (nuclei's UseNetworkPort). */
export function addressFor(
  target: string,
  port: string,
  exclude: string[] | undefined,
): { host: string; port: string } {
  let host: string;
  let own = '';
  if (target.includes('://')) {
    const u = new URL(target);
    host = u.hostname;
    own = u.port;
  } else {
    const bare = target.replace(/\/.*$/, '');
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(bare) ?? /^([^:]+)(?::(\d+))?$/.exec(bare);
    host = m ? m[1]! : bare;
    own = m?.[2] ?? '';
  }
  host = host.replace(/^\[|\]$/g, '');
  if (port === '' || (own !== '' && !(exclude ?? RESERVED_PORTS).includes(own))) return { host, port: own };
  return { host, port };
}

const joinHostPort = (h: string, p: string) => (p === '' ? h : h.includes(':') ? `[${h}]:${p}` : `${h}:${p}`);

interface State {
  matched: boolean;
  requests: number;
  error?: string;
  stop: boolean;
}

/** What a block's `init` left for its runs: payloads it replaced, args it set, or why it failed. */
interface InitOutcome {
  payloads?: Payloads;
  args: Record<string, unknown>;
  error?: string;
}

// nuclei runs `init` once, when the template is compiled; here once per block and scan options (a scan).
const inits = new WeakMap<JsBlock, WeakMap<object, Promise<InitOutcome>>>();

function initOf(b: JsBlock, ctx: BlockContext): Promise<InitOutcome> | undefined {
  if (!b.init) return undefined;
  let perScan = inits.get(b);
  if (!perScan) inits.set(b, (perScan = new WeakMap()));
  let p = perScan.get(ctx.o);
  if (!p) perScan.set(ctx.o, (p = runInit(b, ctx)));
  return p;
}

/**
 * The block's `init` (nuclei's Compile): run with the args rendered from the template's variables only
 * (no input yet; markers left unresolved become empty), with `updatePayload(name, values)` replacing a
 * payload set's values (an error when the block has no payloads, as nuclei's) and `set(name, value)`
 * adding an arg. A failed init is not fatal: as nuclei, the block runs with its payloads as written.
 */
async function runInit(b: JsBlock, ctx: BlockContext): Promise<InitOutcome> {
  const outcome: InitOutcome = { args: {} };
  const payloads: Payloads | undefined = b.payloads ? { ...b.payloads } : undefined;
  const vars = blockVars(ctx, {}, {});
  const out = await runTemplateScript(b.init!, {
    args: argsFor(b, vars, '', true),
    template: plain(vars),
    guard: ctx.o.guard,
    targetHost: undefined,
    callTimeoutMs: Math.min(ctx.o.timeout, 10_000),
    timeoutMs: Math.max(20_000, ctx.o.timeout * 2),
    signal: ctx.o.signal,
    filesRoot: b.filesRoot,
    init: {
      updatePayload(name, value) {
        if (!payloads) throw new Error('payloads not defined and cannot be updated');
        payloads[name] = payloadValues(value);
      },
      set(name, value) {
        outcome.args[name] = value;
      },
    },
  });
  if (out.error !== undefined) return { args: {}, error: `init failed: ${out.error}` };
  if (payloads) outcome.payloads = payloads;
  return outcome;
}

/** What updatePayload accepts: a list (each value as text) or text, one value per line. */
function payloadValues(v: unknown): string[] {
  const one = (x: unknown) => (typeof x === 'string' ? x : Buffer.isBuffer(x) ? x.toString('utf8') : stringOf(x));
  if (Array.isArray(v)) return v.map(one);
  if (v === null || v === undefined) throw new Error('updatePayload: no values');
  const t = one(v);
  if (!t.includes('\n')) throw new Error('updatePayload: a payload file name is not supported here; pass the values');
  return t.split(/\r?\n/).filter((l) => l !== '');
}

async function execute(b0: JsBlock, ctx: BlockContext): Promise<BlockResult> {
  const st: State = { matched: false, requests: 0, stop: false };
  let b = b0;
  const init = initOf(b0, ctx);
  if (init) {
    const r = await init;
    if (r.error) st.error = r.error;
    b = { ...b0, ...(r.payloads ? { payloads: r.payloads } : {}), args: { ...b0.args, ...r.args } };
  }
  const target = ctx.target ?? '';
  const seen = new Set<string>();
  for (const port of b.ports.length > 0 ? b.ports : ['']) {
    if (st.stop || ctx.o.signal?.aborted) break;
    const a = addressFor(target, port, b.excludePorts);
    // An input with its own port keeps it for every port of the template: run it once.
    if (seen.has(joinHostPort(a.host, a.port))) continue;
    seen.add(joinHostPort(a.host, a.port));
    await runOnPort(b, ctx, st, a);
  }
  return {
    matched: st.matched,
    requests: st.requests,
    error: st.matched ? undefined : st.error,
    stop: st.matched && ctx.t.stopAtFirstMatch ? true : undefined,
  };
}

async function runOnPort(b: JsBlock, ctx: BlockContext, st: State, a: { host: string; port: string }): Promise<void> {
  const hostPort = joinHostPort(a.host, a.port);
  const builtins: Record<string, string> = {
    ...(ctx.target ? inputVariables(ctx.target) : {}),
    Hostname: hostPort,
    Host: a.host,
    Port: a.port,
  };
  const run = (code: string, args: Record<string, unknown>, vars: Record<string, unknown>) =>
    runTemplateScript(code, {
      args,
      template: plain({ ...vars, ...args }),
      guard: ctx.o.guard,
      targetHost: a.host,
      callTimeoutMs: Math.min(ctx.o.timeout, 10_000),
      timeoutMs: Math.max(20_000, ctx.o.timeout * 2),
      signal: ctx.o.signal,
      filesRoot: b.filesRoot,
    });

  if (b.preCondition) {
    const vars = blockVars(ctx, builtins, {});
    const out = await run(b.preCondition, argsFor(b, vars, a.port, true), vars);
    st.requests++;
    if (!out.success) {
      st.error = `pre-condition not satisfied${out.error ? `: ${out.error}` : ''}`;
      return;
    }
  }

  const one = async (combo: Record<string, string>) => {
    if (st.stop || ctx.o.signal?.aborted) return;
    if (ctx.o.takeToken) await ctx.o.takeToken();
    // {{interactsh-url}} in the args (nuclei's place for it), the code, variables or payloads: fresh names.
    const oast = oastNamesFor(ctx, [...Object.values(b.args).filter((v) => typeof v === 'string'), b.code], combo);
    const vars = blockVars(ctx, builtins, combo, oast);
    const out = await run(withNames(b.code, oast), argsFor(b, vars, a.port, false), vars);
    st.requests++;
    ctx.o.onRequest?.();
    if (out.error) st.error = out.error;
    const response = responseData(b, ctx, out, hostPort);
    const fields = {
      host: ctx.target ?? hostPort,
      matchedAt: hostPort,
      request: b.code,
      response: stringOf(out.response),
    };
    // Operators reading interactsh_* values wait for the target's callback.
    if (awaitInteraction(ctx, 'javascript', b, oast, response, vars, fields)) return;
    const r = await operate(ctx, 'javascript', b, response, vars, fields);
    if (r.matched) {
      st.matched = true;
      if (b.stopAtFirstMatch || ctx.t.stopAtFirstMatch) st.stop = true;
    }
  };

  if (!b.payloads) return one({});
  const queue = combos(ctx, b)[Symbol.iterator]();
  const worker = async () => {
    for (let n = queue.next(); !n.done && !st.stop && !ctx.o.signal?.aborted; n = queue.next()) await one(n.value);
  };
  await Promise.all(Array.from({ length: b.threads }, worker));
}

/** The code with its literal interactsh markers replaced by the request's names (the code is not rendered otherwise). */
function withNames(code: string, oast: OastNames | undefined): string {
  if (!oast) return code;
  return code.replace(/\{\{(interactsh-url(?:_\d+){0,3})\}\}/g, (m, name: string) => oast.seed[name] ?? m);
}

/** The args rendered with the request's values; `Port` is the port in use. */
function argsFor(
  b: JsBlock,
  vars: Record<string, unknown>,
  port: string,
  ignoreErrors: boolean,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b.args)) {
    if (typeof v === 'string' && v.includes('{')) {
      const text = render(v, vars);
      // nuclei: in a pre-condition, an arg whose markers resolve to nothing is empty.
      out[k] = text === v && ignoreErrors ? '' : text;
    } else out[k] = v;
  }
  out.Port = port;
  return out;
}

function responseData(b: JsBlock, ctx: BlockContext, out: ScriptOutcome, hostPort: string): Record<string, unknown> {
  const data: Record<string, unknown> = {
    ...out.exports,
    success: out.success,
    type: 'javascript',
    request: b.code,
    host: ctx.target ?? hostPort,
    matched: hostPort,
  };
  if (b.preCondition) data['request-pre-condition'] = b.preCondition;
  // As nuclei: a script that failed has no response at all (a negative matcher on it does not match).
  if (out.error !== undefined) data.error = out.error;
  else data.response = responseValue(out.response);
  if (b.stopAtFirstMatch) data['stop-at-first-match'] = true;
  return data;
}

/** Booleans and numbers stay themselves (`response == true`); other values read as text. */
function responseValue(v: unknown): unknown {
  if (v === undefined || v === null) return '';
  if (typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v;
  return stringOf(v);
}

/** Values `template` shows the script: JSON-safe ones only. */
function plain(values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null);
  for (const [k, v] of Object.entries(values)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
    else if (Array.isArray(v) && v.every((x) => ['string', 'number', 'boolean'].includes(typeof x))) out[k] = v;
  }
  return out;
}

export const javascriptProtocol: Protocol<JsBlock> = {
  name: 'javascript',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  unsupported,
  execute,
};
