// Every request a headless page makes, sent by the engine instead of the browser (as nuclei hijacks them
// and loads them through its own HTTP client): the template's request rules applied (setheader,
// addheader, deleteheader, setmethod, setbody), the host checked by the scan's connect guard (deny list
// and scope: refused before anything is sent, and the connection itself dialled by checked address, so
// DNS rebinding gains nothing), the response's body bounded, the response rules applied, and the
// exchange kept for the `history` part. Redirects come back to the browser as they are and are
// intercepted again, hop by hop.
import type { Route } from 'playwright-core';
import type { Agent } from 'undici';
import { lazy, zlib } from '../../lazy.ts';
import { guardedAgent } from '../../net/undici.ts';
import { isEgressDenied, type ConnectGuard } from '../../net/guard.ts';

const undici = lazy<typeof import('undici')>('undici');

export interface Rule {
  action: 'setheader' | 'addheader' | 'deleteheader' | 'setbody' | 'setmethod';
  part: string;
  key: string;
  value: string;
  /** setmethod applies to the first request only (nuclei's sync.Once). */
  used?: boolean;
}

/** What one page's interception saw. */
export interface PageTraffic {
  rules: Rule[];
  /** Raw exchanges, oldest first (bounded). */
  history: string[];
  historyBytes: number;
  /** Hosts refused by the connect guard, with the reason. */
  refused: string[];
  /** The main frame's last document response. */
  status?: number;
  header?: string;
  requests: number;
}

/** Largest body passed to a page; larger ones are cut (a page cannot make the scan hold gigabytes). */
const MAX_BODY = 10 * 1024 * 1024;
const MAX_HISTORY = 2 * 1024 * 1024;
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'content-length',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
]);

let insecure: Agent | undefined;
const guarded = new WeakMap<ConnectGuard, Agent>();

function dispatcherFor(guard: ConnectGuard | undefined): Agent {
  const connect = { rejectUnauthorized: false };
  if (!guard) return (insecure ??= guardedAgent(undefined, { connect }));
  let agent = guarded.get(guard);
  if (!agent) guarded.set(guard, (agent = guardedAgent(guard, { connect })));
  return agent;
}

function setHeader(h: [string, string][], key: string, value: string): [string, string][] {
  const k = key.toLowerCase();
  return [...h.filter(([n]) => n.toLowerCase() !== k), [key, value]];
}

function applyHeaderRule(h: [string, string][], r: Rule): [string, string][] {
  if (r.action === 'addheader') return [...h, [r.key, r.value]];
  if (r.action === 'setheader') return setHeader(h, r.key, r.value);
  if (r.action === 'deleteheader') return h.filter(([n]) => n.toLowerCase() !== r.key.toLowerCase());
  return h;
}

async function readBounded(body: AsyncIterable<Buffer>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of body) {
    if (size + c.length > MAX_BODY) {
      chunks.push(c.subarray(0, MAX_BODY - size));
      break;
    }
    chunks.push(c);
    size += c.length;
  }
  return Buffer.concat(chunks);
}

/** Bodies go to the browser decoded (a fulfilled response is not decoded again). */
function decode(body: Buffer, encoding: string | undefined): Buffer {
  try {
    const e = (encoding ?? '').trim().toLowerCase();
    const z = zlib();
    const opts = { maxOutputLength: MAX_BODY };
    if (e === 'gzip' || e === 'x-gzip') return z.gunzipSync(body, opts);
    if (e === 'deflate') return z.inflateSync(body, opts);
    if (e === 'br') return z.brotliDecompressSync(body, opts);
  } catch {
    // A body that does not decode as announced is passed on as it came.
  }
  return body;
}

function record(t: PageTraffic, text: string): void {
  if (t.historyBytes >= MAX_HISTORY) return;
  const cut = text.slice(0, MAX_HISTORY - t.historyBytes);
  t.history.push(cut);
  t.historyBytes += cut.length;
}

/** The route handler of one page. */
export function interceptor(
  traffic: PageTraffic,
  o: { guard?: ConnectGuard; timeout: number; signal?: AbortSignal; onRequest?: () => void },
  isMainDocument: (route: Route) => boolean,
): (route: Route) => Promise<void> {
  return async (route) => {
    const req = route.request();
    let url: URL;
    try {
      url = new URL(req.url());
    } catch {
      await route.abort('failed').catch(() => undefined);
      return;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    let method = req.method();
    let body: Buffer | string | null = req.postDataBuffer();
    let headers: [string, string][] = Object.entries(await req.allHeaders().catch(() => req.headers())).filter(
      ([k]) => !k.startsWith(':') && !HOP_BY_HOP.has(k.toLowerCase()),
    );
    for (const r of traffic.rules) {
      if (r.part !== 'request') continue;
      if (r.action === 'setmethod') {
        if (!r.used) method = r.value;
        r.used = true;
      } else if (r.action === 'setbody') body = r.value;
      else headers = applyHeaderRule(headers, r);
    }
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    try {
      // Asked first so a refusal is recorded with its reason; the dispatcher decides the connection itself.
      await o.guard?.addresses(url.hostname, port);
    } catch (err) {
      if (isEgressDenied(err)) traffic.refused.push(`${url.host}: ${(err as Error).message}`);
      await route.abort('blockedbyclient').catch(() => undefined);
      return;
    }
    traffic.requests++;
    o.onRequest?.();
    let status: number;
    let answer: [string, string][];
    let payload: Buffer;
    try {
      const res = await undici().request(url, {
        method: method as 'GET',
        headers: headers.flat(),
        body: method === 'GET' || method === 'HEAD' ? undefined : (body ?? undefined),
        dispatcher: dispatcherFor(o.guard),
        headersTimeout: o.timeout,
        bodyTimeout: o.timeout,
        signal: o.signal,
      });
      status = res.statusCode;
      answer = [];
      const raw = res.headers;
      for (const [k, v] of Object.entries(raw)) {
        if (v === undefined) continue;
        for (const one of Array.isArray(v) ? v : [v]) answer.push([k, one]);
      }
      payload = decode(await readBounded(res.body), raw['content-encoding'] as string | undefined);
    } catch (err) {
      if (isEgressDenied(err)) traffic.refused.push(`${url.host}: ${(err as Error).message}`);
      await route.abort(isEgressDenied(err) ? 'blockedbyclient' : 'failed').catch(() => undefined);
      return;
    }
    answer = answer.filter(([k]) => !HOP_BY_HOP.has(k) && k !== 'content-encoding');
    for (const r of traffic.rules) {
      if (r.part !== 'response') continue;
      if (r.action === 'setbody') payload = Buffer.from(r.value);
      else answer = applyHeaderRule(answer, r);
    }
    const headerText = answer.map(([k, v]) => `${k}: ${v}`).join('\n');
    if (isMainDocument(route)) {
      traffic.status = status;
      traffic.header = headerText;
    }
    record(
      traffic,
      `${method} ${url.href} HTTP/1.1\n${headers.map(([k, v]) => `${k}: ${v}`).join('\n')}\n\n` +
        `HTTP/1.1 ${status}\n${headerText}\n\n${payload.toString('latin1').slice(0, 64 * 1024)}\n`,
    );
    // Repeated headers (Set-Cookie above all) reach the page as one value joined by newlines.
    const merged: Record<string, string> = {};
    for (const [k, v] of answer) merged[k] = merged[k] === undefined ? v : `${merged[k]}\n${v}`;
    await route.fulfill({ status, headers: merged, body: payload }).catch(() => undefined);
  };
}
