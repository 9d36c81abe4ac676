// What dns, tcp and ssl blocks share: rendering values, payload combinations, and turning one response
// (a map of named parts) into operator results, shared variables and result events.
import type { Extractor, Matcher, Operators, OtherProtocolBlock } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import { render } from '../dsl/index.ts';
import { runOperators } from '../operators/index.ts';
import { combinations } from './http/payloads.ts';
import { eventsFor, type OperatorOutcome } from './http/events.ts';
import type { BlockContext, BlockOutcome } from './types.ts';

export function renderText(text: string, vars: Record<string, unknown>): string {
  return text.includes('{{') ? render(text, vars) : text;
}

/** A field that may be one value or a list, as strings. */
export function list(v: unknown): string[] {
  if (v === undefined || v === null) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => String(x));
}

export function operatorsOf(block: OtherProtocolBlock): Operators {
  const f = block.fields;
  return {
    matchers: (f.matchers as Matcher[] | undefined) ?? [],
    extractors: (f.extractors as Extractor[] | undefined) ?? [],
    matchersCondition: (f['matchers-condition'] as 'and' | 'or' | undefined) ?? 'or',
  };
}

/** Payload value sets of the block (one empty set when it has none). */
export function payloadSets(block: OtherProtocolBlock): Record<string, string>[] {
  if (!block.payloads) return [{}];
  const attack = (block.fields.attack as 'batteringram' | 'pitchfork' | 'clusterbomb' | undefined) ?? 'batteringram';
  return [...combinations(block.payloads, attack)];
}

/** Variables for one request: context values, extracted values, then the payload values rendered. */
export function requestVars(ctx: BlockContext, combo: Record<string, string>): Record<string, unknown> {
  const vars: Record<string, unknown> = { ...ctx.vars, ...ctx.dynamic };
  for (const [k, v] of Object.entries(combo)) vars[k] = renderText(v, vars);
  return vars;
}

export interface ResponseFacts {
  type: string;
  host: string;
  matchedAt: string;
  ip: string;
  request: string;
  response: string;
}

/**
 * Runs the block's operators on one response: extracted values join the shared variables (as `name`
 * and, with a block id, `<id>_<name>`), matches become result events of the protocol's type.
 */
export function evaluate(ctx: BlockContext, block: OtherProtocolBlock, vars: Record<string, unknown>, data: Record<string, unknown>, facts: ResponseFacts): BlockOutcome {
  const ops = operatorsOf(block);
  const full = { ...vars, ...data };
  const result = runOperators(ops, full) as OperatorOutcome;
  for (const [k, v] of Object.entries(result.dynamic ?? {})) ctx.dynamic[k] = v;
  const id = typeof block.fields.id === 'string' ? block.fields.id : undefined;
  if (id) for (const [k, v] of Object.entries(data)) ctx.dynamic[`${id}_${k}`] = v;
  const hasMatchers = ops.matchers.length > 0;
  const passed = hasMatchers ? result.matched : ops.extractors.length === 0 || Object.keys(result.extracts ?? {}).length > 0;
  const allInternal = hasMatchers && ops.matchers.every((m) => m.internal);
  const events = allInternal ? [] : eventsFor(ctx.t, hasMatchers, result, {
    host: facts.host, matchedAt: facts.matchedAt, ip: facts.ip, request: facts.request, response: facts.response, curl: '',
  });
  for (const ev of events) ctx.emit(typed(ev, facts.type));
  return { passed, reported: events.length > 0 };
}

function typed(ev: ResultEvent, type: string): ResultEvent {
  const out = { ...ev, type } as ResultEvent & { 'curl-command'?: string };
  delete out['curl-command'];
  return out;
}

/** host:port split; IPv6 in brackets. */
export function splitHostPort(address: string): { host: string; port: number | undefined } {
  const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(address) ?? /^([^:]+)(?::(\d+))?$/.exec(address);
  if (!m) return { host: address, port: undefined };
  return { host: m[1]!, port: m[2] ? Number(m[2]) : undefined };
}
