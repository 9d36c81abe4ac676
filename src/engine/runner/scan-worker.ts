// Worker thread body for runScanOnThreads: runs runScan on its share of the targets with the templates
// the parent compiled (structured clones: no YAML parsed again) and posts everything back.
import { parentPort, workerData } from 'node:worker_threads';
import { runScan } from '../runner.ts';
import { closeClients } from '../protocols/http/client.ts';
import type { ThreadMessage, ThreadScan } from './threads.ts';

const data = workerData as ThreadScan;
const post = (m: ThreadMessage) => parentPort!.postMessage(m);
const controller = new AbortController();
parentPort!.on('message', (m: string) => {
  if (m === 'abort') controller.abort();
});
try {
  const stats = await runScan({
    ...data.options,
    signal: controller.signal,
    onResult: (ev) => post({ kind: 'result', ev }),
    onAttempt: data.attempts ? (a) => post({ kind: 'attempt', a }) : undefined,
    onProgress: data.progress ? (p) => post({ kind: 'progress', p }) : undefined,
    onNotice: (message) => post({ kind: 'notice', message }),
    onTemplateSkipped: (id, reason) => post({ kind: 'template-skipped', id, reason }),
    onHostSkipped: (host, errors) => post({ kind: 'host-skipped', host, errors }),
  });
  post({ kind: 'done', stats });
} catch (err) {
  post({ kind: 'failed', message: (err as Error).message });
} finally {
  await closeClients();
  parentPort!.close();
}
