// Schedule arithmetic: every frequency, month ends, leap years, weekday lists; all in UTC.
import { describe, expect, it } from 'vitest';
import {
  daysInMonth,
  nextRun,
  parseStartTime,
  type ScheduleSpec,
} from '../../../src/platform/monitor/schedule-math.ts';

const d = (s: string) => new Date(s);
const next = (spec: ScheduleSpec, after: string) => nextRun(spec, d(after)).toISOString();

describe('schedule arithmetic (UTC)', () => {
  it('knows month lengths and leap years', () => {
    expect(daysInMonth(2024, 1)).toBe(29);
    expect(daysInMonth(2023, 1)).toBe(28);
    expect(daysInMonth(2000, 1)).toBe(29);
    expect(daysInMonth(1900, 1)).toBe(28);
    expect(daysInMonth(2026, 3)).toBe(30);
    expect(daysInMonth(2026, 11)).toBe(31);
  });

  it('hourly: every N hours from the anchor, across days', () => {
    const spec: ScheduleSpec = { frequency: 'hourly', anchor: d('2026-01-10T09:00:00Z'), hourlyFrequency: 5 };
    expect(next(spec, '2026-01-10T08:00:00Z')).toBe('2026-01-10T09:00:00.000Z'); // the anchor itself
    expect(next(spec, '2026-01-10T09:00:00Z')).toBe('2026-01-10T14:00:00.000Z'); // strictly after
    expect(next(spec, '2026-01-10T22:30:00Z')).toBe('2026-01-11T00:00:00.000Z');
    expect(next(spec, '2026-01-11T00:00:01Z')).toBe('2026-01-11T05:00:00.000Z');
    const every24: ScheduleSpec = { frequency: 'hourly', anchor: d('2026-01-10T09:15:00Z'), hourlyFrequency: 24 };
    expect(next(every24, '2026-03-01T10:00:00Z')).toBe('2026-03-02T09:15:00.000Z');
    const one: ScheduleSpec = { frequency: 'hourly', anchor: d('2026-01-10T09:15:00Z'), hourlyFrequency: 1 };
    expect(next(one, '2026-01-10T12:14:59Z')).toBe('2026-01-10T12:15:00.000Z');
  });

  it('daily: each day at start_time, no DST shift (UTC)', () => {
    const spec: ScheduleSpec = { frequency: 'daily', anchor: d('2026-03-28T02:30:00Z') };
    expect(next(spec, '2026-03-28T02:29:59Z')).toBe('2026-03-28T02:30:00.000Z');
    expect(next(spec, '2026-03-28T02:30:00Z')).toBe('2026-03-29T02:30:00.000Z'); // Europe's DST night: still 02:30 UTC
    expect(next(spec, '2026-12-31T23:00:00Z')).toBe('2027-01-01T02:30:00.000Z');
    // Never before the anchor, even when asked about an earlier time.
    expect(next(spec, '2025-01-01T00:00:00Z')).toBe('2026-03-28T02:30:00.000Z');
  });

  it("weekly: on the anchor's weekday", () => {
    const spec: ScheduleSpec = { frequency: 'weekly', anchor: d('2026-11-18T10:00:00Z') }; // a Wednesday
    expect(next(spec, '2026-11-18T10:00:00Z')).toBe('2026-11-25T10:00:00.000Z');
    expect(next(spec, '2026-11-25T09:59:59Z')).toBe('2026-11-25T10:00:00.000Z');
    expect(next(spec, '2026-11-26T00:00:00Z')).toBe('2026-12-02T10:00:00.000Z');
    expect(new Date(next(spec, '2027-06-01T00:00:00Z')).getUTCDay()).toBe(3);
  });

  it('monthly: on the day of month, the last day in shorter months, leap years', () => {
    const spec: ScheduleSpec = { frequency: 'monthly', anchor: d('2024-01-31T08:00:00Z') };
    expect(next(spec, '2024-01-31T08:00:00Z')).toBe('2024-02-29T08:00:00.000Z'); // leap year
    expect(next(spec, '2024-02-29T08:00:00Z')).toBe('2024-03-31T08:00:00.000Z'); // back to the 31st
    expect(next(spec, '2024-04-01T00:00:00Z')).toBe('2024-04-30T08:00:00.000Z');
    expect(next(spec, '2025-01-31T09:00:00Z')).toBe('2025-02-28T08:00:00.000Z'); // not a leap year
    expect(next(spec, '2025-12-31T08:00:00Z')).toBe('2026-01-31T08:00:00.000Z'); // year end
    const on30: ScheduleSpec = { frequency: 'monthly', anchor: d('2026-01-30T00:00:00Z') };
    expect(next(on30, '2026-01-30T00:00:00Z')).toBe('2026-02-28T00:00:00.000Z');
    expect(next(on30, '2026-02-28T00:00:00Z')).toBe('2026-03-30T00:00:00.000Z');
    const on15: ScheduleSpec = { frequency: 'monthly', anchor: d('2026-01-15T12:00:00Z') };
    expect(next(on15, '2026-05-15T11:59:59Z')).toBe('2026-05-15T12:00:00.000Z');
  });

  it('custom: at start_time on each listed weekday', () => {
    // Monday and Friday at 06:00; the anchor is a Wednesday.
    const spec: ScheduleSpec = { frequency: 'custom', anchor: d('2026-11-18T06:00:00Z'), weekdays: [1, 5] };
    expect(next(spec, '2026-11-18T05:00:00Z')).toBe('2026-11-20T06:00:00.000Z'); // Friday, not the anchor day
    expect(next(spec, '2026-11-20T06:00:00Z')).toBe('2026-11-23T06:00:00.000Z'); // then Monday
    expect(next(spec, '2026-11-23T05:59:59Z')).toBe('2026-11-23T06:00:00.000Z');
    const sunday: ScheduleSpec = { frequency: 'custom', anchor: d('2026-11-18T06:00:00Z'), weekdays: [0] };
    expect(next(sunday, '2026-11-22T06:00:00Z')).toBe('2026-11-29T06:00:00.000Z');
    const everyDay: ScheduleSpec = {
      frequency: 'custom',
      anchor: d('2026-11-18T06:00:00Z'),
      weekdays: [0, 1, 2, 3, 4, 5, 6],
    };
    expect(next(everyDay, '2026-11-18T06:00:00Z')).toBe('2026-11-19T06:00:00.000Z');
  });

  it('catch-up: after downtime the next slot is the first one after now, not each missed one', () => {
    const spec: ScheduleSpec = { frequency: 'hourly', anchor: d('2026-01-01T00:00:00Z'), hourlyFrequency: 2 };
    expect(next(spec, '2026-01-05T07:30:00Z')).toBe('2026-01-05T08:00:00.000Z');
  });

  it('parses start_time as a UTC time of day or date-time', () => {
    const setAt = d('2026-11-23T07:10:00Z');
    expect(parseStartTime('09:30', setAt)).toEqual({ anchor: d('2026-11-23T09:30:00Z'), text: '09:30:00' });
    expect(parseStartTime('23:59:59Z', setAt)?.anchor.toISOString()).toBe('2026-11-23T23:59:59.000Z');
    expect(parseStartTime('00:00+00:00', setAt)?.anchor.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(parseStartTime('2024-02-29T10:00:00Z', setAt)?.anchor.toISOString()).toBe('2024-02-29T10:00:00.000Z');
    for (const bad of [
      '24:00',
      '9:30',
      '12:60',
      '10:00+02:00',
      '2023-02-29T10:00:00Z',
      'noon',
      '2026-13-01T00:00:00Z',
    ]) {
      expect(parseStartTime(bad, setAt), bad).toBeUndefined();
    }
  });
});
