// Shared shapes of the HTTP protocol: a request ready to send, the response we got back, and the
// options the runner hands down to every request.
import type { AttackType } from '../../template/types.ts';
import type { ConnectGuard } from '../../net/guard.ts';

/** What the secret file engineer exports from src/engine/secrets/; declared here so the engine builds alone. */
export interface SecretApplier {
  apply(req: { url: URL; headers: Record<string, string> }): void;
  secretValues(): string[];
}

export interface HttpClientOptions {
  /** Per-request timeout in milliseconds. */
  timeout: number;
  /** Extra attempts after a network error (not after an HTTP status). */
  retries: number;
  socks5Proxy?: string;
  /** Default TLS SNI for every request (CLI `-sni`). */
  sni?: string;
  signal?: AbortSignal;
  /** Decides every connection (each redirect hop, raw sockets, the proxy) on the address connected to; none: no limits. */
  guard?: ConnectGuard;
}

import type { OastClient } from '../../oast/client.ts';
import type { TraceSink } from '../../runner/trace.ts';

export interface HttpRunOptions extends HttpClientOptions {
  vars: Record<string, string>;
  /** Headers set on every request before the secret file's (nuclei's -H); raw unsafe requests are left as written. */
  headers?: [string, string][];
  /**
   * Values of `vars` that name a readable file become payload lists for self-contained templates, as
   * nuclei's `-V key=file`. Only for the person running `vigil scan`; the platform never sets it.
   */
  varFiles?: boolean;
  secrets?: SecretApplier;
  disableRedirects?: boolean;
  /** Overrides the attack type of every request block that has payloads (CLI `-attack-type`). */
  attackType?: AttackType;
  /** Waits for a rate-limit token before each request is sent. */
  takeToken?: () => Promise<void>;
  /** Called once per request actually sent (counts for progress). */
  onRequest?: () => void;
  /** The scan's interactsh client: fills {{interactsh-url}} and reports interactions (unset: markers stay). */
  oast?: OastClient;
  /** Told of every request with its response and operator outcomes (a one-off run's trace); unset: nothing built. */
  trace?: TraceSink;
}

/** A request after rendering and merging, ready for the wire. */
export interface PreparedRequest {
  method: string;
  /** Where to connect: scheme://host:port (no path). */
  origin: string;
  /** The request target exactly as it goes on the request line. */
  path: string;
  headers: [string, string][];
  body?: string;
  /** Send `rawBytes` as written over a socket instead of through the HTTP client. */
  unsafe: boolean;
  rawBytes?: string;
  timeout?: number;
  sni?: string;
  /** Raw socket path: read until the connection closes, whatever Content-Length says (read-all). */
  readAll?: boolean;
  /** The URL as the template wrote it (matched-at), when it differs from origin + path. */
  displayUrl?: string;
}

export interface HttpResponse {
  status: number;
  statusText: string;
  /** Header names as received (lower case through undici), in order; repeated headers repeat. */
  headers: [string, string][];
  body: Buffer;
  /** Milliseconds from send to the end of the body. */
  duration: number;
  /** The HTTP version line prefix, e.g. HTTP/1.1. */
  version: string;
}
