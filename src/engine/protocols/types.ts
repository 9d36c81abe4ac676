// The interface every non-http protocol implements (http predates it and keeps its own executor, which
// the runner calls directly). A protocol runs one block of a template against one input and reports
// through the shared operators and result events, so output, secrets and the platform see one shape.
import type { OtherProtocolBlock, Template } from '../template/types.ts';
import type { ResultEvent } from '../output/types.ts';

export interface BlockContext {
  t: Template;
  /** The scan input (host, host:port or URL); undefined for self-contained templates. */
  target: string | undefined;
  /** Built-ins, template variables and CLI variables for this input. */
  vars: Record<string, unknown>;
  /** Values extracted by earlier blocks of the template (internal extractors), shared and updated. */
  dynamic: Record<string, unknown>;
  timeoutMs: number;
  retries: number;
  signal?: AbortSignal;
  /** DNS resolvers (`host` or `host:port`) for dns blocks, before the template's own. */
  resolvers?: string[];
  matcherStatus?: boolean;
  emit(ev: ResultEvent): void;
  /** Counts one request sent (scan statistics) and waits for the rate limit. */
  beforeRequest?(): Promise<void> | void;
}

export interface BlockOutcome {
  /** A matcher matched (internal ones too) or, without matchers, something was extracted. */
  passed: boolean;
  /** A result event was reported. */
  reported: boolean;
  error?: string;
}

export type BlockRunner = (block: OtherProtocolBlock, ctx: BlockContext) => Promise<BlockOutcome>;
