// Scan schedules: setting, listing and removing them (POST/GET/DELETE /v1/scans/schedule), and running the
// due ones (called by the monitor loop of every serve and worker process; the database decides who runs
// a slot).
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { getScan } from '../scans/store.ts';
import { rescan } from '../scans/service.ts';
import { FREQUENCIES, MIN_START_YEAR, nextRun, parseStartTime, type Frequency } from './schedule-math.ts';
import * as store from './schedule-store.ts';
import { provideSchedules } from '../scans/schedule-source.ts';

// Scan records show their schedule: this area owns scan_schedules, so it gives scans the lookup.
provideSchedules(store.scheduleJsonOf);

export interface SetScheduleBody {
  scan_id: string;
  scan_frequency: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
}

/** Checks a request; every problem is a 400 naming its field. */
export function checkSchedule(body: SetScheduleBody, now: Date) {
  const frequency = body.scan_frequency as Frequency;
  if (!(FREQUENCIES as readonly string[]).includes(frequency)) {
    throw badRequest(`scan_frequency must be one of ${FREQUENCIES.join(', ')}`, 'scan_frequency');
  }
  let hourly: number | null = null;
  if (body.hourly_frequency !== undefined && body.hourly_frequency !== null) {
    if (frequency !== 'hourly')
      throw badRequest('hourly_frequency applies only to scan_frequency hourly', 'hourly_frequency');
    if (!Number.isInteger(body.hourly_frequency) || body.hourly_frequency < 1 || body.hourly_frequency > 24) {
      throw badRequest('hourly_frequency must be an integer from 1 to 24', 'hourly_frequency');
    }
    hourly = body.hourly_frequency;
  } else if (frequency === 'hourly') hourly = 1;

  let weekdays: number[] | null = null;
  if (body.custom_weekdays !== undefined && body.custom_weekdays !== null) {
    if (frequency !== 'custom')
      throw badRequest('custom_weekdays applies only to scan_frequency custom', 'custom_weekdays');
    body.custom_weekdays.forEach((d, i) => {
      if (!Number.isInteger(d) || d < 0 || d > 6)
        throw badRequest(
          `custom_weekdays[${i}] must be an integer from 0 (Sunday) to 6 (Saturday)`,
          `custom_weekdays[${i}]`,
        );
    });
    weekdays = [...new Set(body.custom_weekdays)].sort((a, b) => a - b);
  }
  if (frequency === 'custom' && !weekdays?.length)
    throw badRequest('scan_frequency custom needs custom_weekdays (0-6, 0 = Sunday)', 'custom_weekdays');

  const start =
    body.start_time === undefined || body.start_time === ''
      ? parseStartTime(now.toISOString().slice(11, 19), now)
      : parseStartTime(body.start_time, now);
  if (!start)
    throw badRequest(
      `start_time must be a UTC time of day (HH:MM or HH:MM:SS) or a UTC date-time (YYYY-MM-DDTHH:MM:SSZ) in the years ${MIN_START_YEAR}-9999`,
      'start_time',
    );
  const spec = {
    frequency,
    anchor: start.anchor,
    hourlyFrequency: hourly ?? undefined,
    weekdays: weekdays ?? undefined,
  };
  return { frequency, hourly, weekdays, startTime: start.text, anchor: start.anchor, nextRun: nextRun(spec, now) };
}

export async function setSchedule(
  ctx: AppContext,
  teamId: string,
  body: SetScheduleBody,
  now = new Date(),
): Promise<void> {
  const c = checkSchedule(body, now);
  const scan = await getScan(ctx.db, teamId, body.scan_id);
  if (!scan) throw badRequest(`unknown scan "${body.scan_id}"`, 'scan_id');
  if (scan.status === 'uploaded')
    throw badRequest(`scan ${body.scan_id} was imported; it has nothing to run on a schedule`, 'scan_id');
  await store.scanSchedules.upsert(ctx.db, { id: scan.id, teamId, ...c });
}

/** The arithmetic's view of a stored schedule (scan or enumeration). */
export const specOfRow = store.specOf;

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

/** The spec's Schedule record. */
export function scheduleView(r: Omit<store.ScheduleRow, 'next_text' | 'team_id' | 'anchor'>) {
  return {
    scan_frequency: r.scan_frequency,
    scan_id: r.scan_id,
    schedule_last_run: iso(r.schedule_last_run),
    schedule_next_run: iso(r.schedule_next_run),
    start_time: r.start_time,
    ...(r.hourly_frequency ? { hourly_frequency: r.hourly_frequency } : {}),
    ...(r.custom_weekdays?.length ? { custom_weekdays: r.custom_weekdays } : {}),
  };
}

export async function listSchedules(ctx: AppContext, teamId: string) {
  return (await store.scanSchedules.list(ctx.db, teamId)).map(scheduleView);
}

export async function deleteSchedule(ctx: AppContext, teamId: string, scanId: string): Promise<void> {
  if (!(await store.scanSchedules.remove(ctx.db, teamId, scanId)))
    throw notFound(`scan ${scanId} has no schedule`, 'scan_id');
}

/**
 * Runs every due schedule once: claims its slot (moving next_run past `now`, so missed slots collapse into
 * this one run) and starts the scan as a rescan. A slot that comes while the scan still runs is skipped.
 * Returns the scans started by this call.
 */
export async function runDueSchedules(ctx: AppContext, now = new Date()): Promise<string[]> {
  const started: string[] = [];
  for (const row of await store.scanSchedules.due(ctx.db, now)) {
    const next = nextRun(store.specOf(row), now);
    if (!(await store.scanSchedules.claim(ctx.db, row.scan_id, row.next_text, now, next))) continue;
    try {
      await rescan(ctx, row.team_id, row.scan_id);
      started.push(row.scan_id);
      ctx.log.info({ scan_id: row.scan_id, next_run: next.toISOString() }, 'scheduled scan started');
    } catch (err) {
      ctx.log.warn({ scan_id: row.scan_id, reason: (err as Error).message }, 'scheduled run skipped');
    }
  }
  return started;
}
