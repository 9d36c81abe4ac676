// The engine side of scan chunks, on a worker thread: `vigil serve` runs its in-process worker's scans
// here so that no template, response or regex can hold up the thread that answers the API. It parses the
// scan's templates (cached per scan run), runs the engine for every chunk it is given at once, and sends
// each chunk's results and attempt records back in batches under the chunk's id; the main thread does all
// the database work.
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
import type { ThreadRequest, ThreadMessage, ThreadTemplate } from './engine-pool.ts';

setDebugOutput(undefined);

const port = parentPort!;
type ParsedSet = { templates: Template[]; deps: Template[]; skipped: { uri: string; reason: string }[] };
// Parsed templates by scan run: those of runs with a chunk running here, and the latest (the next chunk of
// a scan usually comes from the same run). A set of the whole catalogue is large: no more are kept.
const parsed = new Map<string, ParsedSet>();
// The chunks running here, by the pool's id, with their run's key.
const running = new Map<number, { key: string; controller: AbortController }>();

const send = (m: ThreadMessage) => port.postMessage(m);

port.on('message', (msg: ThreadRequest) => {
  if (msg.type === 'abort') {
    running.get(msg.id)?.controller.abort(new Error(msg.reason));
    return;
  }
  void run(msg).catch((err) => send({ id: msg.id, type: 'error', message: (err as Error).message }));
});

function parseSet(templates: ThreadTemplate[]): ParsedSet {
  const set: ParsedSet = { templates: [], deps: [], skipped: [] };
  for (const t of templates) {
    const res = parseTemplate(t.raw, t.uri, {
      ...(t.payloadFiles ? { payloadFiles: t.payloadFiles } : {}),
      ...(t.filesRoot ? { filesRoot: t.filesRoot } : {}),
    });
    if (res.template) (t.dependency ? set.deps : set.templates).push(res.template);
    else if (t.dependency) continue;
    else set.skipped.push({ uri: t.uri, reason: res.issues[0]?.reason ?? 'does not load' });
  }
  return set;
}

async function run(msg: Extract<ThreadRequest, { type: 'run' }>): Promise<void> {
  const { id } = msg;
  let set = parsed.get(msg.key);
  if (!set) {
    if (!msg.templates) {
      send({ id, type: 'need-templates' });
      return;
    }
    set = parseSet(msg.templates);
    const inUse = new Set([...running.values()].map((r) => r.key));
    for (const key of parsed.keys()) if (!inUse.has(key)) parsed.delete(key);
    parsed.set(msg.key, set);
  }
  send({ id, type: 'loaded', count: set.templates.length, skipped: set.skipped });
  if (set.templates.length === 0) {
    send({ id, type: 'done' });
    return;
  }
  const controller = new AbortController();
  running.set(id, { key: msg.key, controller });
  let results: ResultEvent[] = [];
  let attempts: AttemptInfo[] = [];
  const flush = () => {
    if (results.length === 0 && attempts.length === 0) return;
    send({ id, type: 'batch', results, attempts });
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
      signal: controller.signal,
      onResult(ev) {
        results.push(ev);
        if (results.length >= 200) flush();
      },
      onAttempt(a) {
        attempts.push(a);
        if (attempts.length >= 1000) flush();
      },
      onTemplateSkipped(templateId, reason) {
        send({ id, type: 'template-skipped', templateId, reason });
      },
      onHostSkipped(host, errors) {
        flush();
        send({ id, type: 'host-skipped', host, errors });
      },
    });
  } finally {
    clearInterval(timer);
    flush();
    running.delete(id);
  }
  send({ id, type: 'done' });
}
