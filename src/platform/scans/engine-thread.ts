// The engine side of a scan chunk, on a worker thread: `vigil serve` runs its in-process worker's scans
// here so that no template, response or regex can hold up the thread that answers the API. It parses the
// scan's templates (cached per scan run), runs the engine, and sends results and attempt records back
// in batches; the main thread does all the database work.
import { parentPort } from 'node:worker_threads';
import {
  memoryWorkflowSource,
  parseTemplate,
  runScan,
  setDebugOutput,
  type AttemptInfo,
  type ResultEvent,
  type Template,
} from '../../engine/index.ts';
import type { ThreadRequest, ThreadMessage } from './engine-pool.ts';

setDebugOutput(undefined);

const port = parentPort!;
const parsed = new Map<
  string,
  { templates: Template[]; deps: Template[]; skipped: { uri: string; reason: string }[] }
>();
let current: AbortController | undefined;

port.on('message', (msg: ThreadRequest) => {
  if (msg.type === 'abort') {
    current?.abort(new Error(msg.reason));
    return;
  }
  void run(msg).catch((err) =>
    port.postMessage({ type: 'error', message: (err as Error).message } satisfies ThreadMessage),
  );
});

async function run(msg: Extract<ThreadRequest, { type: 'run' }>): Promise<void> {
  let set = parsed.get(msg.key);
  if (!set) {
    if (!msg.templates) {
      port.postMessage({ type: 'need-templates' } satisfies ThreadMessage);
      return;
    }
    set = { templates: [], deps: [], skipped: [] };
    for (const t of msg.templates) {
      const res = parseTemplate(t.raw, t.uri, {
        ...(t.payloadFiles ? { payloadFiles: t.payloadFiles } : {}),
        ...(t.filesRoot ? { filesRoot: t.filesRoot } : {}),
      });
      if (res.template) (t.dependency ? set.deps : set.templates).push(res.template);
      else if (t.dependency) continue;
      else set.skipped.push({ uri: t.uri, reason: res.issues[0]?.reason ?? 'does not load' });
    }
    // One scan run at a time is worth keeping per thread (chunks of one scan come in a row).
    parsed.clear();
    parsed.set(msg.key, set);
  }
  port.postMessage({ type: 'loaded', count: set.templates.length, skipped: set.skipped } satisfies ThreadMessage);
  if (set.templates.length === 0) {
    port.postMessage({ type: 'done' } satisfies ThreadMessage);
    return;
  }
  current = new AbortController();
  let results: ResultEvent[] = [];
  let attempts: AttemptInfo[] = [];
  const flush = () => {
    if (results.length === 0 && attempts.length === 0) return;
    port.postMessage({ type: 'batch', results, attempts } satisfies ThreadMessage);
    results = [];
    attempts = [];
  };
  const timer = setInterval(flush, 200);
  try {
    await runScan({
      ...msg.options,
      targets: msg.targets,
      templates: set.templates,
      workflowSource: memoryWorkflowSource(set.deps),
      signal: current.signal,
      onResult(ev) {
        results.push(ev);
        if (results.length >= 200) flush();
      },
      onAttempt(a) {
        attempts.push(a);
        if (attempts.length >= 1000) flush();
      },
      onTemplateSkipped(templateId, reason) {
        port.postMessage({ type: 'template-skipped', templateId, reason } satisfies ThreadMessage);
      },
      onHostSkipped(host, errors) {
        flush();
        port.postMessage({ type: 'host-skipped', host, errors } satisfies ThreadMessage);
      },
    });
  } finally {
    clearInterval(timer);
    flush();
    current = undefined;
  }
  port.postMessage({ type: 'done' } satisfies ThreadMessage);
}
