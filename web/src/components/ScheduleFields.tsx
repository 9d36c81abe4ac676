// The fields of a scan schedule (POST /v1/scans/schedule): frequency, UTC start time, hours between runs
// (hourly) and weekdays (custom). The server checks the values; its 400 names the field that is wrong.
import { Chip, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';

export interface ScheduleValue {
  /** '' = no schedule */
  frequency: string;
  startTime: string;
  hourly: number | string;
  weekdays: string[];
}

export const NO_SCHEDULE: ScheduleValue = { frequency: '', startTime: '', hourly: 1, weekdays: [] };
export const FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'custom'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** The request body for a scan; only the fields that apply to the frequency. */
export function scheduleBody(scanId: string, v: ScheduleValue) {
  return {
    scan_id: scanId,
    scan_frequency: v.frequency,
    start_time: v.startTime.trim() || undefined,
    hourly_frequency: v.frequency === 'hourly' && v.hourly !== '' ? Number(v.hourly) : undefined,
    custom_weekdays: v.frequency === 'custom' ? v.weekdays.map(Number).sort((a, b) => a - b) : undefined,
  };
}

/** The schedule's fields alone, for POST /v1/scans/schedule/check (before the scan exists). */
export function scheduleFields(v: ScheduleValue) {
  const { scan_id: _unused, ...fields } = scheduleBody('', v);
  return fields;
}

/** A stored schedule back into the form's values. */
export function scheduleValue(s: {
  scan_frequency: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
}): ScheduleValue {
  return {
    frequency: s.scan_frequency,
    startTime: s.start_time ?? '',
    hourly: s.hourly_frequency ?? 1,
    weekdays: (s.custom_weekdays ?? []).map(String),
  };
}

export function describeSchedule(s: {
  scan_frequency: string;
  start_time?: string;
  hourly_frequency?: number;
  custom_weekdays?: number[];
}): string {
  const at = s.start_time ? ` from ${s.start_time} UTC` : '';
  if (s.scan_frequency === 'hourly') return `every ${s.hourly_frequency ?? 1} hour(s)${at}`;
  if (s.scan_frequency === 'custom') return `on ${(s.custom_weekdays ?? []).map((d) => DAYS[d]).join(', ')}${at}`;
  return `${s.scan_frequency}${at}`;
}

export function ScheduleFields({
  value,
  onChange,
  allowNone = true,
}: {
  value: ScheduleValue;
  onChange(v: ScheduleValue): void;
  allowNone?: boolean;
}) {
  const set = (patch: Partial<ScheduleValue>) => onChange({ ...value, ...patch });
  return (
    <Stack gap="xs" data-testid="schedule-fields">
      <Group align="flex-end">
        <Select
          label="Repeat"
          w={170}
          allowDeselect={false}
          data-testid="schedule-frequency"
          data={[
            ...(allowNone ? [{ value: 'none', label: 'Not scheduled' }] : []),
            ...FREQUENCIES.map((f) => ({ value: f, label: f })),
          ]}
          value={value.frequency || 'none'}
          onChange={(f) => set({ frequency: !f || f === 'none' ? '' : f })}
        />
        {value.frequency && (
          <TextInput
            label="Start time (UTC)"
            w={230}
            placeholder="HH:MM or 2026-12-01T06:00:00Z"
            value={value.startTime}
            onChange={(e) => set({ startTime: e.currentTarget.value })}
          />
        )}
        {value.frequency === 'hourly' && (
          <NumberInput
            label="Every N hours"
            w={130}
            min={1}
            max={24}
            clampBehavior="none"
            value={value.hourly}
            onChange={(h) => set({ hourly: h })}
          />
        )}
      </Group>
      {value.frequency === 'custom' && (
        <Stack gap={4}>
          <Text size="sm">On these days</Text>
          <Chip.Group multiple value={value.weekdays} onChange={(w) => set({ weekdays: w })}>
            <Group gap={6}>
              {DAYS.map((d, i) => (
                <Chip key={d} value={String(i)} size="xs">
                  {d}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
        </Stack>
      )}
      {value.frequency && (
        <Text size="xs" c="dimmed">
          Times are UTC. Without a start time the schedule starts now.
        </Text>
      )}
    </Stack>
  );
}
