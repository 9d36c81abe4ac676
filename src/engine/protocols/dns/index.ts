// The dns protocol: one query per payload combination (name, type, class, recursion) to the template's
// resolvers, the scan's, or the system's, with retries; matchers and extractors see nuclei's parts:
// raw (default; also body and all), answer, ns, extra, question, rcode, request, and each answer's
// data by type (a, cname, txt ...).
import { isIP } from 'node:net';
import type { Packet } from 'dns-packet';
import type { Template } from '../../template/types.ts';
import type { BlockContext, BlockResult, Protocol } from '../types.ts';
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
import { exchange, packet, parseResolver } from './client.ts';
import { fqdn, messageString, questionString, recordValues, rrsString } from './format.ts';
import { resolverAddresses, systemAddresses, trace, traceText } from './trace.ts';
import { crypto, dns } from '../../lazy.ts';

export interface DnsBlock extends CommonBlock {
  name: string;
  type: string;
  class: string;
  recursion: boolean;
  retries: number;
  resolvers: string[];
  /** Iterative resolution from the root servers, its steps exposed as `trace`. */
  trace: boolean;
  traceMaxRecursion: number;
}

/**
 * nuclei leaves trace-max-recursion at 0 when a template omits it, and its loop then asks nobody; a
 * delegation chain rarely has more than a handful of steps, so Vigil walks up to this many.
 */
const TRACE_DEFAULT_STEPS = 16;

const CLASSES: Record<string, string> = { inet: 'IN', csnet: 'CS', chaos: 'CH', hesiod: 'HS', none: 'ANY', any: 'ANY' };

function compile(t: Template): DnsBlock[] {
  return t.other
    .filter((b) => b.protocol === 'dns')
    .map((b) => {
      const c = commonBlock(b);
      const f = c.fields;
      return {
        ...c,
        name: String(f.name ?? ''),
        type: String(f.type ?? 'A').toUpperCase(),
        class: CLASSES[String(f.class ?? 'inet').toLowerCase()] ?? 'IN',
        // nuclei: recursion on unless the template turns it off; 0 retries means 3.
        recursion: f.recursion !== false,
        retries: typeof f.retries === 'number' && f.retries > 0 ? f.retries : 3,
        resolvers: Array.isArray(f.resolvers) ? f.resolvers.map(String) : [],
        trace: f.trace === true,
        traceMaxRecursion:
          typeof f['trace-max-recursion'] === 'number' && f['trace-max-recursion'] > 0
            ? f['trace-max-recursion']
            : TRACE_DEFAULT_STEPS,
      };
    });
}

const compiled = new WeakMap<Template, DnsBlock[]>();

/** The name the input stands for: a URL's or host:port's host; an IP only for PTR (its reverse name). */
export function dnsDomain(target: string, type: string): string {
  let host = target.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(host)) host = new URL(host).hostname;
  else host = host.replace(/\/.*$/, '').replace(/:\d+$/, '');
  host = host.replace(/^\[|\]$/g, '');
  const ip = isIP(host);
  if (ip === 0) return host.replace(/\.$/, '');
  if (type !== 'PTR') throw new Error('cannot use IP address as DNS input');
  if (ip === 4) return `${host.split('.').reverse().join('.')}.in-addr.arpa`;
  return `${expandV6(host).split('').reverse().join('.')}.ip6.arpa`;
}

function expandV6(ip: string): string {
  const [head, tail = ''] = ip.split('::');
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = ip.includes('::') ? [...h, ...Array(8 - h.length - t.length).fill('0'), ...t] : h;
  return groups.map((g) => g.padStart(4, '0')).join('');
}

function resolversFor(b: DnsBlock, ctx: BlockContext, vars: Record<string, unknown>): string[] {
  // As nuclei: the template's own resolvers first, then the scan's, then the system's.
  if (b.resolvers.length > 0) return b.resolvers.map((r) => render(r, vars));
  if (ctx.o.resolvers && ctx.o.resolvers.length > 0) return ctx.o.resolvers;
  return dns().getServers();
}

async function execute(b: DnsBlock, ctx: BlockContext): Promise<BlockResult> {
  const domain = ctx.target ? dnsDomain(ctx.target, b.type) : '';
  const builtins = { ...(domain ? inputVariables(domain) : {}), Input: ctx.target ?? '' };
  let requests = 0;
  let matched = false;
  let error: string | undefined;
  for (const combo of combos(ctx, b)) {
    if (ctx.o.signal?.aborted) break;
    const vars = blockVars(ctx, builtins, combo);
    const name = render(b.name, vars);
    const missing = unresolved(name, vars);
    if (missing.length > 0) {
      error = `unresolved variables: ${missing.join(', ')}`;
      continue;
    }
    const query: Packet = {
      type: 'query',
      id: crypto().randomInt(1, 65535),
      flags: (b.recursion ? packet().RECURSION_DESIRED : 0) | (b.type === 'TXT' ? packet().AUTHENTIC_DATA : 0),
      questions: [{ type: b.type as 'A', class: b.class as 'IN', name: fqdn(name) }],
      additionals: [
        {
          type: 'OPT',
          name: '.',
          udpPayloadSize: 4096,
          flags: 0,
          extendedRcode: 0,
          ednsVersion: 0,
          flag_do: false,
          options: [],
        },
      ],
    };
    const requestText = messageString(query, 0);
    const resolvers = resolversFor(b, ctx, vars);
    const started = performance.now();
    let answer: Buffer | undefined;
    for (let attempt = 0; attempt < b.retries && !answer && !ctx.o.signal?.aborted; attempt++) {
      const resolver = parseResolver(resolvers[attempt % resolvers.length]);
      try {
        if (ctx.o.takeToken) await ctx.o.takeToken();
        requests++;
        ctx.o.onRequest?.();
        // Resolvers a template names are the template author's choice: decided by the scan's guard.
        answer = await exchange(
          packet().encode(query),
          resolver,
          ctx.o.timeout,
          ctx.o.signal,
          b.resolvers.length > 0 ? ctx.o.guard : undefined,
        );
      } catch (err) {
        error = (err as Error).message;
      }
    }
    if (!answer) continue;
    let res;
    try {
      res = packet().decode(answer);
    } catch (err) {
      error = `bad dns answer: ${(err as Error).message}`;
      continue;
    }
    let traced = '';
    if (b.trace) {
      // As nuclei: after the query, the input's domain is traced from the root servers.
      try {
        const steps = await trace(domain || name, b.type, {
          roots: ctx.o.traceRoots,
          port: ctx.o.tracePort,
          maxRecursion: b.traceMaxRecursion,
          timeout: ctx.o.timeout,
          signal: ctx.o.signal,
          guard: ctx.o.guard,
          resolveName: (n) =>
            ctx.o.resolvers?.length
              ? resolverAddresses(n, ctx.o.resolvers, ctx.o.timeout, ctx.o.signal)
              : systemAddresses(n),
          beforeQuery: async () => {
            if (ctx.o.takeToken) await ctx.o.takeToken();
            requests++;
            ctx.o.onRequest?.();
          },
        });
        traced = traceText(steps);
      } catch (err) {
        error = `dns trace: ${(err as Error).message}`;
      }
    }
    const rcode = (res.flags ?? 0) & 0xf;
    const raw = messageString(res, rcode);
    const question = name.replace(/\.$/, '');
    const response: Record<string, unknown> = {
      host: domain,
      matched: question,
      request: requestText,
      rcode,
      question: (res.questions ?? []).map(questionString).join(''),
      extra: rrsString(res.additionals),
      answer: rrsString(res.answers),
      ns: rrsString(res.authorities),
      raw,
      body: raw,
      type: 'dns',
      trace: traced,
      duration: (performance.now() - started) / 1000,
      ...recordValues(res.answers),
    };
    const r = await operate(ctx, 'dns', b, response, vars, {
      host: domain,
      matchedAt: question,
      request: requestText,
      response: raw,
    });
    if (r.matched) {
      matched = true;
      if (ctx.t.stopAtFirstMatch) return { matched, requests, stop: true };
    }
  }
  return { matched, requests, error: matched ? undefined : error };
}

export const dnsProtocol: Protocol<DnsBlock> = {
  name: 'dns',
  blocks(t) {
    let hit = compiled.get(t);
    if (!hit) compiled.set(t, (hit = compile(t)));
    return hit;
  },
  execute,
  // nuclei: no resolvers of its own, no trace, no id; Vigil adds no payloads (each template's would differ).
  cluster: {
    verdict: (b, t) =>
      b.resolvers.length > 0 || b.trace || b.id || b.payloads
        ? { reason: 'dns block not clusterable' }
        : { key: JSON.stringify(['dns', b.name, b.type, b.class, b.retries, b.recursion, t.stopAtFirstMatch]) },
  },
};
