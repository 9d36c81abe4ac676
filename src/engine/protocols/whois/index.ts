// The whois protocol, as nuclei runs it: an RDAP query (`query`, usually {{Input}}) to `server`, or for a
// domain to the registry IANA's bootstrap file names. A domain's answer is turned into whois-style keys
// (`domain name`, `registrar`, `name server`, `creation date` ... each its values joined by commas);
// `response` is the answer as JSON.
import { isIP } from 'node:net';
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
import { blockVars, commonBlock, inputVariables, operate, render, type CommonBlock } from '../common/block.ts';
import { lazy } from '../../lazy.ts';
import { guardedAgent } from '../../net/undici.ts';
import { isEgressDenied, type ConnectGuard } from '../../net/guard.ts';
import type { Agent } from 'undici';

const undici = lazy<typeof import('undici')>('undici');
const agents = new WeakMap<ConnectGuard, Agent>();

/** fetch, under the scan's connect guard when it has one (each redirect hop is a connection it decides). */
function fetchFor(guard: ConnectGuard | undefined): (url: string, init: RequestInit) => Promise<Response> {
  if (!guard) return fetch;
  let dispatcher = agents.get(guard);
  if (!dispatcher) agents.set(guard, (dispatcher = guardedAgent(guard)));
  const d = dispatcher;
  return (url, init) => undici().fetch(url, { ...(init as object), dispatcher: d }) as unknown as Promise<Response>;
}

export interface WhoisBlock extends CommonBlock {
  query: string;
  server?: string;
}

function compile(t: Template): WhoisBlock[] {
  return t.other
    .filter((b) => b.protocol === 'whois')
    .map((b) => {
      const c = commonBlock(b);
      return {
        ...c,
        query: typeof c.fields.query === 'string' ? c.fields.query : '{{Input}}',
        server: typeof c.fields.server === 'string' ? c.fields.server : undefined,
      };
    });
}

const compiled = new WeakMap<Template, WhoisBlock[]>();

type Rdap = Record<string, unknown>;

function kind(query: string): 'ip' | 'autnum' | 'domain' {
  if (isIP(query.split('/')[0])) return 'ip';
  if (/^(as)?\d+$/i.test(query)) return 'autnum';
  return 'domain';
}

let bootstrap: Promise<[string[], string[]][]> | undefined;
async function registryFor(domain: string, timeout: number, guard: ConnectGuard | undefined): Promise<string> {
  bootstrap ??= fetchFor(guard)('https://data.iana.org/rdap/dns.json', { signal: AbortSignal.timeout(timeout) })
    .then((r) => r.json() as Promise<{ services: [string[], string[]][] }>)
    .then((j) => j.services)
    .catch((err) => {
      bootstrap = undefined;
      throw err;
    });
  const tld = domain.split('.').pop()!.toLowerCase();
  const hit = (await bootstrap).find(([tlds]) => tlds.includes(tld));
  if (!hit) throw new Error(`no RDAP server known for .${tld}`);
  return hit[1][0];
}

/** A jCard's first value of `prop` (`fn`, `email`, `tel`). */
function vcard(e: Rdap | undefined, prop: string): string {
  const card = (e?.vcardArray as unknown[] | undefined)?.[1] as unknown[][] | undefined;
  const found = card?.find((p) => p[0] === prop);
  return found ? String(found[3] ?? '') : '';
}

function entity(d: Rdap, role: string): Rdap | undefined {
  return (d.entities as Rdap[] | undefined)?.find((e) => (e.roles as string[] | undefined)?.includes(role));
}

/** openrdap's whois-style view of a domain. */
function whoisStyle(d: Rdap): { KeyDisplayOrder: string[]; Data: Record<string, string[]> } {
  const w = { KeyDisplayOrder: [] as string[], Data: {} as Record<string, string[]> };
  const add = (k: string, v: unknown) => {
    if (v === undefined || v === null || v === '') return;
    if (!w.Data[k]) {
      w.KeyDisplayOrder.push(k);
      w.Data[k] = [];
    }
    w.Data[k].push(String(v));
  };
  add('Domain Name', d.ldhName);
  add('Handle', d.handle);
  add('Registrar WHOIS Server', d.port43);
  for (const e of (d.events as Rdap[] | undefined) ?? []) {
    const name = (
      { 'last changed': 'Updated Date', registration: 'Creation Date', expiration: 'Expiration Date' } as Record<
        string,
        string
      >
    )[String(e.eventAction)];
    if (name) add(name, e.eventDate);
  }
  const registrar = entity(d, 'registrar');
  if (registrar) {
    add('Registrar', vcard(registrar, 'fn'));
    for (const id of (registrar.publicIds as Rdap[] | undefined) ?? [])
      if (id.type === 'IANA Registrar ID') add('Registrar IANA ID', id.identifier);
  }
  for (const s of (d.status as string[] | undefined) ?? []) add('Domain Status', s);
  for (const [label, role] of [
    ['Registrant', 'registrant'],
    ['Admin', 'administrative'],
    ['Tech', 'technical'],
    ['Abuse', 'abuse'],
  ]) {
    const e = entity(d, role);
    add(`${label} Name`, vcard(e, 'fn'));
    add(`${label} Tel`, vcard(e, 'tel'));
    add(`${label} Email`, vcard(e, 'email'));
  }
  for (const n of (d.nameservers as Rdap[] | undefined) ?? []) add('Name Server', n.ldhName);
  return w;
}

/** The body as text, refused past `max` bytes (a server cannot make the scanner hold gigabytes). */
async function boundedText(res: Response, max: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) throw new Error(`RDAP answer larger than ${max} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function execute(b: WhoisBlock, ctx: BlockContext): Promise<BlockResult> {
  const vars = blockVars(ctx, ctx.target ? inputVariables(ctx.target) : {}, {});
  const query = render(b.query, vars).trim();
  const type = kind(query);
  let base = b.server;
  try {
    if (!base) {
      if (type !== 'domain')
        return { matched: false, requests: 0, error: 'whois of an IP or AS number needs `server`' };
      base = await registryFor(query, ctx.o.timeout, ctx.o.guard);
    }
    if (ctx.o.takeToken) await ctx.o.takeToken();
    ctx.o.onRequest?.();
    const url = `${base.replace(/\/+$/, '')}/${type}/${encodeURIComponent(type === 'autnum' ? query.replace(/^as/i, '') : query)}`;
    const res = await fetchFor(ctx.o.guard)(url, {
      headers: { accept: 'application/rdap+json' },
      signal: AbortSignal.timeout(ctx.o.timeout),
    });
    if (!res.ok)
      return { matched: false, requests: 1, error: `could not make whois request: ${res.status} from ${url}` };
    const obj = JSON.parse(await boundedText(res, 1024 * 1024)) as Rdap;
    const data: Record<string, unknown> = {};
    let response: unknown = obj;
    if (type === 'domain') {
      const w = whoisStyle(obj);
      for (const [k, v] of Object.entries(w.Data)) data[k.toLowerCase()] = v.join(',');
      response = w;
    }
    const json = JSON.stringify(response);
    Object.assign(data, { type: 'whois', host: query, response: json, body: json });
    const r = await operate(ctx, 'whois', b, data, vars, {
      host: query,
      matchedAt: query,
      request: '',
      response: json,
    });
    return { matched: r.matched, requests: 1, stop: r.matched && ctx.t.stopAtFirstMatch };
  } catch (err) {
    // fetch says only "fetch failed"; a refused connection is its cause, and says why.
    const cause = (err as { cause?: unknown }).cause;
    return {
      matched: false,
      requests: 1,
      error: `could not make whois request: ${isEgressDenied(cause) ? cause.message : (err as Error).message}`,
    };
  }
}

export const whoisProtocol: Protocol<WhoisBlock> = {
  name: 'whois',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  execute,
};
