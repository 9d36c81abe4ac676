// Runs the http blocks of one template against one input: builds each request from the values of the
// moment, sends it (redirects, cookies, digest auth), runs the operators on every response and emits
// result events. Values extracted along the way feed later requests and blocks.
import { isUtf8 } from 'node:buffer';
import net from 'node:net';
import { statSync, readFileSync } from 'node:fs';
import type { HttpRequest, Payloads, Template } from '../../template/types.ts';
import { wordListLines } from '../../template/payloads.ts';
import type { ResultEvent } from '../../output/types.ts';
import {
  render as dslRender,
  runOperators,
  unresolvedVariables,
  unsupportedCalls,
  takePendingWait,
  isPendingIO,
  fulfillPendingIO,
} from './deps.ts';
import { buildFromPath, buildFromRaw, hostOf, payloadMarkers, type Render } from './build.ts';
import { DEFAULT_MAX_SIZE, send } from './client.ts';
import { CookieJar } from './cookies.ts';
import { responseData } from './data.ts';
import { digestAuthorization, parseChallenge } from './digest.ts';
import { curlCommand, redact, serializeRequest, serializeResponse } from './dump.ts';
import { READS_ALL, readsOf, type Reads } from './reads.ts';
import { eventsFor, baseEvent, type OperatorOutcome } from './events.ts';
import { inputVariables, parseInput, type ParsedInput } from './input.ts';
import { combinations } from './payloads.ts';
import { getHeader, setHeader, deleteHeader } from './raw.ts';
import type { HttpResponse, HttpRunOptions, PreparedRequest } from './types.ts';
import { merge, requestVars } from './vars.ts';
import { passes, sleep } from '../common/block.ts';
import type { BlockContext, BlockResult, HostErrorTracker } from '../types.ts';
import { dnsPromises } from '../../lazy.ts';
import { interactionValues, oastMarkers, readsInteractions } from './oast.ts';
import type { OastInteraction } from '../../oast/client.ts';
import { traceExtractors, traceMatchers } from '../../runner/trace.ts';

export type { HostErrorTracker };

export interface ExecuteOptions extends HttpRunOptions {
  matcherStatus?: boolean;
  /** Clustered templates: their operators run on this template's responses (see runner/cluster.ts). */
  clusterMembers?: Template[];
  hostErrors?: HostErrorTracker;
}

export interface ExecuteResult {
  matched: boolean;
  /** Ids of the cluster members that matched. */
  membersMatched?: Set<string>;
  /** Every value extracted, internal extractors included. */
  dynamic: Record<string, unknown>;
  error?: string;
  requests: number;
}

const render: Render = (text, vars) => (text.includes('{{') ? dslRender(text, vars) : text);

const ipCache = new Map<string, string>();
/** Header names (lower case) the secret file set on a request. */
const secretHeaderNames = new WeakMap<PreparedRequest, Set<string>>();
const ipPending = new Map<string, Promise<string>>();
/** The address of a host: synchronous once known (IPs, cached names), a DNS lookup the first time. */
function resolveIp(host: string): string | Promise<string> {
  const hit = ipCache.get(host);
  if (hit !== undefined) return hit;
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIP(bare)) return bare;
  let p = ipPending.get(bare);
  if (!p) {
    p = dnsPromises()
      .lookup(bare)
      .then(
        (a) => a.address,
        () => '',
      )
      .then((ip) => {
        // Bounded: a scan of many host names must not grow this for the life of the process.
        if (ipCache.size >= 10_000) ipCache.delete(ipCache.keys().next().value!);
        ipCache.set(host, ip);
        ipPending.delete(bare);
        return ip;
      });
    ipPending.set(bare, p);
  }
  return p;
}

/** resolveIp for the host of an origin, cached by origin (looked up after every response). */
const originIps = new Map<string, string>();
function ipOfOrigin(origin: string): string | Promise<string> {
  const hit = originIps.get(origin);
  if (hit !== undefined) return hit;
  const known = resolveIp(hostOf(origin).replace(/:\d+$/, ''));
  if (typeof known !== 'string') return known;
  if (originIps.size >= 10000) originIps.clear();
  originIps.set(origin, known);
  return known;
}

const NO_SECRETS: string[] = [];
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** How a request follows redirects: at most `max` hops, to any host or only to the same one. */
interface RedirectPolicy {
  redirects: boolean;
  hostRedirects: boolean;
  maxRedirects: number;
}
const maxHops = (p: RedirectPolicy) => Math.min(p.maxRedirects > 0 ? p.maxRedirects : 10, 10);
const followsRedirects = (p: RedirectPolicy, disabled: boolean | undefined) =>
  (p.redirects || p.hostRedirects) && !disabled;

/**
 * A cluster follows redirects as far as its most permissive template would (any host beats same host,
 * the highest limit wins), so every template's own chain is a prefix of the shared one.
 */
function widestPolicy(rs: HttpRequest[]): RedirectPolicy {
  return {
    redirects: rs.some((r) => r.redirects),
    hostRedirects: rs.some((r) => r.hostRedirects),
    maxRedirects: Math.max(...rs.map((r) => (r.redirects || r.hostRedirects ? maxHops(r) : 0))),
  };
}

/** How many hops of a chain a request with policy `p` would have received itself (its prefix). */
function hopsSeen(p: RedirectPolicy, hops: Hop[], disabled: boolean | undefined): number {
  if (!followsRedirects(p, disabled)) return 1;
  const max = maxHops(p);
  let n = 1;
  while (
    n < hops.length &&
    n <= max &&
    (p.redirects || new URL(hops[n]!.req.origin).host === new URL(hops[n - 1]!.req.origin).host)
  )
    n++;
  return n;
}

const indexedCache = new WeakMap<HttpRequest, boolean>();
/** Names like body_1, status_code_2 in dsl expressions or parts turn req-condition on. */
function usesIndexedNames(r: HttpRequest): boolean {
  let hit = indexedCache.get(r);
  if (hit === undefined) indexedCache.set(r, (hit = scanIndexedNames(r)));
  return hit;
}

function scanIndexedNames(r: HttpRequest): boolean {
  const texts = [
    ...r.matchers.flatMap((m) => [...(m.dsl ?? []), m.part ?? '']),
    ...r.extractors.flatMap((e) => [...(e.dsl ?? []), e.part ?? '']),
  ];
  return texts.some((s) => /\b[a-z_]+_\d+\b/i.test(s));
}

/** CLI values that name a readable file become payload lists for self-contained templates (nuclei -V k=file). */
function filePayloads(vars: Record<string, string>): Payloads {
  const out: Payloads = {};
  for (const [k, v] of Object.entries(vars)) {
    try {
      if (v && statSync(v).isFile()) out[k] = wordListLines(readFileSync(v, 'utf8'));
    } catch {
      // Not a file: an ordinary value.
    }
  }
  return out;
}

/** Parsed input and built-ins per target, shared by every template run on it. */
const inputs = new Map<string, { input: ParsedInput; builtins: Record<string, string> }>();
function inputFor(target: string): { input: ParsedInput; builtins: Record<string, string> } {
  let hit = inputs.get(target);
  if (!hit) {
    if (inputs.size > 5000) inputs.clear();
    hit = { input: parseInput(target), builtins: Object.freeze(inputVariables(target)) as Record<string, string> };
    inputs.set(target, hit);
  }
  return hit;
}

interface Item {
  tpl: string;
  raw: boolean;
  combo: Record<string, string>;
}

/** Every path or raw entry of a block for each payload combination, in that order (an iterator: no generator to resume per request). */
class Items implements IterableIterator<Item> {
  private combo: Record<string, string> | undefined;
  private index = 0;

  constructor(
    private readonly combos: Iterator<Record<string, string>>,
    private readonly templates: { tpl: string; raw: boolean }[],
  ) {}

  [Symbol.iterator](): this {
    return this;
  }

  next(): IteratorResult<Item> {
    if (this.combo === undefined || this.index >= this.templates.length) {
      const c = this.combos.next();
      if (c.done || this.templates.length === 0) return { done: true, value: undefined };
      this.combo = c.value;
      this.index = 0;
    }
    const t = this.templates[this.index++]!;
    return { done: false, value: { tpl: t.tpl, raw: t.raw, combo: this.combo } };
  }
}

interface Prepared {
  req: PreparedRequest;
  vars: Record<string, unknown>;
  /** The interactsh names this request carries (one per marker), when it has any. */
  oast?: string[];
}

interface Hop {
  req: PreparedRequest;
  res: HttpResponse;
  body: string;
  /** The body was valid UTF-8 (else body holds its bytes as latin1). */
  text: boolean;
  url: string;
}

function hopOf(req: PreparedRequest, res: HttpResponse): Hop {
  const url = req.displayUrl ?? req.origin + (req.path.startsWith('/') ? req.path : `/${req.path}`);
  // Go keeps a body's bytes: valid UTF-8 reads as text; anything else byte for byte (latin1), never
  // with U+FFFD in place of what arrived.
  const text = isUtf8(res.body);
  return { req, res, body: res.body.toString(text ? 'utf8' : 'latin1'), text, url };
}

/** What every request of a block shares, worked out once per block. */
interface BlockPlan {
  /** One exchange per request: no redirect to follow, no rate-limit token or digest challenge to wait for. */
  direct: boolean;
  /** Responses are matched without waiting: no cluster members, no DSL call that defers (reads.ts). */
  syncMatch: boolean;
  cap: number;
  reads: Reads;
}

/** The values a response is matched with, and how its result events are built. */
interface ResponseValues {
  full: Record<string, unknown>;
  data: Record<string, unknown>;
  host: string;
  /** The request as sent, redacted (built on first use). */
  requestText: () => string;
  /** The response text is in `data` (values built whole, or the operators read it). */
  builtHead: boolean;
}

class TemplateRun {
  readonly input: ParsedInput | undefined;
  readonly builtins: Record<string, string>;
  readonly dynamic: Record<string, unknown>;
  readonly jar = new CookieJar();
  readonly cliVars: Record<string, string>;
  readonly extraPayloads: Payloads;
  matched = false;
  /** Whether the block running now passed, as a flow call sees it (see process()). */
  blockPassed = false;
  stopAll = false;
  /** Cluster runs: the template (leader) or members done after a match under stop-at-first-match. */
  private readonly done = new Set<Template>();
  /** Cluster runs: the redirect policy the shared request follows (see widestPolicy). */
  private readonly fetchPolicy: RedirectPolicy | undefined;
  lastError: string | undefined;
  /** A request's interaction matched (stop-at-first-match then reports no later one). */
  private oastMatched = false;
  requests = 0;
  emitted = 0;

  /**
   * `dynamic` is the template's shared values (other blocks read and write it); `report` gets the events
   * of every response; `multi` exports every response value as http_<key> too (multi-protocol templates).
   */
  constructor(
    readonly t: Template,
    readonly target: string | undefined,
    readonly o: ExecuteOptions,
    readonly report: (events: ResultEvent[]) => void,
    dynamic?: Record<string, unknown>,
    readonly multi = false,
  ) {
    this.dynamic = dynamic ?? {};
    const parsed = target ? inputFor(target) : undefined;
    this.input = parsed?.input;
    this.builtins = parsed?.builtins ?? {};
    this.extraPayloads = t.selfContained && o.varFiles ? filePayloads(o.vars) : {};
    this.cliVars = Object.fromEntries(Object.entries(o.vars).filter(([k]) => !(k in this.extraPayloads)));
    if (o.clusterMembers?.length) this.fetchPolicy = widestPolicy([t, ...o.clusterMembers].map((x) => x.http[0]!));
  }

  /** Whether a stop-at-first-match stop is due: always alone; in a cluster once every template is done. */
  private clusterDone(): boolean {
    return !this.o.clusterMembers || (this.done.has(this.t) && this.o.clusterMembers.every((m) => this.done.has(m)));
  }

  private secrets(): string[] {
    // Values of the custom headers are credentials as often as not (Authorization, API keys): redacted
    // from the request dumps like the secret file's (short ones would garble the output and hide nothing).
    const fromFile = this.o.secrets?.secretValues() ?? NO_SECRETS;
    if (!this.o.headers?.length) return fromFile; // the usual case, once per response: nothing to build
    const custom = this.o.headers.map(([, v]) => v).filter((v) => v.length >= 6);
    return custom.length ? [...fromFile, ...custom] : fromFile;
  }

  async run(): Promise<void> {
    for (const r of this.t.http) {
      if (this.stopAll || this.o.signal?.aborted) break;
      await this.runBlock(r);
    }
  }

  async runBlock(r: HttpRequest): Promise<void> {
    const reqCondition = r.reqCondition || usesIndexedNames(r);
    // -attack-type overrides the template; CLI file payloads alone combine as clusterbomb.
    const attack = r.payloads ? (this.o.attackType ?? r.attack) : 'clusterbomb';
    const payloads: Payloads = hasKeys(this.extraPayloads)
      ? { ...this.extraPayloads, ...r.payloads }
      : (r.payloads ?? {});
    const templates =
      r.raw.length > 0 ? r.raw.map((x) => ({ tpl: x, raw: true })) : r.path.map((x) => ({ tpl: x, raw: false }));
    const state = { stop: false, index: 0, history: {} as Record<string, unknown> };
    const items = new Items(combinations(payloads, attack), templates);
    const stopOn = r.stopAtFirstMatch || this.t.stopAtFirstMatch;
    const plan = this.planFor(r);
    // Runs for every request: awaits only what is really pending (each await is a turn of the
    // microtask queue, and the first thousands of requests run before V8 has optimised any of this),
    // and the usual request goes through no async function but this one.
    const runItem = async (item: Item, prepared?: Prepared[]) => {
      if (state.stop || this.stopAll || this.o.signal?.aborted) return;
      const list = prepared ?? this.prepareNow(r, item) ?? (await this.prepareWithIO(r, item));
      const wait = takePendingWait();
      if (wait > 0) await this.waitFor(wait);
      for (let i = 0; i < list.length; i++) {
        const { req, vars } = list[i]!;
        if (state.stop || this.stopAll) return;
        const n = ++state.index;
        let hops: Hop[] | undefined;
        if (plan.direct) {
          this.prepareFirst(r, req);
          const hostKey = this.sendable(r, req);
          if (hostKey !== undefined) {
            this.countRequest();
            try {
              const res = await send(req, this.o, plan.cap);
              this.storeCookies(r, req, res);
              hops = [hopOf(req, res)];
            } catch (err) {
              this.sendFailed(err, hostKey, r, req);
            }
          }
        } else hops = await this.fetchChain(r, req);
        if (!hops) continue;
        const known = ipOfOrigin(hops[hops.length - 1]!.req.origin);
        const ip = typeof known === 'string' ? known : await known;
        const history = reqCondition ? state.history : undefined;
        const names = list[i]!.oast;
        if (names && readsInteractions(r)) {
          this.awaitInteraction(r, hops[hops.length - 1]!, vars, history, n, ip, names);
          continue;
        }
        let matched =
          plan.syncMatch && hops.length === 1
            ? this.processOne(r, hops[0]!, vars, history, n, ip, plan.reads)
            : this.process(r, hops, vars, history, n, ip, plan.reads);
        if (typeof matched !== 'boolean') matched = await matched;
        if (this.o.clusterMembers ? this.clusterDone() : matched && stopOn) {
          state.stop = true;
          if (this.t.stopAtFirstMatch) this.stopAll = true;
        }
      }
    };
    if (r.race) {
      const all = [...items];
      const base = all.length === 1 ? Array.from({ length: Math.max(1, r.raceCount || 10) }, () => all[0]) : all;
      const built = [];
      for (const item of base) built.push({ item, reqs: await this.prepareWithIO(r, item) });
      await pool(built, r.threads > 0 ? r.threads : built.length, ({ item, reqs }) => runItem(item, reqs));
    } else if (r.threads > 0 && !reqCondition) {
      await pool(items, r.threads, (item) => runItem(item));
    } else {
      for (const item of items) {
        if (state.stop || this.stopAll) break;
        await runItem(item);
      }
    }
  }

  private planFor(r: HttpRequest): BlockPlan {
    const reads = this.o.clusterMembers ? READS_ALL : readsOf(r);
    return {
      direct:
        !followsRedirects(this.fetchPolicy ?? r, this.o.disableRedirects) &&
        !this.o.takeToken &&
        r.digestUsername === undefined,
      syncMatch: !this.o.clusterMembers && !reads.defers,
      cap: responseCap(r),
      reads,
    };
  }

  /** Renders one path/raw entry; iterate-all turns list values into one request per value. */
  private prepare(r: HttpRequest, item: Item): Prepared[] {
    // A fresh interactsh name per request and marker (nuclei hands one out per use): an interaction then
    // names the request that caused it. Markers in template variables and payloads count too.
    let oast: string[] | undefined;
    let seed: Record<string, string> | undefined;
    if (this.o.oast) {
      const text = `${sourceText(r, item)}\n${Object.values(this.t.variables).join('\n')}\n${Object.values(item.combo).join('\n')}`;
      const markers = oastMarkers(text);
      if (markers.length) {
        oast = markers.map(() => this.o.oast!.newUrl());
        seed = Object.fromEntries(markers.map((m, i) => [m, oast![i]!]));
      }
    }
    let vars = requestVars(this.t, this.builtins, this.dynamic, item.combo, this.cliVars, render, seed);
    if (!this.input) {
      // Self-contained: built-ins (Hostname ...) come from the absolute URL the request names.
      const line = render(payloadMarkers(item.tpl.replace(/^\s*(@[^\n]*\n\s*)*/, '').split('\n')[0]), vars);
      const m = /(https?:\/\/[^\s/?#]+)/i.exec(line);
      if (m) vars = requestVars(this.t, inputVariables(m[1]), this.dynamic, item.combo, this.cliVars, render, seed);
    }
    let varSets = [vars];
    if (r.iterateAll) {
      const text = sourceText(r, item);
      for (const [k, v] of Object.entries(this.dynamic)) {
        if (!Array.isArray(v) || !text.includes(k)) continue;
        varSets = varSets.flatMap((s) => v.map((x) => ({ ...s, [k]: x })));
      }
    }
    const out: Prepared[] = [];
    for (const vs of varSets) {
      try {
        const req = item.raw
          ? buildFromRaw(r, item.tpl, vs, this.input, this.t.selfContained, render)
          : buildFromPath(r, item.tpl, vs, this.input, render);
        // Only a request that still shows a marker can have unresolved variables; name them then.
        if (!r.skipVariablesCheck && showsMarker(req)) {
          const missing = unresolvedVariables(sourceText(r, item), vs);
          if (missing.length > 0) {
            this.lastError = `unresolved variables: ${missing.join(', ')}`;
            continue;
          }
          // A call Vigil refuses (gadget generators, llm_prompt) fails the request with its own message.
          const refused = unsupportedCalls(sourceText(r, item), vs);
          if (refused.length > 0) {
            this.lastError = refused.join('; ');
            continue;
          }
        }
        // vs holds every payload value already (rendered, as requestVars sets them): no copy needed.
        out.push(oast ? { req, vars: vs, oast } : { req, vars: vs });
      } catch (err) {
        if (isPendingIO(err)) throw err;
        this.lastError = (err as Error).message;
      }
    }
    return out;
  }

  private applySecrets(r: HttpRequest, req: PreparedRequest): void {
    if (!this.o.secrets || r.skipSecretFile) return;
    let url: URL;
    try {
      url = new URL(req.origin + req.path);
    } catch {
      return;
    }
    const before = url.search;
    const headers: Record<string, string> = {};
    for (const [k, v] of req.headers) headers[k] = v;
    const original = new Map(req.headers.map(([k, v]) => [k.toLowerCase(), v]));
    this.o.secrets.apply({ url, headers });
    // Remember which headers came from the secret file: a redirect drops them (see fetchChain).
    const touched = new Set<string>();
    for (const [k, v] of Object.entries(headers)) if (original.get(k.toLowerCase()) !== v) touched.add(k.toLowerCase());
    if (touched.size > 0) secretHeaderNames.set(req, touched);
    const lower = new Map(Object.keys(headers).map((k) => [k.toLowerCase(), k]));
    for (const [k] of [...req.headers]) if (!lower.has(k.toLowerCase())) deleteHeader(req.headers, k);
    for (const [k, v] of Object.entries(headers)) setHeader(req.headers, k, v);
    if (url.search !== before) req.path = req.path.split('?')[0] + url.search;
    if (req.unsafe)
      req.rawBytes = serializeRequest({ ...req, unsafe: false }).replace(
        /^.*?\r\n/,
        `${req.method} ${req.path} HTTP/1.1\r\n`,
      );
  }

  /** Sends one request and follows redirects when asked; undefined after a network error. */
  private async fetchChain(r: HttpRequest, first: PreparedRequest): Promise<Hop[] | undefined> {
    const hops: Hop[] = [];
    const policy = this.fetchPolicy ?? r;
    const follow = followsRedirects(policy, this.o.disableRedirects);
    const max = maxHops(policy);
    let req = first;
    this.prepareFirst(r, req);
    for (;;) {
      const res = await this.sendOne(r, req);
      if (!res) return hops.length > 0 ? hops : undefined;
      const hop = hopOf(req, res);
      const url = hop.url;
      hops.push(hop);
      if (!follow || !REDIRECTS.has(res.status) || hops.length - 1 >= max) return hops;
      const location = res.headers.find(([k]) => k.toLowerCase() === 'location')?.[1];
      if (!location) return hops;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        return hops;
      }
      if (policy.hostRedirects && !policy.redirects && next.host !== new URL(req.origin).host) return hops;
      const keepBody = res.status === 307 || res.status === 308;
      // Every header the secret file set is dropped, on any hop; the secrets are then applied again for
      // the new URL, so they reach only the hosts their scope names (a redirect to another host never
      // carries them). Cookie and Authorization follow Go's rules: only to the same host.
      const fromSecrets = secretHeaderNames.get(req);
      const sameHost = next.host === new URL(req.origin).host;
      const headers = req.headers.filter(([k]) => {
        const lk = k.toLowerCase();
        if (fromSecrets?.has(lk)) return false;
        if (lk === 'host' || lk === 'content-length' || lk === 'cookie') return false;
        return lk !== 'authorization' || sameHost;
      });
      const method = keepBody ? req.method : req.method === 'HEAD' ? 'HEAD' : 'GET';
      const nextBody = keepBody ? req.body : undefined;
      setHeader(headers, 'Host', next.host);
      if (nextBody) setHeader(headers, 'Content-Length', String(Buffer.byteLength(nextBody)));
      req = {
        method,
        origin: `${next.protocol}//${next.host}`,
        path: next.pathname + next.search,
        headers,
        body: nextBody,
        unsafe: false,
        timeout: req.timeout,
        sni: req.sni,
      };
      this.applySecrets(r, req);
    }
  }

  /** The first request of a chain gets the -H headers and the secret file's (later hops: see fetchChain). */
  private prepareFirst(r: HttpRequest, req: PreparedRequest): void {
    if (this.o.headers?.length && !req.unsafe) for (const [k, v] of this.o.headers) setHeader(req.headers, k, v);
    this.applySecrets(r, req);
  }

  /** The host's key once the request may go (with the jar's cookies); undefined for a skipped host. */
  private sendable(r: HttpRequest, req: PreparedRequest): string | undefined {
    const hostKey = hostOf(req.origin);
    if (this.o.hostErrors?.isSkipped(hostKey)) {
      this.lastError = `host ${hostKey} skipped after too many errors`;
      return undefined;
    }
    if (!r.disableCookie && !this.jar.empty) {
      const cookie = this.jar.cookieHeader(cookieUrl(req), getHeader(req.headers, 'cookie'));
      if (cookie) {
        setHeader(req.headers, 'Cookie', cookie);
        if (req.unsafe && req.rawBytes && !/\r\ncookie:/i.test(req.rawBytes)) {
          req.rawBytes = req.rawBytes.replace(/\r\n/, `\r\nCookie: ${cookie}\r\n`);
        }
      }
    }
    return hostKey;
  }

  private countRequest(): void {
    this.requests++;
    this.o.onRequest?.();
  }

  private sendFailed(err: unknown, hostKey: string, r: HttpRequest, req: PreparedRequest): void {
    this.lastError = (err as Error).message;
    this.o.hostErrors?.record(hostKey);
    if (this.o.trace) this.traceStep(r, req, undefined, undefined, undefined, this.lastError);
  }

  /** A trace step (only when the caller asked for a trace): secret values redacted everywhere. */
  private traceStep(
    r: HttpRequest,
    req: PreparedRequest,
    hop: Hop | undefined,
    full: Record<string, unknown> | undefined,
    result: OperatorOutcome | undefined,
    error?: string,
  ): void {
    const secrets = this.secrets();
    const clean = (s: string) => redact(s, secrets);
    const cleanHeaders = (hs: [string, string][]) => hs.map(([k, v]): [string, string] => [k, clean(v)]);
    const url = req.displayUrl ?? req.origin + (req.path.startsWith('/') ? req.path : `/${req.path}`);
    this.o.trace!({
      protocol: 'http',
      block: this.t.http.indexOf(r),
      request: {
        method: req.method,
        url: clean(url),
        headers: cleanHeaders(req.headers),
        body: clean(req.unsafe && req.rawBytes !== undefined ? req.rawBytes : (req.body ?? '')),
      },
      ...(hop
        ? {
            response: {
              status: hop.res.status,
              headers: cleanHeaders(hop.res.headers),
              body: clean(hop.body),
              durationMs: Math.round(hop.res.duration),
            },
          }
        : {}),
      ...(error !== undefined ? { error: clean(error) } : {}),
      matchers: full && result ? traceMatchers(r.matchers, full) : [],
      matchersCondition: r.matchersCondition === 'and' ? 'and' : 'or',
      matched: Boolean(result?.matched),
      extractors: full && result ? traceExtractors(r.extractors ?? [], full) : [],
    });
  }

  private async sendOne(r: HttpRequest, req: PreparedRequest): Promise<HttpResponse | undefined> {
    const hostKey = this.sendable(r, req);
    if (hostKey === undefined) return undefined;
    try {
      if (this.o.takeToken) await this.o.takeToken();
      this.countRequest();
      let res = await send(req, this.o, responseCap(r));
      this.storeCookies(r, req, res);
      if (res.status === 401 && r.digestUsername !== undefined) {
        const challenge = res.headers.find(
          ([k, v]) => k.toLowerCase() === 'www-authenticate' && /^\s*digest/i.test(v),
        )?.[1];
        const parsed = challenge ? parseChallenge(challenge) : undefined;
        if (parsed) {
          setHeader(
            req.headers,
            'Authorization',
            digestAuthorization(parsed, req.method, req.path, r.digestUsername, r.digestPassword ?? ''),
          );
          await this.o.takeToken?.();
          this.countRequest();
          res = await send(req, this.o, responseCap(r));
          this.storeCookies(r, req, res);
        }
      }
      return res;
    } catch (err) {
      this.sendFailed(err, hostKey, r, req);
      return undefined;
    }
  }

  /** Set-Cookie headers into the jar (the cookie URL is worked out only when there are some). */
  private storeCookies(r: HttpRequest, req: PreparedRequest, res: HttpResponse): void {
    if (r.disableCookie) return;
    let set: string[] | undefined;
    const headers = res.headers;
    for (let i = 0; i < headers.length; i++) {
      const k = headers[i]![0];
      if (k.length === 10 && k.toLowerCase() === 'set-cookie') (set ??= []).push(headers[i]![1]);
    }
    if (set) this.jar.store(cookieUrl(req), set);
  }

  private async operatorsWithIO(r: HttpRequest, full: Record<string, unknown>, err: unknown): Promise<OperatorOutcome> {
    for (let i = 0; i < 8; i++) {
      if (!isPendingIO(err)) throw err;
      await fulfillPendingIO(err, this.o.guard);
      try {
        return runOperators(r, full) as OperatorOutcome;
      } catch (e) {
        err = e;
      }
    }
    throw err;
  }

  /** Waits what wait_for calls asked for while rendering or matching (never a synchronous sleep). */
  private async waitFor(ms: number): Promise<void> {
    if (ms > 0 && !this.o.signal?.aborted) await sleep(ms, this.o.signal);
  }

  /** prepare() when nothing in the request's markers needs the network first (the usual case); else undefined. */
  private prepareNow(r: HttpRequest, item: Item): Prepared[] | undefined {
    takePendingWait(); // anything left over from elsewhere is not this request's
    try {
      return this.prepare(r, item);
    } catch (err) {
      if (isPendingIO(err)) return undefined;
      throw err;
    }
  }

  /** prepare(), fetching what network helpers in the request's markers need first. */
  private async prepareWithIO(r: HttpRequest, item: Item): Promise<Prepared[]> {
    takePendingWait(); // anything left over from elsewhere is not this request's
    for (let i = 0; ; i++) {
      try {
        return this.prepare(r, item);
      } catch (err) {
        if (!isPendingIO(err) || i >= 8) throw err;
        await fulfillPendingIO(err, this.o.guard);
      }
    }
  }

  readonly membersMatched = new Set<string>();

  /** A cluster member's operators on a response of the shared request: its own events under its own id. */
  private async processMember(
    m: Template,
    full: Record<string, unknown>,
    b: {
      host: string;
      matchedAt: string;
      ip: string;
      request: string;
      data: Record<string, unknown>;
      req: PreparedRequest;
      secrets: string[];
    },
  ): Promise<boolean> {
    const mr = m.http[0]!;
    let res: OperatorOutcome;
    try {
      res = runOperators(mr, full) as OperatorOutcome;
    } catch (err) {
      res = await this.operatorsWithIO(mr, full, err);
    }
    if (mr.matchers.length > 0 && !res.matched) return false;
    const events =
      mr.matchers.length > 0 && mr.matchers.every((x) => x.internal)
        ? []
        : eventsFor(
            m,
            mr.matchers.length > 0,
            {
              matched: res.matched,
              matcherNames: res.matcherNames ?? [],
              extracts: res.extracts ?? {},
              outputExtracts: res.outputExtracts ?? [],
              dynamic: res.dynamic ?? {},
            },
            {
              host: b.host,
              matchedAt: b.matchedAt,
              ip: b.ip,
              request: b.request,
              get response() {
                return redact(String(b.data.response), b.secrets);
              },
              get curl() {
                return redact(curlCommand(b.req), b.secrets);
              },
            },
          );
    if (events.length) this.report(events);
    if (events.length > 0) this.membersMatched.add(m.id);
    return events.length > 0 && res.matched && mr.matchers.length > 0;
  }

  /**
   * Runs operators on every response of the chain, the final one first (as nuclei does). In a cluster each
   * template sees the part of the chain its own redirect settings would have fetched, and stops at its own
   * first match when it asks to.
   */
  private async process(
    r: HttpRequest,
    hops: Hop[],
    vars: Record<string, unknown>,
    history: Record<string, unknown> | undefined,
    n: number,
    ip: string,
    reads: Reads,
  ): Promise<boolean> {
    let matchedAny = false;
    const final = hops[hops.length - 1];
    const members = this.o.clusterMembers;
    const leaderSees = members ? hopsSeen(r, hops, this.o.disableRedirects) : hops.length;
    // Worked out once per chain: a cluster can have hundreds of members.
    const memberSees = members?.map((m) => hopsSeen(m.http[0]!, hops, this.o.disableRedirects));
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = hops[i]!;
      // The last response handled (i === 0) takes the request's own map, which nothing reads after it.
      const v = this.responseValues(r, hop, i === 0 ? vars : merge(vars), hop === final, history, n, ip, reads);
      let result: OperatorOutcome | undefined;
      if (i < leaderSees && !(members && this.done.has(this.t))) {
        try {
          result = runOperators(r, v.full) as OperatorOutcome;
        } catch (err) {
          // A network helper (jarm, resolve) needs its answer fetched first: fetch it without blocking,
          // then evaluate again (operators have no side effects to repeat).
          result = await this.operatorsWithIO(r, v.full, err);
        }
        const wait = takePendingWait();
        if (wait > 0) await this.waitFor(wait);
        this.keepOutcome(r, result);
      }
      if (this.o.trace) this.traceStep(r, hop.req, hop, v.full, result);
      if (members) {
        for (let j = 0; j < members.length; j++) {
          const m = members[j]!;
          const mr = m.http[0]!;
          if (i >= memberSees![j]! || this.done.has(m)) continue;
          const hit = await this.processMember(m, v.full, {
            host: v.host,
            matchedAt: hop.url,
            ip: String(v.data.ip ?? ''),
            request: v.requestText(),
            data: v.data,
            req: hop.req,
            secrets: this.secrets(),
          });
          if (hit && (mr.stopAtFirstMatch || m.stopAtFirstMatch)) this.done.add(m);
        }
      }
      if (!result) {
        if (this.clusterDone()) break;
        continue;
      }
      if (this.reportResult(r, hop, result, v)) {
        matchedAny = true;
        if (r.stopAtFirstMatch || this.t.stopAtFirstMatch) {
          if (members) this.done.add(this.t);
          if (this.clusterDone()) break;
        }
      }
    }
    return matchedAny;
  }

  /**
   * process() for the usual response: alone in its chain, no cluster members, operators that never wait
   * (the block's plan says so). The same steps, without an async function per response.
   */
  private processOne(
    r: HttpRequest,
    hop: Hop,
    vars: Record<string, unknown>,
    history: Record<string, unknown> | undefined,
    n: number,
    ip: string,
    reads: Reads,
  ): boolean | Promise<boolean> {
    const v = this.responseValues(r, hop, vars, true, history, n, ip, reads);
    let result: OperatorOutcome;
    try {
      result = runOperators(r, v.full) as OperatorOutcome;
    } catch (err) {
      // The plan did not see this call coming: process() fetches what it needs (the values are rebuilt
      // the same way; nothing was reported yet).
      if (isPendingIO(err)) return this.process(r, [hop], vars, history, n, ip, reads);
      throw err;
    }
    const wait = takePendingWait();
    if (wait > 0) return this.waitFor(wait).then(() => this.settle(r, hop, result, v));
    return this.settle(r, hop, result, v);
  }

  /** The end of processOne: the outcome kept, its events reported. */
  private settle(r: HttpRequest, hop: Hop, result: OperatorOutcome, v: ResponseValues): boolean {
    this.keepOutcome(r, result);
    if (this.o.trace) this.traceStep(r, hop.req, hop, v.full, result);
    return this.reportResult(r, hop, result, v);
  }

  /**
   * The values one response is matched with. `into`: the map they are written over (the request's values,
   * or a copy of them). `final`: the last response of its chain, whose values later requests and blocks see.
   */
  private responseValues(
    r: HttpRequest,
    hop: Hop,
    into: Record<string, unknown>,
    final: boolean,
    history: Record<string, unknown> | undefined,
    n: number,
    ip: string,
    reads: Reads,
  ): ResponseValues {
    let requestText: string | undefined;
    const textOf = () => {
      if (requestText === undefined) {
        const secrets = this.secrets();
        requestText = secrets.length > 0 ? redact(serializeRequest(hop.req), secrets) : serializeRequest(hop.req);
      }
      return requestText;
    };
    const exported = final && !!(history || r.id || this.multi);
    const host = this.target ?? hop.req.origin;
    const ctx = {
      requestText: exported || reads.request ? textOf() : '',
      matchedUrl: hop.url,
      host,
      ip,
      templateId: this.t.id,
      templatePath: this.t.path,
    };
    let full: Record<string, unknown>;
    let data: Record<string, unknown>;
    if (exported) {
      data = responseData(hop.res, hop.body, ctx, undefined, hop.text);
      // Values of this response stay visible to later requests as <key>_<n> and <block id>_<key>
      // (http_<key> in a multi-protocol template, for blocks without an id).
      for (const [k, v] of Object.entries(data)) {
        if (history) history[`${k}_${n}`] = v;
        if (r.id) this.dynamic[`${r.id}_${k}`] = v;
        else if (this.multi && !k.startsWith('template-')) this.dynamic[`http_${k}`] = v;
      }
      full = merge(into, hasKeys(this.dynamic) ? this.dynamic : undefined, data, history);
    } else {
      // The usual case: response values go straight over the request's (same result, one copy less).
      // Key by key on purpose: V8 adds keys to a `{ ...spread }` clone about ten times slower.
      const dynamic = this.dynamic;
      for (const k in dynamic) into[k] = dynamic[k];
      full = responseData(hop.res, hop.body, ctx, into, hop.text, reads);
      if (history) for (const k in history) full[k] = history[k];
      data = full; // its response keys are the response's: history keys all end in _<n>
    }
    return { full, data, host, requestText: textOf, builtHead: exported || reads.head };
  }

  /**
   * The response of a request carrying interactsh names, for operators that read interactsh values: its
   * values are kept, and the operators run when an interaction with one of the names comes (the scan's
   * client polls for it until its cooldown ends). The first interaction that matches reports the result,
   * with the interaction on the event.
   */
  private awaitInteraction(
    r: HttpRequest,
    hop: Hop,
    vars: Record<string, unknown>,
    history: Record<string, unknown> | undefined,
    n: number,
    ip: string,
    names: string[],
  ): void {
    const v = this.responseValues(r, hop, vars, true, history, n, ip, READS_ALL);
    const kept = { ...v.full };
    let settled = false;
    const stopOn = r.stopAtFirstMatch || this.t.stopAtFirstMatch;
    const onInteraction = (i: OastInteraction): boolean => {
      if (settled) return true;
      // stop-at-first-match: an earlier request of this run already matched on its interaction (nuclei).
      if (stopOn && this.oastMatched) return true;
      const full = { ...kept, ...interactionValues(i) };
      let result: OperatorOutcome;
      try {
        result = runOperators(r, full) as OperatorOutcome;
      } catch {
        return false;
      }
      if (r.matchers.length > 0 ? !result.matched : !hasKeys(result.extracts ?? {})) return false;
      settled = true;
      this.oastMatched = true;
      this.reportResult(r, hop, result, { ...v, full }, i);
      return true;
    };
    for (const name of names) this.o.oast!.expect(name, onInteraction);
  }

  /** Values the operators extracted join the template's; a flow sees whether the block passed. */
  private keepOutcome(r: HttpRequest, result: OperatorOutcome): void {
    if (result.dynamic) for (const k in result.dynamic) this.dynamic[k] = result.dynamic[k];
    if (passes(r, result)) this.blockPassed = true;
  }

  /** Reports the result events of one response; true when the block's matchers matched. */
  private reportResult(
    r: HttpRequest,
    hop: Hop,
    result: OperatorOutcome,
    v: ResponseValues,
    interaction?: OastInteraction,
  ): boolean {
    // Most responses match nothing: skip building event inputs then (eventsFor would return none).
    if (r.matchers.length > 0 && !result.matched) return false;
    const secrets = this.secrets();
    // A step whose matchers are all internal only gates later steps: it reports nothing itself.
    const events =
      r.matchers.length > 0 && r.matchers.every((m) => m.internal)
        ? []
        : eventsFor(
            this.t,
            r.matchers.length > 0,
            {
              matched: result.matched,
              matcherNames: result.matcherNames ?? [],
              extracts: result.extracts ?? {},
              outputExtracts: result.outputExtracts ?? [],
              dynamic: result.dynamic ?? {},
            },
            {
              host: v.host,
              matchedAt: hop.url,
              ip: String(v.data.ip ?? ''),
              // Built only when there is an event to carry them.
              get request() {
                return v.requestText();
              },
              get response() {
                return redact(v.builtHead ? String(v.data.response) : serializeResponse(hop.res, hop.body), secrets);
              },
              get curl() {
                return redact(curlCommand(hop.req), secrets);
              },
            },
          );
    if (interaction) for (const ev of events) ev.interaction = interaction;
    this.emitted += events.length;
    this.report(events);
    // Only matchers count as a match: extractor-only results never stop a request (nuclei).
    if (events.length > 0 && result.matched && r.matchers.length > 0) {
      this.matched = true;
      return true;
    }
    if (events.length > 0) this.matched = true;
    return false;
  }
}

/** The text a request is built from, for naming its unresolved variables (rare: computed on demand). */
function sourceText(r: HttpRequest, item: Item): string {
  return payloadMarkers([item.tpl, ...Object.values(r.headers), r.body ?? ''].join('\n'));
}

function showsMarker(req: PreparedRequest): boolean {
  if (req.path.includes('{{') || req.body?.includes('{{')) return true;
  for (const h of req.headers) if (h[1].includes('{{')) return true;
  return false;
}

function hasKeys(o: Record<string, unknown>): boolean {
  for (const _ in o) return true;
  return false;
}

/** Runs `fn` over items with at most `limit` in flight. */
async function pool<T>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const it = items[Symbol.iterator]();
  const workers = Array.from({ length: Math.max(1, limit) }, async () => {
    for (;;) {
      const next = it.next();
      if (next.done) return;
      await fn(next.value);
    }
  });
  await Promise.all(workers);
}

/**
 * Runs a whole http template on `target` (undefined for self-contained templates), every block in order,
 * cluster members' operators on its responses. The http protocol's cluster executor (cluster.ts) uses it;
 * everything else goes block by block through `executeHttpBlock` below (flows too, see flow/run.ts).
 */
export async function executeHttp(
  t: Template,
  target: string | undefined,
  o: ExecuteOptions,
  emit: (ev: ResultEvent) => void,
): Promise<ExecuteResult> {
  const run = new TemplateRun(t, target, o, (events) => {
    for (const ev of events) emit(ev);
  });
  await run.run();
  if (run.emitted === 0 && o.matcherStatus) emit(await failureEvent(t, target, run.lastError, 'http'));
  return {
    matched: run.matched,
    membersMatched: run.membersMatched,
    dynamic: run.dynamic,
    error: run.lastError,
    requests: run.requests,
  };
}

/** The matcher-status event of a template run that produced no result. */
export async function failureEvent(
  t: Template,
  target: string | undefined,
  error: string | undefined,
  type: string,
): Promise<ResultEvent> {
  const host = target ?? '';
  let ip = '';
  try {
    const name = host ? new URL(parseInput(host).url).hostname : '';
    // Other protocols report no address they did not dial: no lookup of a name that may not even exist
    // outside the resolvers the scan was given (dns inputs).
    ip = !name
      ? ''
      : type === 'http'
        ? await resolveIp(name)
        : net.isIP(name.replace(/^\[|\]$/g, ''))
          ? name.replace(/^\[|\]$/g, '')
          : '';
  } catch {
    ip = '';
  }
  const failure: ResultEvent = {
    ...baseEvent(t, { host, matchedAt: host, ip, request: '', response: '', curl: '' }),
    type,
    'matcher-status': false,
    ...(error ? { error } : {}),
  };
  delete failure.request;
  delete failure.response;
  delete failure['curl-command'];
  return failure;
}

/** One TemplateRun per template run: http blocks share its cookie jar and request count. */
const runs = new WeakMap<BlockContext, TemplateRun>();

/** Runs one http block of a template run (the http Protocol's execute, see index.ts). */
export async function executeHttpBlock(block: HttpRequest, ctx: BlockContext): Promise<BlockResult> {
  let run = runs.get(ctx);
  if (!run) {
    run = new TemplateRun(ctx.t, ctx.target, ctx.o, ctx.report, ctx.shared, ctx.multi);
    runs.set(ctx, run);
  }
  if (run.stopAll) return { matched: false, requests: 0 };
  const before = run.requests;
  const matchedBefore = run.matched;
  run.matched = false;
  run.lastError = undefined;
  run.blockPassed = false;
  await run.runBlock(block);
  if (run.blockPassed) ctx.passed = true;
  const matched = run.matched;
  run.matched ||= matchedBefore;
  return { matched, error: run.lastError, requests: run.requests - before, stop: run.stopAll };
}

/** A template's max-size may lower the engine's response cap, never lift it. */
function responseCap(r: HttpRequest): number {
  return r.maxSize && r.maxSize > 0 ? Math.min(r.maxSize, DEFAULT_MAX_SIZE) : DEFAULT_MAX_SIZE;
}

/** The URL the cookie jar sees for a request (scheme, host and path decide which cookies apply). */
function cookieUrl(req: PreparedRequest): string {
  if (!req.path.startsWith('/')) return `${req.origin}/`;
  const hash = req.path.indexOf('#');
  return req.origin + (hash >= 0 ? req.path.slice(0, hash) : req.path);
}
