// SQL of the schedules: scan_schedules and enumeration_schedules (the same columns, one set of statements).
import type { Db } from '../../db/connection.ts';
import type { Frequency, ScheduleSpec } from './schedule-math.ts';
import type { ScheduleJson } from '../scans/schedule-source.ts';

/** The columns both schedule tables share; each adds its key (scan_id or enumeration_id). */
interface ScheduleColumns {
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
export type ScheduleRow = ScheduleColumns & { scan_id: string };
export type EnumerationScheduleRow = ScheduleColumns & { enumeration_id: string };

export interface ScheduleWrite {
  id: string;
  teamId: string;
  frequency: Frequency;
  startTime: string;
  hourly: number | null;
  weekdays: number[] | null;
  anchor: Date;
  nextRun: Date;
}

export function specOf(
  r: Pick<ScheduleColumns, 'scan_frequency' | 'anchor' | 'hourly_frequency' | 'custom_weekdays'>,
): ScheduleSpec {
  return {
    frequency: r.scan_frequency,
    anchor: new Date(r.anchor),
    hourlyFrequency: r.hourly_frequency ?? undefined,
    weekdays: r.custom_weekdays ?? undefined,
  };
}

/**
 * The statements of one schedule table: scan_schedules (by scan_id) and enumeration_schedules (by
 * enumeration_id) have the same columns and the same rule for a due slot, so they share them. Table and
 * key names are these two constants only, never input.
 */
function scheduleTable<Row extends ScheduleColumns>(table: string, key: string) {
  const columns = `${key}, team_id, scan_frequency, start_time, hourly_frequency, custom_weekdays, anchor,
    schedule_next_run, schedule_last_run, schedule_next_run::text AS next_text`;
  return {
    async upsert(db: Db, s: ScheduleWrite): Promise<void> {
      await db.query(
        `INSERT INTO ${table} (${key}, team_id, scan_frequency, start_time, hourly_frequency, custom_weekdays, anchor, schedule_next_run)
         VALUES ($1, $2, $3, $4, $5, $6::int[], $7, $8)
         ON CONFLICT (${key}) DO UPDATE SET scan_frequency = EXCLUDED.scan_frequency, start_time = EXCLUDED.start_time,
           hourly_frequency = EXCLUDED.hourly_frequency, custom_weekdays = EXCLUDED.custom_weekdays, anchor = EXCLUDED.anchor,
           schedule_next_run = EXCLUDED.schedule_next_run, updated_at = now()`,
        [s.id, s.teamId, s.frequency, s.startTime, s.hourly, s.weekdays, s.anchor, s.nextRun],
      );
    },
    async list(db: Db, teamId: string): Promise<Row[]> {
      const { rows } = await db.query<Row>(
        `SELECT ${columns} FROM ${table} WHERE team_id = $1 ORDER BY created_at DESC, ${key}`,
        [teamId],
      );
      return rows;
    },
    async remove(db: Db, teamId: string, id: string): Promise<boolean> {
      const res = await db.query(`DELETE FROM ${table} WHERE team_id = $1 AND ${key} = $2`, [teamId, id]);
      return res.rowCount > 0;
    },
    /** Schedules whose next run is due at `now`, oldest first. */
    async due(db: Db, now: Date, limit = 100): Promise<Row[]> {
      const { rows } = await db.query<Row>(
        `SELECT ${columns} FROM ${table} WHERE schedule_next_run <= $1 ORDER BY schedule_next_run LIMIT $2`,
        [now, limit],
      );
      return rows;
    },
    /**
     * Takes one due slot: moves the schedule on to `next` only if nobody did since it was read. Exactly one
     * process (of any number polling the same database) gets true for a slot.
     */
    async claim(db: Db, id: string, nextText: string, now: Date, next: Date): Promise<boolean> {
      const res = await db.query(
        `UPDATE ${table} SET schedule_last_run = $3, schedule_next_run = $4, updated_at = now()
         WHERE ${key} = $1 AND schedule_next_run = $2::timestamptz AND schedule_next_run <= $3`,
        [id, nextText, now, next],
      );
      return res.rowCount > 0;
    },
  };
}

export const scanSchedules = scheduleTable<ScheduleRow>('scan_schedules', 'scan_id');
export const enumerationSchedules = scheduleTable<EnumerationScheduleRow>('enumeration_schedules', 'enumeration_id');

/** The schedules of those of the scans that have one, as JSON (times as ISO text), by scan id: for scan records. */
export async function scheduleJsonOf(db: Db, scanIds: string[]): Promise<Map<string, ScheduleJson>> {
  const { rows } = await db.query<{ scan_id: string; schedule: ScheduleJson }>(
    `SELECT ss.scan_id, jsonb_build_object('scan_frequency', ss.scan_frequency, 'scan_id', ss.scan_id,
       'start_time', ss.start_time, 'hourly_frequency', ss.hourly_frequency, 'custom_weekdays', to_jsonb(ss.custom_weekdays),
       'schedule_next_run', ss.schedule_next_run, 'schedule_last_run', ss.schedule_last_run) AS schedule
     FROM scan_schedules ss WHERE ss.scan_id = ANY($1::text[])`,
    [scanIds],
  );
  return new Map(rows.map((r) => [r.scan_id, r.schedule]));
}
