// Shared pieces of the assets tests: the platform with a real queue and the in-process worker running the
// enumeration, alert and scan jobs; a user of another team.
import type PgBoss from 'pg-boss';
import { quoteIdent } from '../../../src/db/connection.ts';
import { queueSchemaFor } from '../../../src/db/queue.ts';
import { createTestApp, type TestApp } from '../../helpers/app.ts';
import { startTestQueue, waitFor } from '../../helpers/queue.ts';
import type { DbKind } from '../../helpers/db.ts';
import type { PlatformConfig } from '../../../src/platform/shared/config.ts';
import { ensureQueues, getJobHandler } from '../../../src/platform/worker/registry.ts';
import { startWorker, type WorkerHandle } from '../../../src/platform/worker/runtime.ts';
import '../../../src/platform/scans/jobs.ts';
import '../../../src/platform/assets/jobs.ts';
import { SCAN_CHUNK_JOB } from '../../../src/platform/scans/dispatch.ts';
import { ALERT_JOB, ENUMERATE_JOB } from '../../../src/platform/assets/jobs-names.ts';
import * as authStore from '../../../src/platform/auth/store.ts';
import { issueKey } from '../../../src/platform/auth/service.ts';
import { parseRole } from '../../../src/platform/auth/permissions.ts';

export interface AssetTestApp extends TestApp {
  boss: PgBoss;
  worker?: WorkerHandle;
  /** Polls the enumeration until it has finished the given run (1 = first) or failed. */
  waitRun(id: string, run: number, timeoutMs?: number): Promise<Record<string, any>>;
}

export async function createAssetApp(
  kind: DbKind,
  opts: { worker?: boolean; config?: Partial<PlatformConfig> } = {},
): Promise<AssetTestApp> {
  const t = await createTestApp(kind, opts.config);
  const boss = await startTestQueue(t.testDb);
  t.ctx.queue = boss;
  await ensureQueues(boss, [getJobHandler(ENUMERATE_JOB)!, getJobHandler(ALERT_JOB)!, getJobHandler(SCAN_CHUNK_JOB)!]);
  // The alert job is not worked here: tests count the alerts queued for delivery.
  const worker =
    opts.worker === false
      ? undefined
      : await startWorker(t.ctx, {
          jobs: [getJobHandler(ENUMERATE_JOB)!, getJobHandler(SCAN_CHUNK_JOB)!],
          pollingIntervalSeconds: 0.5,
        });
  return {
    ...t,
    boss,
    worker,
    async waitRun(id, run, timeoutMs = 60_000) {
      return waitFor(
        async () => {
          const res = await t.request({ method: 'GET', url: `/v1/asset/enumerate/${id}` });
          const d = res.json().data;
          if (d?.status === 'failed') throw new Error(`enumeration failed: ${d.failure_reason}`);
          return d?.status === 'finished' && d.rescan_count === run - 1 && d;
        },
        timeoutMs,
        200,
      );
    },
    async close() {
      await worker?.stop(2_000);
      await boss.stop({ graceful: false, wait: true }).catch(() => {});
      await t.close();
    },
  };
}

/** A user who owns a second team of their own, with a key. */
export async function otherTeamUser(t: TestApp, email: string): Promise<{ key: string; teamId: string }> {
  const teamId = 'team-b-' + Math.random().toString(36).slice(2, 8);
  await authStore.insertTeam(t.ctx.db, teamId, 'Team B');
  const user = await authStore.insertUser(t.ctx.db, email, teamId);
  await authStore.insertMember(t.ctx.db, teamId, user.id, parseRole('owner')!, true);
  return { key: await issueKey(t.ctx.db, user.id), teamId };
}

/** Jobs of a name in the test's queue, in any state (read from pg-boss's job table). */
export async function jobsOf(t: AssetTestApp, name: string): Promise<{ id: string; data: any }[]> {
  const table = `${quoteIdent(queueSchemaFor(t.testDb.schema))}.job`;
  const { rows } = await t.ctx.db.query<{ id: string; data: any }>(
    `SELECT id::text AS id, data FROM ${table} WHERE name = $1 ORDER BY created_on`,
    [name],
  );
  return rows;
}
export { ALERT_JOB, ENUMERATE_JOB };
