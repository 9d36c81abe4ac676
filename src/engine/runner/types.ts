// The runner's public options and statistics (the platform's scan workers and `vigil scan` use these).
import type { WorkflowSource } from '../workflow/run.ts';
import type { AttackType, Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import type { SecretApplier } from '../protocols/http/types.ts';
import type { EgressPolicy } from '../net/policy.ts';
import type { SignaturePolicy } from './signature-gate.ts';
import type { OastTransport } from '../oast/client.ts';
import type { TraceSink } from './trace.ts';

export type { SecretApplier, ResultEvent };

export interface AttemptInfo {
  target: string;
  templateId: string;
  matched: boolean;
  error?: string;
  severity: string;
}

export interface ProgressInfo {
  done: number;
  total: number;
  requests: number;
  errors: number;
  matched: number;
}

/** Out-of-band checks (nuclei's -iserver, -itoken and interactsh waiting rules). */
export interface InteractshOptions {
  /** The interactsh server's client API: a URL or a host (https). */
  server: string;
  /** The domain names are made under, when it is not the server URL's host (an embedded server). */
  domain?: string;
  /** Authorization token (-itoken). */
  token?: string;
  /** How often the server is polled (-interactions-poll-duration, default 5). Seconds. */
  pollSeconds?: number;
  /** How long the scan keeps polling after the last name was used (-interactions-cooldown-period, default 5). Seconds. */
  cooldownSeconds?: number;
  /** How long a request waits for its interaction (-interactions-eviction, default 60). Seconds. */
  evictionSeconds?: number;
  /**
   * Another way to the server's client API than HTTP to `server`: `vigil agent` relays registration and
   * polling through the platform's API (`server` then only names it in messages).
   */
  transport?: OastTransport;
}

export interface ScanOptions extends SignaturePolicy {
  targets: string[];
  templates: Template[];
  concurrency?: number;
  bulkSize?: number;
  rateLimit?: number;
  /** Seconds. */
  timeout?: number;
  retries?: number;
  maxHostErrors?: number;
  vars?: Record<string, string>;
  /** Headers set on every HTTP request (nuclei's -H); a secret file's headers still win. Raw unsafe requests are sent as written. */
  headers?: [string, string][];
  /** Vars naming a file become payload lists (vigil scan -V k=file); never set by the platform. */
  varFiles?: boolean;
  /** Where headless `screenshot` steps write their files (vigil scan: its working folder); unset: not written. */
  screenshotDir?: string;
  matcherStatus?: boolean;
  secrets?: SecretApplier;
  socks5Proxy?: string;
  /** TLS SNI for every request (CLI -sni). */
  sni?: string;
  /**
   * Where connections may go, decided on the address actually connected to (after DNS, on every redirect
   * hop, for every protocol); unset: anywhere, as nuclei. The platform sets its deny list here.
   */
  egress?: EgressPolicy;
  disableRedirects?: boolean;
  attackType?: AttackType;
  /** DNS resolvers (`ip` or `ip:port`) for dns blocks that name none, instead of the system's. */
  resolvers?: string[];
  /** Root hints for dns `trace` (`ip` or `ip:port`); IANA's root servers when unset. */
  traceRoots?: string[];
  /** The port name servers met during a dns `trace` are asked on (53 when unset). */
  tracePort?: number;
  signal?: AbortSignal;
  /**
   * The interactsh server for {{interactsh-url}}; unset (nuclei's -ni): the markers stay unfilled and
   * requests using them fail as unresolved.
   */
  interactsh?: InteractshOptions;
  /** Templates sending the same single request share it (default on, as in nuclei). */
  cluster?: boolean;
  /** Where a workflow's templates come from; without it, workflows are not run. */
  workflowSource?: WorkflowSource;
  onResult: (ev: ResultEvent) => void;
  onAttempt?: (a: AttemptInfo) => void;
  onProgress?: (p: ProgressInfo) => void;
  /** Things worth saying that are not errors (e.g. a template skipped because it uses another protocol). */
  onNotice?: (message: string) => void;
  /** A template this engine cannot run (another protocol, flow, workflow): it is left out of the scan. */
  onTemplateSkipped?: (templateId: string, reason: string) => void;
  /** A host reached the max host errors limit: nothing more is sent to it in this scan. */
  onHostSkipped?: (host: string, errors: number) => void;
}

export interface ScanStats {
  templates: number;
  skippedTemplates: number;
  targets: number;
  total: number;
  done: number;
  requests: number;
  errors: number;
  matched: number;
  results: number;
  durationMs: number;
  aborted: boolean;
  /** Hosts skipped after reaching the max host errors limit. */
  skippedHosts: number;
  /** Templates refused for their signature (code and javascript ones no trusted key signed; all with -dut). */
  refusedUnsigned: number;
  /** Worker threads the scan ran on (runScanOnThreads); unset: the calling thread. */
  threads?: number;
}

export interface ExecuteTemplateOptions {
  vars?: Record<string, string>;
  headers?: [string, string][];
  varFiles?: boolean;
  screenshotDir?: string;
  timeout?: number;
  retries?: number;
  secrets?: SecretApplier;
  socks5Proxy?: string;
  sni?: string;
  egress?: EgressPolicy;
  matcherStatus?: boolean;
  resolvers?: string[];
  signal?: AbortSignal;
  /** Requests per second (unset or 0: unlimited). */
  rateLimit?: number;
  /** Called once per request sent. */
  onRequest?: () => void;
  /** Each HTTP request with its response and operator outcomes (nuclei's -debug as data); unset: none built. */
  trace?: TraceSink;
}
