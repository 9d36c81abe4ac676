// Outgoing HTTP for alerts and tickets: a timeout, no redirects followed, the platform's deny list
// (cloud metadata addresses, its own API port) applied to the URL, and errors that never carry the URL or
// headers (they hold tokens).
import type { PlatformConfig } from '../config.ts';
import { denyList } from '../scans/deny.ts';

export class SendError extends Error {
  constructor(message: string, readonly status: number | null = null, readonly retry = true) {
    super(message);
  }
}

export interface SendResult {
  status: number;
  body: string;
  json?: unknown;
}

const TIMEOUT_MS = Number(process.env.VIGIL_DELIVERY_TIMEOUT ?? 10) * 1000;

export async function send(
  config: Pick<PlatformConfig, 'port' | 'host' | 'denyTargets' | 'allowDeniedTargets'>,
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
  const why = denyList(config).reason(u.origin);
  if (why) throw new SendError(`the configured URL ${why}; not sent`, null, false);
  let res: Response;
  try {
    res = await fetch(u, { method: init.method, headers: init.headers, body: init.body, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    throw new SendError(`request failed: ${e.cause?.code ?? (e.name === 'TimeoutError' ? 'timeout' : 'network error')}`);
  }
  const body = (await res.text().catch(() => '')).slice(0, 1_000_000);
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
