// A scan's schedule, shown in its scan record (GET /v1/scans, /v1/scans/{id}). Schedules are the monitor
// area's (table scan_schedules); monitor sits above scans, so it provides the lookup when it loads
// (monitor/schedules.ts) and scans never imports monitor nor reads its table.
import type { Db } from '../../db/connection.ts';

/** A scan's schedule as the monitor area gives it (times as ISO text). */
export interface ScheduleJson {
  scan_frequency: string;
  scan_id: string;
  start_time: string;
  hourly_frequency: number | null;
  custom_weekdays: number[] | null;
  schedule_next_run: string;
  schedule_last_run: string | null;
}

/** The schedules of those of the scans that have one, by scan id. */
export type ScheduleLookup = (db: Db, scanIds: string[]) => Promise<Map<string, ScheduleJson>>;

let lookup: ScheduleLookup | undefined;

/** Called once by the monitor area when it loads (monitor/schedules.ts). */
export function provideSchedules(l: ScheduleLookup): void {
  lookup = l;
}

/** The scans' schedules (none when no scan has one, or the monitor area is not loaded). */
export async function schedulesOf(db: Db, scanIds: string[]): Promise<Map<string, ScheduleJson>> {
  if (!lookup || scanIds.length === 0) return new Map();
  return lookup(db, scanIds);
}
