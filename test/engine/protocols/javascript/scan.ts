// The module tests' scan: corpus or hand-written templates run by the engine on one target, its result
// events collected. Corpus templates are checked against their signatures; allowUnsigned admits a
// hand-written one.
import { runScan } from '../../../../src/engine/runner.ts';
import type { ResultEvent } from '../../../../src/engine/output/types.ts';
import type { Template } from '../../../../src/engine/template/types.ts';

export async function scanEvents(
  templates: Template[],
  target: string,
  opts: { timeout?: number; allowUnsigned?: boolean } = {},
): Promise<ResultEvent[]> {
  const events: ResultEvent[] = [];
  await runScan({
    targets: [target],
    templates,
    ...(opts.allowUnsigned ? { allowUnsigned: true } : {}),
    rateLimit: 0,
    timeout: opts.timeout ?? 5,
    retries: 0,
    onResult: (e) => events.push(e),
  });
  return events;
}
