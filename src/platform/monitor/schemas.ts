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

const ConfigType = Type.String({ maxLength: 40, description: 'scan, reporting, template, alerting, cloudlist, subfinder, remediation, vuln_score' });

export const ConfigListQuery = Type.Object({
  type: Type.Optional(ConfigType),
  search: Type.Optional(Type.String({ maxLength: 500 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
});

export const ConfigRecord = Type.Object({
  id: Str, name: Str, config_type: Str, config: Type.String({ description: 'YAML text; empty for callers who may not manage configs' }),
  provider_name: Str, read_only: Type.Boolean(), global: Type.Boolean(), created_at: Str, updated_at: Str,
});

const ConfigText = Type.String({ maxLength: 1024 * 1024, description: 'YAML text' });

export const CreateConfigBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 255 }),
  config_type: Type.Optional(ConfigType),
  config: ConfigText,
  global: Type.Optional(Type.Boolean({ description: 'applies to every scan of the team unless the scan sets disable_global_*' })),
  read_only: Type.Optional(Type.Boolean({ description: 'no later change or delete through the API' })),
}, { additionalProperties: false });

export const PatchConfigBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
  config: Type.Optional(ConfigText),
  global: Type.Optional(Type.Boolean()),
}, { additionalProperties: false });

export const ConfigCreated = Type.Object({ message: Type.String(), id: Type.String() });

export const Delivery = Type.Object({
  id: Str, config_id: Str, kind: Type.String({ description: 'alert or ticket' }),
  event: Type.String({ description: 'scan_running, scan_finished, scan_failed, scan_stopped, new_finding, or ticket' }),
  scan_id: Str, run: Type.Integer(), vuln_hash: Str,
  status: Type.String({ description: 'pending, delivered or failed' }), attempts: Type.Integer(),
  last_error: Str, response_status: Type.Integer(), created_at: Str, updated_at: Str, delivered_at: Str, next_attempt_at: Str,
  ticket_id: Type.Optional(Str), ticket_url: Type.Optional(Str),
});
