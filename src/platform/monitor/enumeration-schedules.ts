// Enumeration rescan schedules (GET / POST / DELETE /v1/enumeration/schedule): the scan schedules'
// frequencies and arithmetic (schedule-math.ts, checked by schedules.ts's checkSchedule) and their
// exactly-once rule: every serve and worker process runs the due ones from the monitor loop, and the
// database's claim of a slot decides which process starts the rescan.
import type { AppContext } from '../shared/context.ts';
import { badRequest, notFound } from '../shared/errors.ts';
import { getEnumeration, rescanEnumeration } from '../assets/service.ts';
import { nextRun } from './schedule-math.ts';
import { checkSchedule, specOfRow } from './schedules.ts';
import * as store from './schedule-store.ts';

export interface SetEnumerationScheduleBody {
  enumeration_id: string;
  scan_frequency: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
}

export async function setEnumerationSchedule(
  ctx: AppContext,
  teamId: string,
  body: SetEnumerationScheduleBody,
  now = new Date(),
): Promise<void> {
  const c = checkSchedule({ ...body, scan_id: body.enumeration_id }, now);
  try {
    await getEnumeration(ctx, teamId, body.enumeration_id);
  } catch {
    throw badRequest(`unknown enumeration "${body.enumeration_id}"`, 'enumeration_id');
  }
  await store.enumerationSchedules.upsert(ctx.db, { id: body.enumeration_id, teamId, ...c });
}

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : '');

/**
 * The platform's EnumerationSchedule record. Its start_time is an RFC 3339 time ("06:30:00Z"); a schedule
 * set from a full date-time shows that date-time's time of day (its next and last runs show the dates).
 */
export function enumerationScheduleView(r: store.EnumerationScheduleRow) {
  return {
    enumeration_id: r.enumeration_id,
    scan_frequency: r.scan_frequency,
    schedule_last_run: iso(r.schedule_last_run),
    schedule_next_run: iso(r.schedule_next_run),
    start_time: (r.start_time.includes('T') ? r.start_time.slice(11, 19) : r.start_time) + 'Z',
    ...(r.hourly_frequency ? { hourly_frequency: r.hourly_frequency } : {}),
    ...(r.custom_weekdays?.length ? { custom_weekdays: r.custom_weekdays } : {}),
  };
}

export async function listEnumerationSchedules(ctx: AppContext, teamId: string) {
  return (await store.enumerationSchedules.list(ctx.db, teamId)).map(enumerationScheduleView);
}

export async function deleteEnumerationSchedule(ctx: AppContext, teamId: string, id: string): Promise<void> {
  if (!(await store.enumerationSchedules.remove(ctx.db, teamId, id)))
    throw notFound(`enumeration ${id} has no schedule`, 'enumeration_id');
}

/**
 * Runs every due enumeration schedule once: claims its slot (missed slots collapse into this one run)
 * and queues the enumeration's next run. A slot that comes while the enumeration still runs is skipped.
 */
export async function runDueEnumerationSchedules(ctx: AppContext, now = new Date()): Promise<string[]> {
  const started: string[] = [];
  for (const row of await store.enumerationSchedules.due(ctx.db, now)) {
    const next = nextRun(specOfRow(row), now);
    if (!(await store.enumerationSchedules.claim(ctx.db, row.enumeration_id, row.next_text, now, next))) continue;
    try {
      await rescanEnumeration(ctx, row.team_id, row.enumeration_id);
      started.push(row.enumeration_id);
      ctx.log.info(
        { enumeration_id: row.enumeration_id, next_run: next.toISOString() },
        'scheduled enumeration started',
      );
    } catch (err) {
      ctx.log.warn(
        { enumeration_id: row.enumeration_id, reason: (err as Error).message },
        'scheduled enumeration skipped',
      );
    }
  }
  return started;
}
