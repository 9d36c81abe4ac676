// TypeBox schemas of the schedule and config endpoints. Ranges are checked by the services so that each
// problem gets a message naming its field (see schedules.ts, configs.ts).
import { Type } from '@sinclair/typebox';

const Str = Type.String({ maxLength: 4096 });

export const Message = Type.Object({ message: Type.String() });

export const SetScheduleBody = Type.Object({
  scan_id: Type.String({ minLength: 1, maxLength: 100 }),
  scan_frequency: Type.String({ maxLength: 20, description: 'hourly, daily, weekly, monthly or custom' }),
  start_time: Type.Optional(Type.String({ maxLength: 64, description: 'UTC time of day HH:MM[:SS], or a UTC date-time' })),
  hourly_frequency: Type.Optional(Type.Integer({ description: 'hours between runs, 1-24 (hourly only)' })),
  custom_weekdays: Type.Optional(Type.Array(Type.Integer(), { maxItems: 7, description: '0-6, 0 = Sunday (custom only)' })),
}, { additionalProperties: false });

export const Schedule = Type.Object({
  scan_frequency: Str, scan_id: Str, schedule_last_run: Str, schedule_next_run: Str,
  start_time: Type.Optional(Str), hourly_frequency: Type.Optional(Type.Integer()),
  custom_weekdays: Type.Optional(Type.Array(Type.Integer())),
});
