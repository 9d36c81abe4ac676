// Runs a template made of dns, tcp and ssl blocks against one input: the blocks in order, sharing the
// values their extractors take (as http blocks of one template do).
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import { inputVariables } from './http/input.ts';
import { PROTOCOLS } from './registry.ts';
import type { BlockContext } from './types.ts';

export interface OtherRunOptions {
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal;
  resolvers?: string[];
  vars?: Record<string, string>;
  beforeRequest?(): Promise<void> | void;
}

/** Template variables and constants rendered over the built-ins, CLI variables winning over variables. */
function templateVars(t: Template, target: string | undefined, cli: Record<string, string>, render: (s: string, v: Record<string, unknown>) => string): Record<string, unknown> {
  const vars: Record<string, unknown> = target ? { ...inputVariables(target) } : {};
  for (const [k, v] of Object.entries(t.variables)) if (!(k in cli) && !(k in t.constants)) vars[k] = render(v, vars);
  for (const [k, v] of Object.entries(cli)) if (!(k in t.constants)) vars[k] = v;
  for (const [k, v] of Object.entries(t.constants)) vars[k] = render(v, vars);
  return vars;
}

export async function executeOther(
  t: Template, target: string | undefined, o: OtherRunOptions, emit: (ev: ResultEvent) => void,
  render: (s: string, v: Record<string, unknown>) => string,
): Promise<{ matched: boolean; error?: string; dynamic: Record<string, unknown> }> {
  const ctx: BlockContext = {
    t, target, vars: templateVars(t, target, o.vars ?? {}, render), dynamic: {}, timeoutMs: o.timeoutMs, retries: o.retries,
    signal: o.signal, resolvers: o.resolvers, emit, beforeRequest: o.beforeRequest,
  };
  let matched = false;
  let error: string | undefined;
  for (const block of t.other) {
    if (o.signal?.aborted) break;
    const run = PROTOCOLS[block.protocol];
    if (!run) continue;
    const r = await run(block, ctx);
    if (r.reported) matched = true;
    if (r.error && !r.reported) error = r.error;
  }
  return { matched, error: matched ? undefined : error, dynamic: ctx.dynamic };
}
