// SQL of enumeration schedules (enumeration_schedules): the twin of schedule-store.ts for scans, with the
// same claim of a slot (one process of any number wins it).
import type { Db } from '../../db/connection.ts';
import type { Frequency } from './schedule-math.ts';

export interface EnumerationScheduleRow {
  enumeration_id: string;
  team_id: string;
  scan_frequency: Frequency;
  start_time: string;
  hourly_frequency: number | null;
  custom_weekdays: number[] | null;
  anchor: Date;
  schedule_next_run: Date;
  schedule_last_run: Date | null;
  /** The stored next run as PostgreSQL text: compared back exactly when a process claims the slot. */
  next_text: string;
}

const COLUMNS = `enumeration_id, team_id, scan_frequency, start_time, hourly_frequency, custom_weekdays, anchor,
  schedule_next_run, schedule_last_run, schedule_next_run::text AS next_text`;

export async function upsertEnumerationSchedule(
  db: Db,
  s: {
    enumerationId: string;
    teamId: string;
    frequency: Frequency;
    startTime: string;
    hourly: number | null;
    weekdays: number[] | null;
    anchor: Date;
    nextRun: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO enumeration_schedules (enumeration_id, team_id, scan_frequency, start_time, hourly_frequency, custom_weekdays, anchor, schedule_next_run)
     VALUES ($1, $2, $3, $4, $5, $6::int[], $7, $8)
     ON CONFLICT (enumeration_id) DO UPDATE SET scan_frequency = EXCLUDED.scan_frequency, start_time = EXCLUDED.start_time,
       hourly_frequency = EXCLUDED.hourly_frequency, custom_weekdays = EXCLUDED.custom_weekdays, anchor = EXCLUDED.anchor,
       schedule_next_run = EXCLUDED.schedule_next_run, updated_at = now()`,
    [s.enumerationId, s.teamId, s.frequency, s.startTime, s.hourly, s.weekdays, s.anchor, s.nextRun],
  );
}

export async function listEnumerationSchedules(db: Db, teamId: string): Promise<EnumerationScheduleRow[]> {
  const { rows } = await db.query<EnumerationScheduleRow>(
    `SELECT ${COLUMNS} FROM enumeration_schedules WHERE team_id = $1 ORDER BY created_at DESC, enumeration_id`,
    [teamId],
  );
  return rows;
}

export async function deleteEnumerationSchedule(db: Db, teamId: string, enumerationId: string): Promise<boolean> {
  const res = await db.query('DELETE FROM enumeration_schedules WHERE team_id = $1 AND enumeration_id = $2', [
    teamId,
    enumerationId,
  ]);
  return res.rowCount > 0;
}

/** Schedules whose next run is due at `now`, oldest first. */
export async function dueEnumerationSchedules(db: Db, now: Date, limit = 100): Promise<EnumerationScheduleRow[]> {
  const { rows } = await db.query<EnumerationScheduleRow>(
    `SELECT ${COLUMNS} FROM enumeration_schedules WHERE schedule_next_run <= $1 ORDER BY schedule_next_run LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/** Takes one due slot if nobody did since it was read: exactly one process gets true for a slot. */
export async function claimEnumerationSlot(
  db: Db,
  enumerationId: string,
  nextText: string,
  now: Date,
  next: Date,
): Promise<boolean> {
  const res = await db.query(
    `UPDATE enumeration_schedules SET schedule_last_run = $3, schedule_next_run = $4, updated_at = now()
     WHERE enumeration_id = $1 AND schedule_next_run = $2::timestamptz AND schedule_next_run <= $3`,
    [enumerationId, nextText, now, next],
  );
  return res.rowCount > 0;
}
