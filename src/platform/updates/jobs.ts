// VIGIL_AUTO_UPDATE: `vigil serve` schedules this job daily (VIGIL_AUTO_UPDATE_CRON, UTC; default 03:17).
// It updates the templates, then the feeds; each failure is recorded and the old data keeps serving.
import type PgBoss from 'pg-boss';
import { registerJobHandler } from '../worker/registry.ts';
import { updateIntel, updateTemplates } from './service.ts';

export const AUTO_UPDATE_JOB = 'auto-update';

registerJobHandler(
  AUTO_UPDATE_JOB,
  async (_job, ctx) => {
    const log = ctx.log.child({ job: AUTO_UPDATE_JOB });
    try {
      const t = await updateTemplates(ctx.db, process.env);
      log.info({ status: t.status, version: t.version }, 'template update finished');
    } catch (err) {
      log.warn({ reason: (err as Error).message }, 'template update failed; the catalogue is unchanged');
    }
    const i = await updateIntel(ctx.db, process.env);
    for (const f of i.feeds) {
      if (f.status === 'failed')
        log.warn({ feed: f.feed, reason: f.error }, 'feed update failed; its data is unchanged');
      else log.info({ feed: f.feed, changed: f.changed }, 'feed updated');
    }
    return { feeds: i.feeds.length };
  },
  { retryLimit: 0, expireInSeconds: 6 * 3600, policy: 'singleton' },
);

/** Turns the daily schedule on or off to match the setting (every serve process does the same). */
export async function scheduleAutoUpdate(boss: PgBoss, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (/^(1|true|yes|on)$/i.test(env.VIGIL_AUTO_UPDATE ?? '')) {
    const cron = env.VIGIL_AUTO_UPDATE_CRON || '17 3 * * *';
    await boss.schedule(AUTO_UPDATE_JOB, cron, {}, { tz: 'UTC' });
    return cron;
  }
  await boss.unschedule(AUTO_UPDATE_JOB).catch(() => {});
  return undefined;
}
