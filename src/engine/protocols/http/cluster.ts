// http's part of request clustering: when an http request may be shared between templates (its key), and
// the cluster executor (one fetch policy for the leader and every member, each member matching its own
// part of a redirect chain: execute.ts). An http request is clusterable only without payloads, fuzzing,
// raw text, a body, unsafe mode, request conditions, an id, races or iterate-all; what holds for every
// protocol (no flow, variables or other blocks) is checked by the runner (runner/cluster.ts).
import type { HttpRequest, Template } from '../../template/types.ts';
import type { ClusterVerdict, ProtocolClustering, ProtocolOptions } from '../types.ts';
import { executeHttp, type ExecuteOptions } from './execute.ts';

export function httpClusterVerdict(r: HttpRequest): ClusterVerdict {
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
  if (r.path.some((p) => /interactsh|\{\{(?!BaseURL|RootURL|Hostname|Host|Port|Path|File|Scheme)/.test(p)))
    return no('helper in path');
  const headers = Object.entries(r.headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  // Stop-at-first-match is not in the key, nor the redirect settings of a one-path request: the shared
  // request follows redirects as far as the most permissive template asks, each template sees only its
  // own part of the chain and stops at its own first match (execute.ts). With several paths the redirect
  // settings stay in: cookies set along a longer chain would go out with the next path.
  const redirects = r.path.length > 1 ? [r.redirects, r.hostRedirects, r.maxRedirects] : [];
  return {
    key: JSON.stringify([
      'http',
      r.method,
      r.path,
      headers,
      Boolean(r.extra['protocol-redirects']),
      r.cookieReuse,
      r.disableCookie,
      r.maxSize ?? 0,
      r.readAll,
      r.disablePathAutomerge,
      r.skipSecretFile,
      ...redirects,
    ]),
  };
}

/** The run options with a cluster's members, made once per cluster and scan (the runner's options are per scan). */
const withMembers = new WeakMap<Template[], { o: ProtocolOptions; withMembers: ExecuteOptions }>();

export const httpClustering: ProtocolClustering<HttpRequest> = {
  verdict: (r) => httpClusterVerdict(r),
  execute(leader, members, target, o, emit) {
    let hit = withMembers.get(members);
    if (hit?.o !== o) withMembers.set(members, (hit = { o, withMembers: { ...o, clusterMembers: members } }));
    return executeHttp(leader, target, hit.withMembers, emit);
  },
};
