// Out-of-band checks for agents: a `vigil agent` registers and polls its scans' interactsh clients through
// the platform's API (/v1/agents/me/oast/*), which relays them to the OAST server the platform's own scans
// use (VIGIL_OAST_* or VIGIL_OAST_URL). So an agent needs only its way to the API, never the OAST server's
// token; the interactions stay sealed end to end (the agent's RSA key, the server's AES key per client),
// and the relay only passes the sealed texts through.
//
// Whose is a correlation id: interactsh's secret already keeps one client's interactions from another.
// On top, the relay remembers which agent registered an id and refuses the id to every other agent
// (another team's, or another of the same team), in this process; an id registered through another
// process of the platform is left to the secret.
import type { AppContext } from '../shared/context.ts';
import { ApiError, badRequest, notFound } from '../shared/errors.ts';
import type { AgentIdentity } from '../scans/agent-work.ts';

export type RelayOperation = 'register' | 'poll' | 'deregister';

/** Registered correlation id -> agent id (oldest dropped beyond the OAST server's own client limit). */
const owners = new Map<string, string>();
const MAX_OWNERS = 10_000;

/** The domain interaction names are made under, for the agent's heartbeat; undefined without an OAST server. */
export function agentOastDomain(ctx: Pick<AppContext, 'config'>): string | undefined {
  const i = ctx.config.interactsh;
  if (!i) return undefined;
  return i.domain ?? new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(i.server) ? i.server : `https://${i.server}`).hostname;
}

const noServer = () =>
  new ApiError(
    404,
    'this Vigil server has no OAST server for out-of-band checks (set VIGIL_OAST_* or VIGIL_OAST_URL; docs/oast.md)',
    'oast_not_configured',
  );

/** One interactsh client operation of an agent, relayed; answers the OAST server's JSON. */
export async function relayOast(
  ctx: Pick<AppContext, 'config'>,
  agent: AgentIdentity,
  op: RelayOperation,
  fields: Record<string, string>,
): Promise<Record<string, unknown>> {
  const i = ctx.config.interactsh;
  if (!i) throw noServer();
  const id = op === 'poll' ? fields.id! : fields['correlation-id']!;
  const owner = owners.get(id);
  // Another agent's id answers as an unknown one would: nothing tells it the id exists.
  if (owner !== undefined && owner !== agent.id)
    throw badRequest('could not get correlation-id from cache', op === 'poll' ? 'id' : 'correlation-id');
  if (op === 'register' && owner === agent.id) throw badRequest('correlation-id provided already exists');

  const base = /^[a-z][a-z0-9+.-]*:\/\//i.test(i.server) ? i.server : `https://${i.server}`;
  const root = base.replace(/\/?$/, '/');
  const url = new URL(op === 'poll' ? `poll?${new URLSearchParams({ id, secret: fields.secret! })}` : op, root);
  const headers: Record<string, string> = {};
  if (i.token) headers.authorization = i.token;
  if (op !== 'poll') headers['content-type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(url, {
      method: op === 'poll' ? 'GET' : 'POST',
      headers,
      body: op === 'poll' ? undefined : JSON.stringify(fields),
      signal: AbortSignal.timeout(15_000),
      redirect: 'error',
    });
  } catch {
    throw new ApiError(502, 'the OAST server did not answer; try again', 'oast_unavailable');
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // not JSON: said below by status
  }
  if (res.status >= 500 || res.status === 401 || res.status === 403) {
    // The platform's own configuration (its token) or the server's fault, not the agent's request.
    throw new ApiError(502, `the OAST server refused the platform (HTTP ${res.status})`, 'oast_unavailable');
  }
  if (res.status === 404) throw notFound('the OAST server has no interactsh client API at the configured address');
  if (res.status >= 400) {
    const msg = typeof body.error === 'string' ? body.error.slice(0, 200) : `HTTP ${res.status}`;
    throw badRequest(msg);
  }
  if (op === 'register') {
    if (owners.size >= MAX_OWNERS) owners.delete(owners.keys().next().value!);
    owners.set(id, agent.id);
  } else if (op === 'deregister') owners.delete(id);
  return body;
}
