// The assets area's background jobs: enumeration runs, and policy alerts. Loaded by
// src/platform/jobs.ts so `vigil serve` and `vigil worker` both run them.
import { randomUUID } from 'node:crypto';
import { registerJobHandler } from '../worker/registry.ts';
import { ApiError } from '../shared/errors.ts';
import { createScan } from '../scans/service.ts';
import { ALERT_JOB, ENUMERATE_JOB } from './jobs-names.ts';
import { runEnumeration, type EnumerateJob } from './run.ts';
import * as store from './store.ts';
import { insertAssetEvent } from './event-store.ts';
import './targets.ts'; // provides the inventory to the scans area (automatic and scheduled scans over assets)

/** Seconds a run may take before pg-boss hands it to another worker (VIGIL_ENUMERATION_TIMEOUT). */
export const ENUMERATION_EXPIRE_SECONDS = Number(process.env.VIGIL_ENUMERATION_TIMEOUT ?? 3600);

registerJobHandler<EnumerateJob>(
  ENUMERATE_JOB,
  async (job, ctx) => {
    try {
      return await runEnumeration(ctx, job.data, async (newIds) => {
        // automatic_vuln_scans: one scan of the run's new assets (recommended templates), once per run.
        const row = await store.getEnumeration(ctx.db, null, job.data.enumerationId);
        if (!row?.automatic_vuln_scans || !newIds.length || !(await store.markAutoScan(ctx.db, row.id, job.data.run)))
          return;
        try {
          await createScan(
            ctx,
            { userId: row.created_by ?? 0, email: '', teamId: row.team_id, role: 'ADMIN' },
            {
              name: `${row.name}: new assets (run ${job.data.run})`,
              assets: newIds,
              recommended: true,
              automatic_scan: true,
            },
          );
        } catch (err) {
          if (!(err instanceof ApiError)) throw err;
          await store.addNotice(ctx.db, row.id, `automatic vulnerability scan not started: ${err.message}`);
        }
      });
    } catch (err) {
      if (job.retryCount >= job.retryLimit) {
        const errorId = randomUUID();
        ctx.log.error(
          { err, error_id: errorId, enumeration_id: job.data.enumerationId },
          'enumeration failed for good',
        );
        await store
          .failRun(
            ctx.db,
            job.data.enumerationId,
            job.data.run,
            `the run failed after ${job.retryLimit + 1} attempts (error id ${errorId} in the server log)`,
          )
          .catch(() => {});
      }
      throw err;
    }
  },
  {
    concurrency: Number(process.env.VIGIL_ENUMERATION_CONCURRENCY ?? 2),
    retryLimit: 2,
    retryDelay: 2,
    expireInSeconds: ENUMERATION_EXPIRE_SECONDS,
    pollingIntervalSeconds: 0.5,
  },
);

/**
 * Policy alerts: the policy event becomes an asset event row; the monitor loop turns it into deliveries
 * for the alerting configs (Slack, Teams, email, webhooks) that ask for `asset_policy_match` and sends
 * them with retries. A retried job writes a second row; the deliveries are deduplicated by the policy event.
 */
registerJobHandler<{
  team_id: string;
  policy_id: string;
  alerting_config_ids: string[];
  event: Record<string, unknown>;
}>(
  ALERT_JOB,
  async (job, ctx) => {
    const eventRow = await insertAssetEvent(ctx.db, job.data.team_id, {
      event: 'asset_policy_match',
      data: {
        configIds: job.data.alerting_config_ids ?? [],
        eventId: String(job.data.event.id),
        policyName: String(job.data.event.subject_name ?? ''),
        payload: job.data.event,
      },
    });
    ctx.log.info(
      { team_id: job.data.team_id, policy_id: job.data.policy_id, event_id: job.data.event.id, asset_event: eventRow },
      'asset policy alert queued for the monitor',
    );
    return { asset_event: eventRow };
  },
  { concurrency: 2, retryLimit: 3, expireInSeconds: 300 },
);
