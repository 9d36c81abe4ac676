// Request clustering, as nuclei does it: templates whose one http request is the same request (method,
// paths, headers, redirect and cookie settings) send it once per target, and each template's matchers
// and extractors run on the shared response; results keep each template's id. A request is clusterable
// only without payloads, fuzzing, raw text, a body, unsafe mode, request conditions, an id, races or
// iterate-all; and, stricter than nuclei, only in templates without variables, flow or other protocols,
// so that nothing a template computes for itself can differ between the members of a cluster.
import type { HttpRequest, Template } from '../template/types.ts';

function clusterKey(t: Template): string | undefined {
  if (t.http.length !== 1 || t.other.length > 0 || t.flow || t.workflows?.length || t.selfContained) return undefined;
  if (Object.keys(t.variables).length || Object.keys(t.constants).length) return undefined;
  const r: HttpRequest = t.http[0]!;
  if (r.payloads || r.raw.length || r.body || r.unsafe || r.reqCondition || r.id || r.race || r.iterateAll) return undefined;
  if (r.extra.fuzzing || r.extra['pre-condition'] || r.digestUsername || r.threads > 0) return undefined;
  // `_N` names (status_code_2) turn request conditions on; interactsh needs a URL per template.
  const ops = JSON.stringify([r.matchers, r.extractors]);
  if (/\b[a-z_]+_\d+\b/i.test(ops) || /interactsh/i.test(ops) || r.path.some((p) => /interactsh|\{\{(?!BaseURL|RootURL|Hostname|Host|Port|Path|File|Scheme)/.test(p))) return undefined;
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([r.method, r.path, headers, r.redirects, r.hostRedirects, r.maxRedirects, r.cookieReuse, r.disableCookie,
    r.stopAtFirstMatch || t.stopAtFirstMatch, r.maxSize ?? 0, r.readAll, r.disablePathAutomerge, r.skipSecretFile]);
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
