// Runs a template's flow on one input: the script (flow/simple.ts for protocol calls only, flow/js.ts
// for statements) calls the template's blocks of any protocol this engine runs, `http(1)`, `dns("ns")`,
// `ssl()`, `tcp()`/`network()`, `websocket()`, `whois()`, each through its protocol's implementation on
// one shared context, as nuclei's flow executor does: every response's values are exported to the
// template context as `<block id>_<key>` or `<protocol>_<key>`, internal extractor values and `set()`
// values are shared by name, and the script reads them all as `template[...]`.
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import type { ProtocolOptions } from '../protocols/types.ts';
import { blockContext, templateProtocol, type TemplateResult } from '../protocols/execute.ts';
import { protocolFor } from '../protocols/registry.ts';
import { blockVars, inputVariables } from '../protocols/common/block.ts';
import { failureEvent } from '../protocols/http/execute.ts';
import { compileSimpleFlow, runSimpleFlow, type CompiledFlow } from './simple.ts';
import { runJsFlow } from './js.ts';

const flows = new WeakMap<Template, CompiledFlow | { error: string }>();

/** A template's flow compiled as protocol calls, once; `{ error }` when it has statements (run as JS). */
export function flowOf(t: Template): CompiledFlow | { error: string } {
  let f = flows.get(t);
  if (!f) flows.set(t, (f = compileSimpleFlow(t.flow ?? '')));
  return f;
}

/** Blocks named by a call: 1-based positions or block ids; none = all of the protocol, in order. */
function pick(blocks: unknown[], ids: string[]): unknown[] {
  if (ids.length === 0) return blocks;
  return ids.map((id) =>
    /^\d+$/.test(id) ? blocks[Number(id) - 1] : blocks.find((b) => (b as { id?: string }).id === id),
  );
}

export async function executeFlow(
  t: Template,
  target: string | undefined,
  o: ProtocolOptions,
  emit: (ev: ResultEvent) => void,
): Promise<TemplateResult> {
  let emitted = 0;
  // nuclei exports every response's values in a flow (its template context), as in multi-protocol mode.
  const ctx = blockContext(t, target, o, true, (events) => {
    emitted += events.length;
    for (const ev of events) emit(ev);
  });
  let matched = false;
  let stopped = false;
  let error: string | undefined;
  let requests = 0;
  const call = async (protocol: string, ids: string[]): Promise<boolean> => {
    const p = protocolFor(protocol);
    if (!p) return false; // refused before running: unsupportedReason() checks the calls
    let passed = false;
    for (const block of pick(p.blocks(t), ids)) {
      if (block === undefined) {
        error = `invalid request id '${ids.join(',')}' for ${protocol}`;
        continue;
      }
      if (stopped || o.signal?.aborted) break;
      ctx.passed = false;
      try {
        const r = await p.execute(block, ctx);
        requests += r.requests;
        if (r.matched) matched = true;
        if (r.error) error = r.error;
        if (r.stop) stopped = true;
      } catch (err) {
        error = (err as Error).message;
      }
      passed ||= (ctx.passed as boolean | undefined) === true; // set by the block (see BlockContext.passed)
    }
    return passed;
  };
  const flow = flowOf(t);
  if (!('error' in flow)) await runSimpleFlow(flow, call);
  else {
    // Statements: the script runs in the JavaScript sandbox (flow/js.ts, js/) and calls the blocks through `call`.
    const builtins = target ? inputVariables(target) : {};
    try {
      await runJsFlow(t.flow ?? '', call, {
        values: () => blockVars(ctx, builtins, {}),
        set: (k, v) => {
          ctx.shared[k] = v;
        },
        signal: o.signal,
      });
    } catch (err) {
      error = (err as Error).message;
    }
  }
  if (emitted === 0 && o.matcherStatus) emit(await failureEvent(t, target, error, templateProtocol(t)));
  return { matched, dynamic: ctx.shared, error: matched ? undefined : error, requests };
}
