// Request clustering, as nuclei does it: templates whose one request is the same request send it once per
// target, and each template's matchers and extractors run on the shared response; results keep each
// template's id. http (method, paths, headers, redirect and cookie settings) is keyed here; dns and ssl
// blocks say their own key (Protocol.clusterKey: nuclei's TmplClusterKey and IsClusterable). An http
// request is clusterable only without payloads, fuzzing, raw text, a body, unsafe mode, request
// conditions, an id, races or iterate-all; and, stricter than nuclei, only in templates without
// variables, flow or other protocols, so that nothing a template computes for itself can differ between
// the members of a cluster.
import type { HttpRequest, Template } from '../template/types.ts';
import { protocolFor } from '../protocols/registry.ts';

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
export type ClusterVerdict = { key: string; reason?: undefined } | { key?: undefined; reason: string };

export function clusterVerdict(t: Template): ClusterVerdict {
  if (t.flow) return { reason: 'flow' };
  if (t.workflows?.length) return { reason: 'workflow' };
  if (t.selfContained) return { reason: 'self-contained' };
  if (Object.keys(t.variables).length || Object.keys(t.constants).length) return { reason: 'variables' };
  if (t.http.length === 1 && t.other.length === 0) return httpVerdict(t);
  if (t.http.length === 0 && t.other.length === 1) {
    const key = otherKey(t);
    return key === undefined ? { reason: `${t.other[0]!.protocol} block not clusterable` } : { key };
  }
  return { reason: t.http.length + t.other.length > 1 ? 'several blocks' : 'no block' };
}

function httpVerdict(t: Template): ClusterVerdict {
  const r: HttpRequest = t.http[0]!;
  const no = (reason: string): ClusterVerdict => ({ reason });
  if (r.payloads) return no('payloads');
  if (r.raw.length) return no('raw');
  if (r.body) return no('body');
  if (r.unsafe) return no('unsafe');
  if (r.reqCondition) return no('req-condition');
  if (r.id) return no('id');
  if (r.race) return no('race');
  if (r.iterateAll) return no('iterate-all');
  if (r.extra.fuzzing) return no('fuzzing');
  if (r.extra['pre-condition']) return no('pre-condition');
  if (r.digestUsername) return no('digest');
  if (r.threads > 0) return no('threads');
  if (!operatorsShareable([...r.matchers, ...r.extractors])) return no('_N name or interactsh in operators');
  if (r.path.some((p) => /interactsh|\{\{(?!BaseURL|RootURL|Hostname|Host|Port|Path|File|Scheme)/.test(p))) return no('helper in path');
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Stop-at-first-match is not in the key, nor the redirect settings of a one-path request: the shared
  // request follows redirects as far as the most permissive template asks, each template sees only its
  // own part of the chain and stops at its own first match (protocols/http/execute.ts). With several
  // paths the redirect settings stay in: cookies set along a longer chain would go out with the next path.
  const redirects = r.path.length > 1 ? [r.redirects, r.hostRedirects, r.maxRedirects] : [];
  return { key: JSON.stringify(['http', r.method, r.path, headers, Boolean(r.extra['protocol-redirects']), r.cookieReuse, r.disableCookie,
    r.maxSize ?? 0, r.readAll, r.disablePathAutomerge, r.skipSecretFile, ...redirects]) };
}

/** dns and ssl: one block whose protocol gives a key. */
function otherKey(t: Template): string | undefined {
  const name = t.other[0]!.protocol;
  const p = protocolFor(name);
  if (!p?.clusterKey) return undefined;
  let blocks: unknown[];
  try {
    blocks = p.blocks(t);
  } catch {
    return undefined; // a block that does not compile runs (and fails) on its own
  }
  if (blocks.length !== 1 || p.unsupported?.(blocks[0])) return undefined;
  const b = blocks[0] as { matchers: unknown[]; extractors: unknown[] };
  if (!operatorsShareable([...b.matchers, ...b.extractors])) return undefined;
  const key = p.clusterKey(blocks[0]);
  return key === undefined ? undefined : JSON.stringify([name, key, t.stopAtFirstMatch]);
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
