// The protocol interface: every protocol folder (http, dns, tcp, ssl ...) owns its schema, compile and
// execute and exports one `Protocol`. The runner knows nothing else about a protocol: it asks the
// registry for the protocol of each block and hands it the block, the input and the values shared by the
// template's blocks. Request clustering is an optional part: a protocol that can share one request
// between templates says when (a cluster key) and may run a cluster its own way.
import type { Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';
import type { HttpRunOptions } from './http/types.ts';

export type ProtocolName =
  'http' | 'dns' | 'tcp' | 'ssl' | 'file' | 'headless' | 'websocket' | 'whois' | 'code' | 'javascript';

export interface HostErrorTracker {
  isSkipped(host: string): boolean;
  record(host: string): void;
}

/** What the runner hands every protocol (http's settings are the common ones). */
export interface ProtocolOptions extends HttpRunOptions {
  matcherStatus?: boolean;
  hostErrors?: HostErrorTracker;
  /** DNS resolvers (`ip` or `ip:port`, scan option): used instead of the system's, unless a template names its own. */
  resolvers?: string[];
  /** Root hints for dns `trace` (`ip` or `ip:port`); IANA's root servers when unset. */
  traceRoots?: string[];
  /** The port name servers met during a dns `trace` are asked on (53 when unset). */
  tracePort?: number;
  /** Where headless `screenshot` steps may write (inside this folder only); unset: screenshots are not written. */
  screenshotDir?: string;
}

/** One template's run on one input, shared by its blocks (nuclei's template context). */
export interface BlockContext {
  t: Template;
  /** undefined for self-contained templates. */
  target: string | undefined;
  o: ProtocolOptions;
  /**
   * Values shared between blocks: internal extractor values by name, and in a multi-protocol template
   * every response value as `<block id>_<key>` or `<protocol>_<key>`. Blocks read and write it.
   */
  shared: Record<string, unknown>;
  /** nuclei's multi-protocol mode: every response value is exported as <block id>_<key> / <protocol>_<key>. */
  multi: boolean;
  /** Called for every response a block handled, with the events its operators produced (often none). */
  report(events: ResultEvent[]): void;
  /**
   * Request clustering (runner/cluster.ts): other templates whose one block sends the same request. Their
   * operators run on every response of this block and report under their own ids.
   */
  members?: ClusterMember[];
  /** Ids of the cluster members whose operators produced a result. */
  membersMatched?: Set<string>;
  /**
   * Set when a block passed as a flow call sees it (nuclei): a matcher matched (internal ones too), or,
   * without matchers, an extractor found something, or, without operators, a response came back.
   * The flow executor clears it before each call.
   */
  passed?: boolean;
}

export interface ClusterMember {
  t: Template;
  /** The member's own block (the same request as the leader's, its own operators). */
  block: unknown;
}

/** What one template run on one input came to (all its blocks). */
export interface TemplateResult {
  matched: boolean;
  /** Every value shared between blocks (internal extractor values included). */
  dynamic: Record<string, unknown>;
  error?: string;
  requests: number;
  /** Ids of the cluster members that produced a result. */
  membersMatched?: Set<string>;
}

/** A block's clustering verdict: a key equal for blocks that send the same request, or why it sends its own. */
export type ClusterVerdict = { key: string; reason?: undefined } | { key?: undefined; reason: string };

/**
 * Request clustering (nuclei's TmplClusterKey / IsClusterable), for templates of one block. The runner
 * (runner/cluster.ts) checks what holds for every protocol (no flow, variables, several blocks, `_N` names
 * in operators) and groups templates by the key; protocols without `cluster` never cluster.
 */
export interface ProtocolClustering<B> {
  /** The block's key (include whatever of its template `t` changes the request), or why it may not share. */
  verdict(block: B, t: Template): ClusterVerdict;
  /**
   * Runs the leader on one input with the members' operators on every response, when the protocol does
   * it its own way (http: one fetch policy for all, each member its own part of a redirect chain).
   * Without it, the leader's block runs with the members in `BlockContext.members`.
   */
  execute?(
    leader: Template,
    members: Template[],
    target: string | undefined,
    o: ProtocolOptions,
    emit: (ev: ResultEvent) => void,
  ): Promise<TemplateResult>;
}

export interface BlockResult {
  matched: boolean;
  error?: string;
  requests: number;
  /** The template asked to stop at its first match and this block matched: no later block runs. */
  stop?: boolean;
}

export interface Protocol<B = unknown> {
  name: ProtocolName;
  /** The blocks of this protocol in a template, in order (compiled once per template). */
  blocks(t: Template): B[];
  /** Why this block cannot run here (`uses dns trace`), or undefined when it can. */
  unsupported?(block: B): string | undefined;
  /** Runs one block against the context's input. */
  execute(block: B, ctx: BlockContext): Promise<BlockResult>;
  /** Request clustering, when this protocol can share one request between templates. */
  cluster?: ProtocolClustering<B>;
}
