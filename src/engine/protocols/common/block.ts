// What every non-http protocol shares: a block compiled from the template's checked fields, the values
// a request is rendered with, payload combinations, and turning one response into result events through
// the shared operators (exporting its values to later blocks as nuclei's template context does).
import type {
  AttackType,
  Extractor,
  Matcher,
  Operators,
  OtherProtocolBlock,
  Payloads,
  Template,
} from '../../template/types.ts';
import type { ResultEvent } from '../../output/types.ts';
import type { OastInteraction } from '../../oast/client.ts';
import { render as dslRender, unresolvedVariables } from '../../dsl/index.ts';
import { runOperators } from '../../operators/index.ts';
import { isPendingIO, fulfillPendingIO } from '../../dsl/functions/network.ts';
import type { ConnectGuard } from '../../net/guard.ts';
import { takePendingWait } from '../../dsl/functions/time.ts';
import { eventsFor, type OperatorOutcome } from '../http/events.ts';
import { inputVariables } from '../http/input.ts';
import { requestVars } from '../http/vars.ts';
import { combinations } from '../http/payloads.ts';
import type { BlockContext } from '../types.ts';
import { interactionValues, oastMarkers, readsInteractions } from '../http/oast.ts';

export { combinations, inputVariables };

export interface CommonBlock extends Operators {
  id?: string;
  payloads?: Payloads;
  attack: AttackType;
  fields: Record<string, unknown>;
}

/** The operator and payload parts of a block every protocol has. */
export function commonBlock(b: OtherProtocolBlock): CommonBlock {
  const f = b.fields ?? b.raw;
  return {
    id: typeof f.id === 'string' ? f.id : undefined,
    matchers: (f.matchers as Matcher[] | undefined) ?? [],
    extractors: (f.extractors as Extractor[] | undefined) ?? [],
    matchersCondition: (f['matchers-condition'] as 'and' | 'or' | undefined) ?? 'or',
    payloads: b.payloads && Object.keys(b.payloads).length > 0 ? b.payloads : undefined,
    attack: (f.attack as AttackType | undefined) ?? 'batteringram',
    fields: f,
  };
}

export function render(text: string, vars: Record<string, unknown>): string {
  return text.includes('{{') ? dslRender(text, vars) : text;
}

/** Names left as {{markers}} after rendering, or [] when the text is complete. */
export function unresolved(text: string, vars: Record<string, unknown>): string[] {
  return text.includes('{{') ? unresolvedVariables(text, vars) : [];
}

/** Built-ins of the input, shared values, payload values, template variables, CLI variables, constants. */
export function blockVars(
  ctx: BlockContext,
  builtins: Record<string, string>,
  combo: Record<string, string>,
  oast?: OastNames,
): Record<string, unknown> {
  return requestVars(ctx.t, builtins, ctx.shared, combo, ctx.o.vars, render, oast?.seed);
}

/** The interactsh names of one request: the values its markers take, and the names to wait on. */
export interface OastNames {
  names: string[];
  seed: Record<string, string>;
}

/**
 * Fresh interactsh names for one request (nuclei's rules, as http's: one per marker name) when the scan
 * has an interactsh client and the request's texts, the template's variables or the payload values use a
 * marker; undefined otherwise (without a client the markers stay and the request fails as unresolved).
 */
export function oastNamesFor(ctx: BlockContext, texts: string[], combo: Record<string, string>): OastNames | undefined {
  const client = ctx.o.oast;
  if (!client) return undefined;
  const markers = oastMarkers([...texts, ...Object.values(ctx.t.variables), ...Object.values(combo)].join('\n'));
  if (markers.length === 0) return undefined;
  const names = markers.map(() => client.newUrl());
  return { names, seed: Object.fromEntries(markers.map((m, i) => [m, names[i]!])) };
}

/**
 * The response of a request that carried interactsh names, when the block's operators read interactsh
 * values: instead of running now, the operators run on each interaction with one of the names (the
 * scan's client polls until its cooldown), over the response's values and the interaction's; the first
 * that matches reports, with the interaction on its events. False when the operators do not wait (the
 * caller runs them at once, as for any response).
 */
export function awaitInteraction(
  ctx: BlockContext,
  protocol: string,
  b: CommonBlock,
  oast: OastNames | undefined,
  response: Record<string, unknown>,
  vars: Record<string, unknown>,
  fields: EventFields,
): boolean {
  const client = ctx.o.oast;
  if (!client || !oast || !readsInteractions(b)) return false;
  const base: Record<string, unknown> = { ...response, ...vars, ...ctx.shared };
  let settled = false;
  const onInteraction = (i: OastInteraction): boolean => {
    if (settled) return true;
    let result: OperatorOutcome;
    try {
      result = runOperators(b, { ...base, ...interactionValues(i) }) as OperatorOutcome;
    } catch {
      return false;
    }
    if (b.matchers.length > 0 ? !result.matched : !someKey(result.extracts)) return false;
    settled = true;
    const events = eventsOf(ctx.t, protocol, b, result, fields);
    for (const ev of events) ev.interaction = i;
    ctx.report(events);
    return true;
  };
  for (const name of oast.names) client.expect(name, onInteraction);
  return true;
}

/** The payload combinations of a block (the scan's -attack-type wins). */
export function combos(ctx: BlockContext, b: CommonBlock): Iterable<Record<string, string>> {
  return combinations(b.payloads, b.payloads ? (ctx.o.attackType ?? b.attack) : 'batteringram');
}

export interface EventFields {
  host: string;
  matchedAt: string;
  ip?: string;
  request: string;
  response: string;
}

/**
 * Runs the block's operators on one response's values and reports the events. Internal extractor values
 * and (in a multi-protocol template) every response value go to the shared values. True on a match.
 */
export async function operate(
  ctx: BlockContext,
  protocol: string,
  b: CommonBlock,
  response: Record<string, unknown>,
  vars: Record<string, unknown>,
  fields: EventFields,
): Promise<{ matched: boolean; events: ResultEvent[] }> {
  if (ctx.multi) {
    for (const [k, v] of Object.entries(response)) {
      if (k.startsWith('template-')) continue;
      ctx.shared[b.id ? `${b.id}_${k}` : `${protocol}_${k}`] = v;
    }
  }
  // As nuclei: the request's values (and the shared ones) go over the response's.
  const data: Record<string, unknown> = { ...response, ...vars, ...ctx.shared };
  const result = await operatorsWithIO(b, data, ctx.o.guard);
  takePendingWait();
  for (const k in result.dynamic) ctx.shared[k] = result.dynamic[k];
  if (passes(b, result)) ctx.passed = true;
  const events = eventsOf(ctx.t, protocol, b, result, fields);
  ctx.report(events);
  // Clustered templates: their operators on the same response, their events under their own ids.
  for (const m of ctx.members ?? []) {
    const mb = m.block as CommonBlock;
    const mr = await operatorsWithIO(mb, data, ctx.o.guard);
    const mEvents = eventsOf(m.t, protocol, mb, mr, fields);
    if (mEvents.length > 0) {
      ctx.report(mEvents);
      (ctx.membersMatched ??= new Set()).add(m.t.id);
    }
  }
  return { matched: events.length > 0 && (result.matched || b.matchers.length === 0), events };
}

async function operatorsWithIO(
  b: CommonBlock,
  data: Record<string, unknown>,
  guard: ConnectGuard | undefined,
): Promise<OperatorOutcome> {
  for (let i = 0; ; i++) {
    try {
      return runOperators(b, data) as OperatorOutcome;
    } catch (err) {
      // A network helper in an expression needs its answer fetched first; operators have no side effects.
      if (!isPendingIO(err) || i >= 8) throw err;
      await fulfillPendingIO(err, guard);
    }
  }
}

/** nuclei's flow rule for "this block passed" (see BlockContext.passed); http's executor uses it too. */
export function passes(b: { matchers: unknown[]; extractors: unknown[] }, r: OperatorOutcome): boolean {
  if (b.matchers.length > 0) return r.matched;
  if (b.extractors.length > 0) return someKey(r.extracts) || someKey(r.dynamic);
  return true;
}

function someKey(o: Record<string, unknown> | undefined): boolean {
  for (const _ in o) return true;
  return false;
}

function eventsOf(
  t: Template,
  protocol: string,
  b: CommonBlock,
  result: OperatorOutcome,
  fields: EventFields,
): ResultEvent[] {
  const hasMatchers = b.matchers.length > 0;
  if (hasMatchers && b.matchers.every((m) => m.internal)) return [];
  return eventsFor(t, hasMatchers, result, {
    host: fields.host,
    matchedAt: fields.matchedAt,
    ip: fields.ip ?? '',
    request: fields.request,
    response: fields.response,
    curl: '',
  }).map((ev) => withType(ev, protocol, fields.ip));
}

function withType(ev: ResultEvent, type: string, ip: string | undefined): ResultEvent {
  ev.type = type;
  delete ev['curl-command'];
  if (!ip) delete ev.ip;
  if (!ev.request) delete ev.request;
  if (!ev.response) delete ev.response;
  return ev;
}

/** Template-level helper: the data every protocol's response map starts with. */
export function baseData(t: Template, protocol: string, host: string, matched: string): Record<string, unknown> {
  return { host, matched, 'template-id': t.id, 'template-info': t.info, 'template-path': t.path, type: protocol };
}

/** Sleeps `ms`, woken early by the signal. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
