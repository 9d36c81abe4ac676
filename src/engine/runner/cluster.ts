// Request clustering, as nuclei does it: templates whose one request is the same request send it once per
// target, and each template's matchers and extractors run on the shared response; results keep each
// template's id. Each protocol says when its block may share a request (Protocol.cluster.verdict: nuclei's
// TmplClusterKey and IsClusterable; http's in protocols/http/cluster.ts); stricter than nuclei, only
// templates of one block without variables or flow cluster, so that nothing a template computes for
// itself can differ between the members of a cluster.
import type { Template } from '../template/types.ts';
import type { ClusterVerdict } from '../protocols/types.ts';
import { protocolFor } from '../protocols/registry.ts';

export type { ClusterVerdict };

/**
 * `_N` names (status_code_2) in a DSL expression or part turn request conditions on; interactsh parts
 * need a URL per template. Like nuclei, only DSL and part count: a word or regex that happens to contain
 * `login_1` or "interactsh" is text to look for and does not stop a template from sharing a request.
 */
function operatorsShareable(ops: unknown[]): boolean {
  for (const op of ops as Array<{ dsl?: unknown; part?: unknown }>) {
    const texts = [...(Array.isArray(op.dsl) ? op.dsl : []), op.part].filter((x): x is string => typeof x === 'string');
    if (texts.some((x) => /\b[a-z_]+_\d+\b/i.test(x) || /interactsh/i.test(x))) return false;
  }
  return true;
}

/** A template's cluster key, or why it runs on its own (bench/cluster-diff.ts lists the reasons). */
export function clusterVerdict(t: Template): ClusterVerdict {
  if (t.flow) return { reason: 'flow' };
  if (t.workflows?.length) return { reason: 'workflow' };
  if (t.selfContained) return { reason: 'self-contained' };
  if (Object.keys(t.variables).length || Object.keys(t.constants).length) return { reason: 'variables' };
  if (t.http.length + t.other.length !== 1)
    return { reason: t.http.length + t.other.length > 1 ? 'several blocks' : 'no block' };
  const name = t.http.length ? 'http' : t.other[0]!.protocol;
  const p = protocolFor(name);
  const notClusterable = { reason: `${name} block not clusterable` };
  if (!p?.cluster) return notClusterable;
  let blocks: unknown[];
  try {
    blocks = p.blocks(t);
  } catch {
    return notClusterable; // a block that does not compile runs (and fails) on its own
  }
  if (blocks.length !== 1 || p.unsupported?.(blocks[0])) return notClusterable;
  const b = blocks[0] as { matchers: unknown[]; extractors: unknown[] };
  if (!operatorsShareable([...b.matchers, ...b.extractors])) return { reason: '_N name or interactsh in operators' };
  return p.cluster.verdict(blocks[0], t);
}

export interface Cluster {
  /** The template whose request is sent. */
  leader: Template;
  /** The others whose operators run on its responses (empty for a template on its own). */
  members: Template[];
}

/** Groups templates into clusters, keeping the order of each cluster's first template. */
export function clusterTemplates(templates: Template[]): Cluster[] {
  const out: Cluster[] = [];
  const byKey = new Map<string, Cluster>();
  for (const t of templates) {
    const key = clusterVerdict(t).key;
    const hit = key === undefined ? undefined : byKey.get(key);
    if (hit) hit.members.push(t);
    else {
      const c = { leader: t, members: [] };
      out.push(c);
      if (key !== undefined) byKey.set(key, c);
    }
  }
  return out;
}
