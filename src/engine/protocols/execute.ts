// Runs one template against one input: its protocol blocks in the order the template wrote them, each
// through its protocol's implementation, sharing values (nuclei's template context). As nuclei v3's
// multi-protocol executor: every block's results are reported, a block that fails does not stop the
// ones after it, and each response's values are exported for the later blocks.
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import type { BlockContext, Protocol, ProtocolOptions, TemplateResult } from './types.ts';
import { protocolFor } from './registry.ts';
import { failureEvent } from './http/execute.ts';

export type { TemplateResult };
// The matcher-status event of a template run without results (the runner reports cluster members' too).
export { failureEvent };

interface Step {
  protocol: Protocol<unknown>;
  block: unknown;
}

interface Plan {
  steps: Step[];
  /**
   * More than one block, not all http: nuclei's multi-protocol mode (response values exported as
   * <protocol>_<key>). Templates of http blocks only keep the http engine's own behaviour.
   */
  multi: boolean;
}

const plans = new WeakMap<Template, Plan | string>();

function plan(t: Template): Plan | string {
  let hit = plans.get(t);
  if (hit === undefined) {
    let steps: Step[] | string;
    try {
      steps = buildSteps(t);
    } catch (err) {
      // A block no protocol can compile is a template that does not run, never a crashed scan.
      steps = `has a block that cannot be compiled: ${(err as Error).message}`;
    }
    hit =
      typeof steps === 'string'
        ? steps
        : { steps, multi: steps.length > 1 && steps.some((s) => s.protocol.name !== 'http') };
    plans.set(t, hit);
  }
  return hit;
}

/** The template's blocks in order with their protocol, or why one cannot run. */
export function templateSteps(t: Template): Step[] | string {
  const p = plan(t);
  return typeof p === 'string' ? p : p.steps;
}

function buildSteps(t: Template): Step[] | string {
  const order = t.protocolOrder ?? ['http', ...new Set(t.other.map((o) => o.protocol))];
  const steps: Step[] = [];
  const missing: string[] = [];
  for (const name of order) {
    const p = protocolFor(name);
    if (!p) {
      missing.push(name);
      continue;
    }
    for (const block of p.blocks(t)) {
      const why = p.unsupported?.(block);
      if (why) return why;
      steps.push({ protocol: p, block });
    }
  }
  if (missing.length > 0) return `uses the ${missing.join(', ')} protocol`;
  if (steps.length === 0) return 'has no requests';
  return steps;
}

/**
 * The context one template run's blocks share. Callers that pick blocks themselves (a flow script
 * calling `dns()` then `http(2)`) make one and hand it to each `protocol.execute(block, ctx)`.
 */
export function blockContext(
  t: Template,
  target: string | undefined,
  o: ProtocolOptions,
  multi: boolean,
  report: BlockContext['report'],
): BlockContext {
  return { t, target, o, multi, shared: {}, report };
}

/** The blocks of one protocol in a template (e.g. `dns` for a flow's `dns(1)`), compiled. */
export function protocolBlocks(t: Template, name: string): unknown[] {
  return protocolFor(name)?.blocks(t) ?? [];
}

/** The protocol a template's results are typed with when it has no response to show (http first). */
export function templateProtocol(t: Template): string {
  return t.http.length ? 'http' : (t.other[0]?.protocol ?? 'http');
}

/**
 * Runs the template's blocks in order. `members` are the other templates of its cluster (one block of
 * the same protocol each, see runner/cluster.ts): their operators run on this template's responses.
 */
export async function executeBlocks(
  t: Template,
  target: string | undefined,
  o: ProtocolOptions,
  emit: (ev: ResultEvent) => void,
  members: Template[] = [],
): Promise<TemplateResult> {
  const p = plan(t);
  if (typeof p === 'string') throw new Error(`template ${t.id} cannot run: it ${p}`);
  const { steps, multi } = p;
  let emitted = 0;
  const ctx = blockContext(t, target, o, multi, (events) => {
    for (const ev of events) {
      if (ev['template-id'] === t.id) emitted++; // cluster members' events are theirs
      emit(ev);
    }
  });
  if (members.length > 0) {
    const p0 = steps[0].protocol;
    ctx.members = members.map((m) => ({ t: m, block: p0.blocks(m)[0] }));
    ctx.membersMatched = new Set();
  }
  let matched = false;
  let error: string | undefined;
  let requests = 0;
  for (const { protocol, block } of steps) {
    if (o.signal?.aborted) break;
    try {
      const r = await protocol.execute(block, ctx);
      requests += r.requests;
      if (r.matched) matched = true;
      if (r.error) error = r.error;
      if (r.stop) break;
    } catch (err) {
      // As nuclei v3: the error is said, and the later blocks still run.
      error = (err as Error).message;
    }
  }
  if (emitted === 0 && o.matcherStatus)
    emit(await failureEvent(t, target, error, steps[steps.length - 1].protocol.name));
  return {
    matched,
    dynamic: ctx.shared,
    error: matched ? undefined : error,
    requests,
    membersMatched: ctx.membersMatched,
  };
}

/**
 * Runs a cluster's leader on one input with its members' operators on every response: through the
 * leader's protocol's own cluster executor when it has one (http), else block by block with the members
 * in the block context (dns, ssl).
 */
export function executeCluster(
  t: Template,
  members: Template[],
  target: string | undefined,
  o: ProtocolOptions,
  emit: (ev: ResultEvent) => void,
): Promise<TemplateResult> {
  const p = plan(t);
  const own = typeof p === 'string' ? undefined : p.steps[0].protocol.cluster?.execute;
  return own ? own(t, members, target, o, emit) : executeBlocks(t, target, o, emit, members);
}
