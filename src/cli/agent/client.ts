// The agent's only way to the server: JSON over its public HTTP(S) API, outbound. HTTPS certificates are
// verified (the system's CAs, or --ca for a private CA). Calls that fail on the network or with a 5xx or
// 429 are retried with exponential back-off, so a restarting server or a dropped network only delays
// the agent; an answer the server meant (4xx) comes back to the caller.
import { readFileSync } from 'node:fs';
import { Agent, request, type Dispatcher } from 'undici';

export class ApiAnswer extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; code?: string },
  ) {
    super(`${status}: ${body.message ?? 'no message'}`);
  }
}

export interface ClientOptions {
  server: string;
  ca?: string;
  /** Called when a call fails and is retried after delayMs. */
  onRetry?: (path: string, err: unknown, delayMs: number) => void;
  /** Stops retrying (the agent is shutting down). */
  signal?: AbortSignal;
}

export class AgentClient {
  readonly base: string;
  private readonly dispatcher: Dispatcher;
  agentKey?: string;

  constructor(private readonly o: ClientOptions) {
    const u = new URL(o.server);
    if (u.protocol !== 'http:' && u.protocol !== 'https:')
      throw new Error(`--server must be an http(s) URL: ${o.server}`);
    this.base = u.href.replace(/\/+$/, '');
    this.dispatcher = new Agent({
      connect: o.ca ? { ca: readFileSync(o.ca, 'utf8') } : {},
      // Long polls wait up to 30 s for work; the server answers within that.
      headersTimeout: 90_000,
      bodyTimeout: 90_000,
    });
  }

  /** One call, no retry: throws ApiAnswer for a 4xx/5xx answer, the network error otherwise. */
  async once<T>(path: string, body: unknown, headers: Record<string, string> = {}, cancellable = true): Promise<T> {
    const h: Record<string, string> = { 'content-type': 'application/json', ...headers };
    if (this.agentKey) h['x-agent-key'] = this.agentKey;
    const res = await request(this.base + path, {
      method: 'POST',
      headers: h,
      body: JSON.stringify(body),
      dispatcher: this.dispatcher,
      signal: cancellable ? this.o.signal : AbortSignal.timeout(10_000),
    });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : {};
    } catch {
      json = { message: text.slice(0, 200) };
    }
    if (res.statusCode >= 400) throw new ApiAnswer(res.statusCode, json as ApiAnswer['body']);
    return json as T;
  }

  /** A call retried with back-off (0.5 s doubling to 30 s, with jitter) until it gets a meant answer. */
  async call<T>(path: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.once<T>(path, body, headers);
      } catch (err) {
        if (certificateProblem(err))
          throw new Error(
            `the server's certificate is not trusted: ${certificateProblem(err)} (give its CA with --ca)`,
          );
        const retriable = !(err instanceof ApiAnswer) || err.status >= 500 || err.status === 429;
        if (!retriable || this.o.signal?.aborted) throw err;
        const delay = Math.min(30_000, 500 * 2 ** Math.min(attempt, 6)) * (0.75 + Math.random() * 0.5);
        this.o.onRetry?.(path, err, delay);
        await sleep(delay, this.o.signal);
      }
    }
  }

  async close(): Promise<void> {
    await this.dispatcher.close();
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

// Certificate errors are not a dropped network: retrying would never succeed, so they end the call.
const CERT_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
]);

function certificateProblem(err: unknown): string | undefined {
  for (let e = err as { code?: string; cause?: unknown } | undefined, i = 0; e && i < 4; e = e.cause as typeof e, i++) {
    if (e.code && CERT_CODES.has(e.code)) return e.code;
  }
  return undefined;
}
