// The websocket protocol: connect to `address` (ws:// or wss://, the input's path when the address has
// none) with the template's headers, then for each input send its data as a text message and read one
// message back. Matchers see `response` (every message read; default), `request` (every message sent),
// `success`, and named inputs' replies.
import type { Agent, WebSocket } from 'undici';
import { lazy } from '../../lazy.ts';

// undici's package index (with its WebSocket client) loads only when a websocket block runs: start-up.
const undici = lazy<typeof import('undici')>('undici');
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import { runOperators } from '../../operators/index.ts';
import {
  blockVars,
  combos,
  commonBlock,
  inputVariables,
  operate,
  render,
  unresolved,
  type CommonBlock,
} from '../common/block.ts';
import { guardedAgent } from '../../net/undici.ts';
import type { ConnectGuard } from '../../net/guard.ts';

export interface WebsocketBlock extends CommonBlock {
  address: string;
  headers: Record<string, string>;
  inputs: { data: string; name?: string }[];
}

function compile(t: Template): WebsocketBlock[] {
  return t.other
    .filter((b) => b.protocol === 'websocket')
    .map((b) => {
      const c = commonBlock(b);
      const f = c.fields;
      const inputs = Array.isArray(f.inputs) ? (f.inputs as Record<string, unknown>[]) : [];
      return {
        ...c,
        address: typeof f.address === 'string' && f.address ? f.address : '{{Scheme}}://{{Hostname}}',
        headers: (f.headers as Record<string, string> | undefined) ?? {},
        inputs: inputs.map((i) => ({
          data: i.data === undefined ? '' : String(i.data),
          name: typeof i.name === 'string' && i.name ? i.name : undefined,
        })),
      };
    });
}

const compiled = new WeakMap<Template, WebsocketBlock[]>();
let insecure: Agent | undefined;
// One dispatcher per connect guard: the handshake's connection is decided on the address it goes to.
const guarded = new WeakMap<ConnectGuard, Agent>();

function dispatcherFor(guard: ConnectGuard | undefined): Agent {
  if (!guard) return (insecure ??= guardedAgent(undefined, { connect: { rejectUnauthorized: false } }));
  let agent = guarded.get(guard);
  if (!agent) guarded.set(guard, (agent = guardedAgent(guard, { connect: { rejectUnauthorized: false } })));
  return agent;
}

/** Messages as they arrive, read one at a time. */
class Inbox {
  private queue: string[] = [];
  private waiter: ((m: string | undefined) => void) | undefined;
  private size = 0;
  closed = false;

  push(m: string): void {
    // Bounded: a server that floods messages cannot fill memory.
    this.size += m.length;
    if (this.size > 8 * 1024 * 1024) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = undefined;
      w(m);
    } else this.queue.push(m);
  }

  close(): void {
    this.closed = true;
    this.waiter?.(undefined);
    this.waiter = undefined;
  }

  next(timeout: number): Promise<string | undefined> {
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift());
    if (this.closed) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        resolve(undefined);
      }, timeout);
      this.waiter = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
    });
  }
}

function open(
  url: string,
  headers: Record<string, string>,
  timeout: number,
  guard: ConnectGuard | undefined,
): Promise<{ ws: WebSocket; inbox: Inbox }> {
  return new Promise((resolve, reject) => {
    const ws = new (undici().WebSocket)(url, { headers, dispatcher: dispatcherFor(guard) } as never);
    ws.binaryType = 'arraybuffer';
    const inbox = new Inbox();
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`websocket handshake with ${url} timed out`));
    }, timeout);
    ws.addEventListener('message', (e) => {
      const d = e.data as string | ArrayBuffer;
      inbox.push(typeof d === 'string' ? d : Buffer.from(d).toString('latin1'));
    });
    ws.addEventListener('open', () => {
      clearTimeout(timer);
      resolve({ ws, inbox });
    });
    ws.addEventListener('error', () => {
      clearTimeout(timer);
      inbox.close();
      reject(new Error(`could not connect to server: websocket ${url} failed`));
    });
    ws.addEventListener('close', () => inbox.close());
  });
}

async function execute(b: WebsocketBlock, ctx: BlockContext): Promise<BlockResult> {
  const target = ctx.target ?? '';
  if (!/^wss?:\/\//i.test(target))
    return { matched: false, requests: 0, error: `invalid url scheme provided: ${target.split(':')[0]}` };
  const input = new URL(target);
  const builtins = inputVariables(target);
  let matched = false;
  let requests = 0;
  let error: string | undefined;
  for (const combo of combos(ctx, b)) {
    if (ctx.o.signal?.aborted) break;
    const vars = blockVars(ctx, builtins, combo);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(b.headers)) headers[k] = render(v, vars);
    let address: URL;
    try {
      address = new URL(render(b.address, vars));
    } catch (err) {
      error = (err as Error).message;
      continue;
    }
    if (address.pathname === '' || address.pathname === '/') address.pathname = input.pathname;
    const url = address.toString();
    let conn: { ws: WebSocket; inbox: Inbox };
    try {
      if (ctx.o.takeToken) await ctx.o.takeToken();
      requests++;
      ctx.o.onRequest?.();
      // Asked first so a refusal says why (a failed handshake's error event does not); the dispatcher's
      // connector decides the connection itself on the same (cached) answer.
      if (ctx.o.guard)
        await ctx.o.guard.addresses(
          address.hostname,
          Number(address.port || (/^(wss|https):$/.test(address.protocol) ? 443 : 80)),
        );
      conn = await open(url, headers, ctx.o.timeout, ctx.o.guard);
    } catch (err) {
      error = (err as Error).message;
      continue;
    }
    let request = '';
    let response = '';
    const named: Record<string, unknown> = {};
    try {
      for (const i of b.inputs) {
        const data = render(i.data, vars);
        const missing = unresolved(data, vars);
        if (missing.length > 0) throw new Error(`unresolved variables: ${missing.join(', ')}`);
        request += data;
        conn.ws.send(data);
        const reply = await conn.inbox.next(Math.min(ctx.o.timeout, 5000));
        if (reply === undefined) throw new Error('could not read response from server');
        response += reply;
        if (i.name) {
          named[i.name] = reply;
          const internal = b.extractors.filter((e) => e.internal);
          if (internal.length > 0)
            Object.assign(
              named,
              runOperators({ matchers: [], extractors: internal, matchersCondition: 'or' }, { [i.name]: reply })
                .dynamic,
            );
        }
      }
    } catch (err) {
      error = (err as Error).message;
      conn.ws.close();
      continue;
    }
    conn.ws.close();
    const data = {
      type: 'websocket',
      success: 'true',
      request,
      response,
      body: response,
      host: target,
      matched: url,
      ...named,
    };
    const r = await operate(ctx, 'websocket', b, data, vars, { host: target, matchedAt: url, request, response });
    if (r.matched) {
      matched = true;
      if (ctx.t.stopAtFirstMatch) return { matched, requests, stop: true };
    }
  }
  return { matched, requests, error: matched ? undefined : error };
}

export const websocketProtocol: Protocol<WebsocketBlock> = {
  name: 'websocket',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  execute,
};
