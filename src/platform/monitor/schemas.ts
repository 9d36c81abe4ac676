// TypeBox schemas of the schedule and delivery endpoints. Ranges are checked by the services so that each
// problem gets a message naming its field (see schedules.ts).
import { Type } from '@sinclair/typebox';
import { Message } from '../configs/schemas.ts';

const Str = Type.String({ maxLength: 4096 });

export { Message };

export const SetScheduleBody = Type.Object(
  {
    scan_id: Type.String({ minLength: 1, maxLength: 100 }),
    scan_frequency: Type.String({ maxLength: 20, description: 'hourly, daily, weekly, monthly or custom' }),
    start_time: Type.Optional(
      Type.String({ maxLength: 64, description: 'UTC time of day HH:MM[:SS], or a UTC date-time' }),
    ),
    hourly_frequency: Type.Optional(Type.Integer({ description: 'hours between runs, 1-24 (hourly only)' })),
    custom_weekdays: Type.Optional(
      Type.Array(Type.Integer(), { maxItems: 7, description: '0-6, 0 = Sunday (custom only)' }),
    ),
  },
  { additionalProperties: false },
);

/** The schedule's fields alone, checked before the scan they are for exists (New scan in the console). */
export const CheckScheduleBody = Type.Omit(SetScheduleBody, ['scan_id'], { additionalProperties: false });

export const ScheduleChecked = Type.Object({
  message: Type.String(),
  schedule_next_run: Type.String({ description: 'when the schedule would first run (UTC)' }),
  start_time: Type.String(),
});

export const Schedule = Type.Object({
  scan_frequency: Str,
  scan_id: Str,
  schedule_last_run: Str,
  schedule_next_run: Str,
  start_time: Type.Optional(Str),
  hourly_frequency: Type.Optional(Type.Integer()),
  custom_weekdays: Type.Optional(Type.Array(Type.Integer())),
});

export const Delivery = Type.Object({
  id: Str,
  config_id: Str,
  kind: Type.String({ description: 'alert or ticket' }),
  event: Type.String({ description: 'scan_running, scan_finished, scan_failed, scan_stopped, new_finding, or ticket' }),
  scan_id: Str,
  run: Type.Integer(),
  vuln_hash: Str,
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempts: Type.Integer(),
  last_error: Str,
  response_status: Type.Integer(),
  created_at: Str,
  updated_at: Str,
  delivered_at: Str,
  next_attempt_at: Str,
  ticket_id: Type.Optional(Str),
  ticket_url: Type.Optional(Str),
});

export const SetEnumerationScheduleBody = Type.Object(
  {
    enumeration_id: Type.String({ minLength: 1, maxLength: 100 }),
    scan_frequency: Type.String({ maxLength: 20, description: 'hourly, daily, weekly, monthly or custom' }),
    start_time: Type.Optional(
      Type.String({ maxLength: 64, description: 'UTC time of day HH:MM[:SS], or a UTC date-time' }),
    ),
    hourly_frequency: Type.Optional(Type.Integer({ description: 'hours between runs, 1-24 (hourly only)' })),
    custom_weekdays: Type.Optional(
      Type.Array(Type.Integer(), { maxItems: 7, description: '0-6, 0 = Sunday (custom only)' }),
    ),
  },
  { additionalProperties: false },
);

export const EnumerationSchedule = Type.Object({
  enumeration_id: Str,
  scan_frequency: Str,
  schedule_last_run: Str,
  schedule_next_run: Str,
  start_time: Type.Optional(Str),
  hourly_frequency: Type.Optional(Type.Integer()),
  custom_weekdays: Type.Optional(Type.Array(Type.Integer())),
});

export const VerifyConfigBody = Type.Object(
  {
    config: Type.String({ minLength: 1, maxLength: 1024 * 1024, description: 'the YAML text to test' }),
    config_type: Type.Optional(
      Type.String({
        maxLength: 32,
        description: 'the config type; left out: alerting or reporting as the text shows, else scan',
      }),
    ),
    oauth_config_id: Type.Optional(Type.String({ maxLength: 100, description: 'accepted for compatibility; unused' })),
  },
  { additionalProperties: false },
);

export const VerifyConfigAnswer = Type.Object({
  is_verified: Type.Boolean(),
  response: Type.String({ description: 'what happened, in words (the problem or the reason when it failed)' }),
  param: Type.Optional(Type.String({ description: 'the key a refused text names, e.g. config.webhook.url (Vigil)' })),
  event: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'the test alert sent' })),
});
