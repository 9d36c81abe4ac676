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

/** `_N` names (status_code_2) turn request conditions on; interactsh needs a URL per template. */
function operatorsShareable(ops: unknown): boolean {
  const text = JSON.stringify(ops);
  return !/\b[a-z_]+_\d+\b/i.test(text) && !/interactsh/i.test(text);
}

function clusterKey(t: Template): string | undefined {
  if (t.flow || t.workflows?.length || t.selfContained) return undefined;
  if (Object.keys(t.variables).length || Object.keys(t.constants).length) return undefined;
  if (t.http.length === 1 && t.other.length === 0) return httpKey(t);
  if (t.http.length === 0 && t.other.length === 1) return otherKey(t);
  return undefined;
}

function httpKey(t: Template): string | undefined {
  const r: HttpRequest = t.http[0]!;
  if (r.payloads || r.raw.length || r.body || r.unsafe || r.reqCondition || r.id || r.race || r.iterateAll) return undefined;
  if (r.extra.fuzzing || r.extra['pre-condition'] || r.digestUsername || r.threads > 0) return undefined;
  if (!operatorsShareable([r.matchers, r.extractors])) return undefined;
  if (r.path.some((p) => /interactsh|\{\{(?!BaseURL|RootURL|Hostname|Host|Port|Path|File|Scheme)/.test(p))) return undefined;
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(['http', r.method, r.path, headers, r.redirects, r.hostRedirects, r.maxRedirects, r.cookieReuse, r.disableCookie,
    r.stopAtFirstMatch || t.stopAtFirstMatch, r.maxSize ?? 0, r.readAll, r.disablePathAutomerge, r.skipSecretFile]);
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
  const b = blocks[0] as { matchers: unknown; extractors: unknown };
  if (!operatorsShareable([b.matchers, b.extractors])) return undefined;
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
    const key = clusterKey(t);
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
