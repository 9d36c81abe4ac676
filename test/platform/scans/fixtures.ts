// Shared pieces of the scans tests: inline templates and a platform app with a real queue and worker.
import type PgBoss from 'pg-boss';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import type { DbKind } from '../../helpers/db.ts';
import type { PlatformConfig } from '../../../src/platform/shared/config.ts';
import { getJobHandler } from '../../../src/platform/worker/registry.ts';
import { startWorker, type WorkerHandle } from '../../../src/platform/worker/runtime.ts';
import '../../../src/platform/scans/jobs.ts';
import { SCAN_CHUNK_JOB } from '../../../src/platform/scans/dispatch.ts';
import { EXPORT_JOB } from '../../../src/platform/scans/exports.ts';

/** Matches pages that contain VULNERABLE-MARKER under /vuln. */
export const MARKER_TEMPLATE = `id: test-marker
info:
  name: Marker page
  author: vigil
  severity: high
  tags: test,marker
http:
  - method: GET
    path:
      - "{{BaseURL}}/vuln"
    matchers:
      - type: word
        name: marker
        words:
          - "VULNERABLE-MARKER"
`;

/** Matches an X-Powered-By header and extracts its value. */
export const HEADER_TEMPLATE = `id: test-powered-by
info:
  name: Powered-by header
  author: vigil
  severity: info
  tags: tech
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: word
        part: header
        words:
          - "X-Powered-By"
    extractors:
      - type: regex
        part: header
        group: 1
        regex:
          - "X-Powered-By: ([A-Za-z0-9./]+)"
`;

export interface ScanTestApp extends TestApp {
  boss: PgBoss;
  worker: WorkerHandle;
  /** Polls GET /v1/scans/{id} until its status is one of `states`. */
  waitStatus(id: string, states: string[], timeoutMs?: number): Promise<Record<string, any>>;
}

export async function createScanApp(kind: DbKind, config: Partial<PlatformConfig> = {}): Promise<ScanTestApp> {
  const t = await createTestApp(kind, config);
  const boss = await startTestQueue(t.testDb);
  t.ctx.queue = boss;
  const worker = await startWorker(t.ctx, {
    jobs: [getJobHandler(SCAN_CHUNK_JOB)!, getJobHandler(EXPORT_JOB)!],
    pollingIntervalSeconds: 0.5,
  });
  return {
    ...t,
    boss,
    worker,
    async waitStatus(id, states, timeoutMs = 30_000) {
      return waitFor(
        async () => {
          const res = await t.request({ method: 'GET', url: `/v1/scans/${id}` });
          const body = res.json();
          return states.includes(body.status) && body;
        },
        timeoutMs,
        150,
      );
    },
    async close() {
      await worker.stop(2_000);
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
      await t.close();
    },
  };
}
