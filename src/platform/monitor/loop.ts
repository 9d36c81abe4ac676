// The monitor loop of serve and worker processes: every few seconds it runs due schedules, turns new scan
// events into alert deliveries and tickets, and sends the deliveries that are due. Every step claims its
// rows in the database, so any number of processes can run the loop on one PostgreSQL without doing
// anything twice.
import type { AppContext } from '../shared/context.ts';
import { runDueSchedules } from './schedules.ts';
import { runDueEnumerationSchedules } from './enumeration-schedules.ts';

export type MonitorStep = (ctx: AppContext) => Promise<unknown>;

const steps: { name: string; run: MonitorStep }[] = [
  { name: 'schedules', run: (ctx) => runDueSchedules(ctx) },
  { name: 'enumeration schedules', run: (ctx) => runDueEnumerationSchedules(ctx) },
];

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

/**
 * Runs each step on its own timer, so a slow one (a receiver that takes its full timeout) never holds up
 * the others (a due schedule still starts on time).
 */
export function startMonitor(ctx: AppContext, intervalMs = monitorIntervalMs()): MonitorHandle {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();
  for (const step of steps) {
    const tick = () => {
      if (stopped) return;
      const p: Promise<void> = step
        .run(ctx)
        .then(
          () => undefined,
          (err) => ctx.log.error({ err, step: step.name }, 'monitor step failed'),
        )
        .finally(() => {
          running.delete(p);
          if (!stopped) schedule(intervalMs);
        });
      running.add(p);
    };
    const schedule = (ms: number) => {
      const t = setTimeout(() => {
        timers.delete(t);
        tick();
      }, ms);
      timers.add(t);
    };
    schedule(Math.min(intervalMs, 1000));
  }
  return {
    async stop() {
      stopped = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      await Promise.all([...running]);
    },
  };
}
