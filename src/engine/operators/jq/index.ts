// A small jq interpreter for JSON extractors (there is no maintained jq for Node without native code).
import { parseJq, type JqNode } from './parser.ts';
import { run } from './eval.ts';

export { parseJq, JqSyntaxError } from './parser.ts';
export { JqError } from './eval.ts';

const cache = new Map<string, JqNode>();

/** Run a jq query on a parsed JSON document and return every output value. */
export function runJq(query: string, input: unknown): unknown[] {
  let node = cache.get(query);
  if (!node) {
    node = parseJq(query);
    if (cache.size > 2000) cache.clear();
    cache.set(query, node);
  }
  return run(node, input, {});
}
