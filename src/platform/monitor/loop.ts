// The monitor loop of a serve process: every few seconds it runs due schedules, turns new scan events into
// alert deliveries and tickets, and sends the deliveries that are due. Every step claims its rows in the
// database, so any number of processes can run the loop on one PostgreSQL without doing anything twice.
import type { AppContext } from '../context.ts';
import { runDueSchedules } from './schedules.ts';

export type MonitorStep = (ctx: AppContext) => Promise<unknown>;

const steps: { name: string; run: MonitorStep }[] = [{ name: 'schedules', run: (ctx) => runDueSchedules(ctx) }];

/** Adds a step to every loop (the alerting and reporting modules add theirs when loaded). */
export function addMonitorStep(name: string, run: MonitorStep): void {
  if (!steps.some((s) => s.name === name)) steps.push({ name, run });
}

/** One pass of every step; a failing step is logged and does not stop the others. */
export async function monitorPass(ctx: AppContext): Promise<void> {
  for (const step of steps) {
    try {
      await step.run(ctx);
    } catch (err) {
      ctx.log.error({ err, step: step.name }, 'monitor step failed');
    }
  }
}

export interface MonitorHandle {
  stop(): Promise<void>;
}

/** Seconds between passes: VIGIL_MONITOR_INTERVAL (default 5). */
export function monitorIntervalMs(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.VIGIL_MONITOR_INTERVAL);
  return Number.isFinite(n) && n > 0 ? Math.max(100, n * 1000) : 5000;
}

export function startMonitor(ctx: AppContext, intervalMs = monitorIntervalMs()): MonitorHandle {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    if (stopped) return;
    current = monitorPass(ctx).finally(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs);
    });
  };
  timer = setTimeout(tick, Math.min(intervalMs, 1000));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
