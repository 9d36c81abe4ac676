// Outgoing HTTP for alerts and tickets: public addresses only (plus VIGIL_EGRESS_ALLOW) and never the
// platform's deny list, decided on the address connected to after DNS; no redirects followed; a timeout;
// a bounded answer. Every failure to reach the destination (refused by the policy, connection refused,
// reset, timed out, no such host) is one text, so a delivery's last_error cannot map anyone's network;
// HTTP statuses from a service that was reached stay. Errors never carry the URL or headers (they hold tokens).
import { fetch, type Agent } from 'undici';
import type { PlatformConfig } from '../shared/config.ts';
import { integrationEgress } from '../shared/deny.ts';
import { guardFor, guardedAgent, type ConnectGuard } from '../../engine/index.ts';

export class SendError extends Error {
  constructor(
    message: string,
    readonly status: number | null = null,
    readonly retry = true,
  ) {
    super(message);
  }
}

export interface SendResult {
  status: number;
  body: string;
  json?: unknown;
}

/** What last_error says for every destination that was not reached, whatever the reason. */
export const UNREACHABLE = 'delivery failed: the destination is not allowed or did not answer';

export type EgressConfig = Pick<PlatformConfig, 'port' | 'host' | 'denyTargets' | 'allowDeniedTargets' | 'egressAllow'>;

/** The guard of the integrations' policy (one per distinct setting, so its DNS cache and agent are shared). */
export function integrationGuard(config: EgressConfig): ConnectGuard {
  return guardFor(integrationEgress(config))!;
}

const agents = new WeakMap<ConnectGuard, Agent>();
function agentFor(guard: ConnectGuard): Agent {
  let agent = agents.get(guard);
  if (!agent) agents.set(guard, (agent = guardedAgent(guard, { connect: { timeout: 10_000 } })));
  return agent;
}

const timeoutMs = () => Number(process.env.VIGIL_DELIVERY_TIMEOUT ?? 10) * 1000;
const MAX_BODY = 1_000_000;

/** At most MAX_BODY bytes of the answer (the rest is not read): a receiver cannot fill the server's memory. */
async function boundedText(res: Awaited<ReturnType<typeof fetch>>): Promise<string> {
  if (!res.body) return '';
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body) {
    const b = Buffer.from(chunk as Uint8Array);
    chunks.push(b.subarray(0, MAX_BODY - size));
    size += b.length;
    if (size >= MAX_BODY) break;
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function send(
  config: EgressConfig,
  url: string,
  init: { method: string; headers?: Record<string, string>; body?: string },
): Promise<SendResult> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new SendError('the configured URL is not valid', null, false);
  }
  if (!/^https?:$/.test(u.protocol)) throw new SendError('the configured URL is not http(s)', null, false);
  let res: Awaited<ReturnType<typeof fetch>>;
  try {
    res = await fetch(u, {
      method: init.method,
      headers: init.headers,
      body: init.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs()),
      dispatcher: agentFor(integrationGuard(config)),
    });
  } catch {
    // Refused by the policy, refused by the host, reset, timed out, not resolved: all the same here.
    throw new SendError(UNREACHABLE);
  }
  const body = await boundedText(res).catch(() => '');
  if (res.status < 200 || res.status >= 300) {
    // 4xx other than 408/429 will not get better by retrying.
    const retry = res.status >= 500 || res.status === 408 || res.status === 429;
    throw new SendError(`HTTP ${res.status}`, res.status, retry);
  }
  let json: unknown;
  try {
    json = body ? JSON.parse(body) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, body, json };
}
