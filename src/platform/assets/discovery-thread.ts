// The discovery side of an enumeration run, on a worker thread of its own: walking the ranges, port
// scanning, probing, parsing answers and the fingerprint templates' matching all happen here, so none of
// it holds up the thread that answers the API. The main thread keeps the database work: it receives
// notices, progress and the found assets in batches (each acknowledged before the next is sent).
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { runDiscovery, type DiscoveredAsset, type DiscoveryConfig } from '../../discovery/index.ts';
import type { Template } from '../../engine/index.ts';
import { denyList } from '../shared/deny.ts';
import type { DiscoveryThreadInput, DiscoveryThreadMessage, DiscoveryThreadRequest } from './discovery-runner.ts';

const port = parentPort!;
/** Screenshot text (base64) per batch, at most: a batch of web pages' PNGs stays a few MiB. */
const MAX_BATCH_SCREENSHOTS = 16 * 2 ** 20;
const input = workerData as DiscoveryThreadInput;
const abort = new AbortController();
let acked: (() => void) | undefined;

port.on('message', (m: DiscoveryThreadRequest) => {
  if (m.type === 'abort') abort.abort(new Error(m.reason));
  if (m.type === 'ack') acked?.();
});

const post = (m: DiscoveryThreadMessage) => port.postMessage(m);

// The thread's largest heap, reported at the end (the run's log line): what a run really holds.
let peakHeap = 0;
const sampleHeap = () => (peakHeap = Math.max(peakHeap, getHeapStatistics().used_heap_size));
const sampler = setInterval(sampleHeap, 1000);

async function main(): Promise<void> {
  // The scans' deny list holds for discovery too: metadata addresses, VIGIL_DENY_TARGETS, our own port.
  const deny = denyList(input.deny);
  let technologies: DiscoveryConfig['technologies'];
  if (input.tech) {
    // The engine is loaded only for runs that have templates to run (a thread starts faster without it).
    const [{ techHook }, { parseTemplate, setDebugOutput }] = await Promise.all([
      import('../../discovery/index.ts'),
      import('../../engine/index.ts'),
    ]);
    setDebugOutput(undefined);
    const templates = input.tech.templates
      .map((t) => parseTemplate(t.raw, t.uri).template)
      .filter((t): t is Template => !!t);
    if (templates.length)
      technologies = techHook(templates, { ...input.tech.options, signal: abort.signal, egress: deny.policy });
    else post({ type: 'notice', step: 'http_probe', message: 'technology templates skipped: none of them loads' });
  }
  let lastProgress = 0;
  const found = await runDiscovery(
    {
      ...input.config,
      technologies,
      deny: (host, p) => deny.reason(p ? `${host.includes(':') ? `[${host}]` : host}:${p}` : host) !== undefined,
      // Every connection of the run is decided on the address connected to (the same rules as data).
      egress: deny.policy,
      limits: { ...input.config.limits, signal: abort.signal },
    },
    (e) => {
      if (e.type === 'notice') post({ type: 'notice', step: e.step, message: e.message });
      if (e.type !== 'progress') return;
      // Progress of every probe would be a message each: a few a second are enough.
      const now = Date.now();
      if (now - lastProgress < 250 && e.done !== e.total) return;
      lastProgress = now;
      post({ type: 'progress', step: e.step, done: e.done, total: e.total });
    },
  );
  // Handed over in batches (at most batchSize assets, and 16 MiB of screenshots), each acknowledged once
  // stored, so the main thread never queues a whole run.
  for (let i = 0; i < found.length;) {
    const assets: DiscoveredAsset[] = [];
    let bytes = 0;
    while (i < found.length && assets.length < input.batchSize && (bytes < MAX_BATCH_SCREENSHOTS || !assets.length)) {
      bytes += found[i]!.screenshot?.length ?? 0;
      assets.push(found[i]!);
      found[i++] = undefined as never;
    }
    const stored = new Promise<void>((resolve) => (acked = resolve));
    post({ type: 'assets', assets });
    await stored;
  }
  clearInterval(sampler);
  sampleHeap();
  post({ type: 'done', total: found.length, peakHeapMb: Math.round(peakHeap / 2 ** 20) });
}

main().catch((err) => post({ type: 'error', message: (err as Error).message ?? String(err) }));
