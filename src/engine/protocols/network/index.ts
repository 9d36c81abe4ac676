// The network (tcp) protocol: for each address of `host` (`{{Hostname}}`, `{{Host}}:2181`, `tls://...`)
// and each port of `port`, one connection per payload combination; `inputs` are written in order (text or
// hex, rendered with the DSL), each optionally followed by a named `read`; then one final read of
// `read-size` bytes (1024 by default) or everything with `read-all`. Matchers and extractors see `data`
// (the last read; also body and all), `raw` (everything read), `request` (everything written) and the
// named reads.
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import { runOperators } from '../../operators/index.ts';
import {
  awaitInteraction,
  blockVars,
  combos,
  oastNamesFor,
  commonBlock,
  inputVariables,
  operate,
  render,
  unresolved,
  type CommonBlock,
} from '../common/block.ts';
import { Conn } from './conn.ts';

interface NetInput {
  data: string;
  hex: boolean;
  read: number;
  name?: string;
}

export interface NetworkBlock extends CommonBlock {
  addresses: { address: string; tls: boolean }[];
  ports: string[];
  excludePorts?: string[];
  inputs: NetInput[];
  readSize: number;
  readAll: boolean;
}

/** Ports nuclei does not keep from an input when the template names its own (web and DNS ports). */
const RESERVED_PORTS = ['80', '443', '8080', '8443', '8081', '53'];

function compile(t: Template): NetworkBlock[] {
  return t.other
    .filter((b) => b.protocol === 'tcp')
    .map((b) => {
      const c = commonBlock(b);
      const f = c.fields;
      const hosts = Array.isArray(f.host)
        ? f.host.map(String)
        : f.host !== undefined
          ? [String(f.host)]
          : ['{{Hostname}}'];
      const inputs = Array.isArray(f.inputs) ? (f.inputs as Record<string, unknown>[]) : [];
      const split = (v: unknown) =>
        v === undefined
          ? []
          : String(v)
              .split(',')
              .map((p) => p.trim())
              .filter(Boolean);
      return {
        ...c,
        addresses: hosts.map((h) =>
          h.startsWith('tls://') ? { address: h.slice(6), tls: true } : { address: h, tls: false },
        ),
        ports: [...new Set(split(f.port))],
        excludePorts: f['exclude-ports'] !== undefined ? split(f['exclude-ports']) : undefined,
        inputs: inputs.map((i, k) => ({
          data: i.data === undefined ? '' : (rawData(b.raw.inputs, k, t.raw) ?? String(i.data)),
          hex: String(i.type ?? '').toLowerCase() === 'hex',
          read: typeof i.read === 'number' ? i.read : 0,
          name: typeof i.name === 'string' && i.name ? i.name : undefined,
        })),
        readSize: typeof f['read-size'] === 'number' && f['read-size'] > 0 ? f['read-size'] : 1024,
        readAll: f['read-all'] === true,
      };
    });
}

const compiled = new WeakMap<Template, NetworkBlock[]>();

/**
 * The text a number was written as: go-yaml hands `data: 0000000107` to nuclei's string field verbatim,
 * while the YAML parser here made it 107. The template's source has the digits.
 */
function rawData(inputs: unknown, k: number, raw: string): string | undefined {
  const v = Array.isArray(inputs) ? (inputs[k] as { data?: unknown } | undefined)?.data : undefined;
  return typeof v === 'number' ? numberText(raw, v) : undefined;
}

function numberText(raw: string, n: number): string {
  for (const m of raw.matchAll(/^[ \t-]*data:[ \t]*([0-9]+)[ \t]*$/gm)) if (Number(m[1]) === n) return m[1];
  return String(n);
}

/** host:port of an input: a URL's host, else the input as given. */
function addressOf(target: string): string {
  if (target.includes('://')) {
    const u = new URL(target);
    return u.port ? `${u.hostname}:${u.port}` : u.hostname;
  }
  return target.replace(/\/.*$/, '');
}

function splitHostPort(a: string): { host: string; port: string } | undefined {
  const m = /^(\[[^\]]+\]|[^:]+|[^\]]*):(\d+)$/.exec(a);
  if (m) return { host: m[1], port: m[2] };
  return undefined;
}

/** The input with the template's port, unless the input names a port of its own outside the reserved ones. */
function withPort(address: string, port: string, exclude: string[] | undefined): string {
  const hp = splitHostPort(address);
  if (hp && !(exclude ?? RESERVED_PORTS).includes(hp.port)) return address;
  return `${hp ? hp.host : address}:${port}`;
}

function builtinsFor(address: string, target: string | undefined): Record<string, string> {
  const v = inputVariables(address);
  const hp = splitHostPort(address);
  return {
    ...v,
    Hostname: address,
    Host: hp ? hp.host.replace(/^\[|\]$/g, '') : address,
    Port: hp?.port ?? '',
    Input: target ?? address,
  };
}

function readTimeout(ctx: BlockContext): number {
  return Math.min(ctx.o.timeout, 5000);
}

async function isOpen(address: string, ctx: BlockContext): Promise<boolean> {
  const hp = splitHostPort(address);
  if (!hp) return false;
  try {
    const c = await Conn.open(hp.host, Number(hp.port), false, ctx.o.timeout, ctx.o.signal, undefined, ctx.o.guard);
    c.close();
    return true;
  } catch {
    return false;
  }
}

interface State {
  matched: boolean;
  requests: number;
  error?: string;
  stop: boolean;
}

async function execute(b: NetworkBlock, ctx: BlockContext): Promise<BlockResult> {
  const st: State = { matched: false, requests: 0, stop: false };
  const base = ctx.target ? addressOf(ctx.target) : '';
  let bases = [base];
  if (b.ports.length > 0) {
    const candidates = b.ports.map((p) => withPort(base, p, b.excludePorts));
    // With several ports nuclei keeps only those that accept a connection.
    bases = candidates.length === 1 ? candidates : [];
    if (candidates.length > 1) for (const c of [...new Set(candidates)]) if (await isOpen(c, ctx)) bases.push(c);
    if (bases.length === 0) return { matched: false, requests: 0, error: `no open port among ${b.ports.join(',')}` };
  }
  const visited = new Set<string>();
  for (const address of [...new Set(bases)]) {
    const builtins = builtinsFor(address, ctx.target);
    for (const a of b.addresses) {
      if (st.stop || ctx.o.signal?.aborted) break;
      const first = blockVars(ctx, builtins, {});
      const actual = render(a.address, first);
      if (visited.has(actual)) continue;
      visited.add(actual);
      if (!splitHostPort(actual)) {
        st.error = 'no port provided in network protocol request';
        continue;
      }
      for (const combo of combos(ctx, b)) {
        if (st.stop || ctx.o.signal?.aborted) break;
        await exchangeOne(b, ctx, st, address, actual, a.tls, builtins, combo);
      }
    }
  }
  return { matched: st.matched, requests: st.requests, error: st.matched ? undefined : st.error, stop: st.stop };
}

async function exchangeOne(
  b: NetworkBlock,
  ctx: BlockContext,
  st: State,
  address: string,
  actual: string,
  useTls: boolean,
  builtins: Record<string, string>,
  combo: Record<string, string>,
): Promise<void> {
  // {{interactsh-url}} in the inputs (or the variables and payloads they use): fresh names per exchange.
  const oast = oastNamesFor(
    ctx,
    b.inputs.map((i) => i.data),
    combo,
  );
  const vars = blockVars(ctx, { ...builtins, Hostname: address }, combo, oast);
  const hp = splitHostPort(actual)!;
  const host = ctx.target ?? address;
  const hostKey = actual;
  if (ctx.o.hostErrors?.isSkipped(hostKey)) {
    st.error = `host ${hostKey} skipped after too many errors`;
    return;
  }
  let conn: Conn;
  try {
    if (ctx.o.takeToken) await ctx.o.takeToken();
    st.requests++;
    ctx.o.onRequest?.();
    conn = await Conn.open(hp.host, Number(hp.port), useTls, ctx.o.timeout, ctx.o.signal, ctx.o.sni, ctx.o.guard);
  } catch (err) {
    st.error = `could not connect to server: ${(err as Error).message}`;
    ctx.o.hostErrors?.record(hostKey);
    // As nuclei: the operators still run, on an empty response.
    await finish(b, ctx, st, { host, matched: address, request: '', data: '', raw: '' }, vars, host, actual, '');
    return;
  }
  const named: Record<string, string> = {};
  let request = '';
  let raw = '';
  try {
    for (const input of b.inputs) {
      const text = render(input.data, vars);
      const missing = unresolved(text, vars);
      if (missing.length > 0) {
        st.error = `unresolved variables: ${missing.join(', ')}`;
        return;
      }
      request += text;
      let bytes: Buffer;
      if (input.hex) {
        const clean = text.replace(/\s+/g, '');
        if (!/^([0-9a-f]{2})*$/i.test(clean)) throw new Error('could not write request to server: invalid hex data');
        bytes = Buffer.from(clean, 'hex');
      } else bytes = Buffer.from(text, 'latin1');
      await conn.write(bytes);
      if (input.read > 0) {
        const buf = await conn.read(input.read, readTimeout(ctx));
        // As nuclei: a read that brings nothing fails the exchange.
        if (buf.length === 0) throw new Error('could not read response from connection');
        const got = buf.toString('latin1');
        raw += got;
        if (input.name) {
          named[input.name] = got;
          vars[input.name] = got;
          // Internal extractors run on each named read, so later inputs can use what they found.
          const internal = b.extractors.filter((e) => e.internal);
          if (internal.length > 0)
            Object.assign(
              vars,
              runOperators({ matchers: [], extractors: internal, matchersCondition: 'or' }, { [input.name]: got })
                .dynamic,
            );
        }
      }
    }
    // The final read may bring nothing (or fail): the operators run on what there is.
    const final = await (b.readAll ? conn.readAll(readTimeout(ctx)) : conn.read(b.readSize, readTimeout(ctx))).catch(
      () => Buffer.alloc(0),
    );
    const data = final.toString('latin1');
    raw += data;
    // Operators reading interactsh_* values wait for the target's callback (nuclei's RequestEvent).
    const response = { host, matched: actual, request, data, raw, ...named, body: data, type: 'tcp', ip: conn.ip };
    const fields = { host, matchedAt: actual, ip: conn.ip || undefined, request, response: data };
    if (awaitInteraction(ctx, 'tcp', b, oast, response, { ...vars, ...named }, fields)) return;
    await finish(
      b,
      ctx,
      st,
      { host, matched: actual, request, data, raw, ...named },
      vars,
      host,
      actual,
      conn.ip,
      named,
    );
  } catch (err) {
    st.error = (err as Error).message;
    // As nuclei: a failed exchange still runs the operators, on empty values.
    await finish(b, ctx, st, { host, matched: address, request: '', data: '', raw: '' }, vars, host, actual, '');
  } finally {
    conn.close();
  }
}

async function finish(
  b: NetworkBlock,
  ctx: BlockContext,
  st: State,
  fields: { host: string; matched: string; request: string; data: string; raw: string },
  vars: Record<string, unknown>,
  host: string,
  matchedAt: string,
  ip: string,
  named: Record<string, string> = {},
): Promise<void> {
  const response: Record<string, unknown> = { ...fields, body: fields.data, type: 'tcp', ip };
  const r = await operate(
    ctx,
    'tcp',
    b,
    response,
    { ...vars, ...named },
    {
      host,
      matchedAt,
      ip: ip || undefined,
      request: fields.request,
      response: fields.data,
    },
  );
  if (r.matched) {
    st.matched = true;
    if (ctx.t.stopAtFirstMatch || b.fields['stop-at-first-match'] === true) st.stop = true;
  }
}

export const networkProtocol: Protocol<NetworkBlock> = {
  name: 'tcp',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  execute,
};
