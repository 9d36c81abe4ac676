// Schedule arithmetic, pure and in UTC: when a schedule fires next. No clock, no database; the scheduler
// and the API call it with explicit times. The meaning of each frequency is written in docs/schedules.md.

export const FREQUENCIES = ['hourly', 'daily', 'weekly', 'monthly', 'custom'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

export interface ScheduleSpec {
  frequency: Frequency;
  /** The first moment the schedule may fire; its UTC time of day (and weekday, day of month) set the slots. */
  anchor: Date;
  /** hourly: hours between runs, 1-24. */
  hourlyFrequency?: number;
  /** custom: weekdays 0-6, 0 = Sunday. */
  weekdays?: number[];
}

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** Days in a month (month 0-11) of a year, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** The UTC midnight of a time's day, in ms. */
function dayStart(ms: number): number {
  return Math.floor(ms / DAY) * DAY;
}

/**
 * The first slot of the schedule strictly after `after` (and never before the anchor). Catch-up after
 * downtime uses this with `after` = now: every missed slot collapses into the one run that starts now.
 */
export function nextRun(spec: ScheduleSpec, after: Date): Date {
  const anchor = Math.floor(spec.anchor.getTime() / 1000) * 1000;
  // Slots are > bound; a bound just before the anchor lets the anchor itself be the first slot.
  const bound = Math.max(after.getTime(), anchor - 1);
  const tod = anchor - dayStart(anchor); // time of day in ms

  switch (spec.frequency) {
    case 'hourly': {
      const step = (spec.hourlyFrequency ?? 1) * HOUR;
      if (bound < anchor) return new Date(anchor);
      const k = Math.floor((bound - anchor) / step) + 1;
      return new Date(anchor + k * step);
    }
    case 'daily':
    case 'weekly':
    case 'custom': {
      const wanted =
        spec.frequency === 'daily'
          ? null
          : spec.frequency === 'weekly'
            ? new Set([new Date(anchor).getUTCDay()])
            : new Set(spec.weekdays ?? []);
      if (wanted && wanted.size === 0) throw new Error('a custom schedule needs at least one weekday');
      // Eight days always hold the next matching weekday after the bound's own day.
      for (let d = 0; d <= 8; d++) {
        const at = dayStart(bound) + d * DAY + tod;
        if (at <= bound) continue;
        if (!wanted || wanted.has(new Date(at).getUTCDay())) return new Date(at);
      }
      throw new Error('unreachable: no weekday matched within eight days');
    }
    case 'monthly': {
      const dom = new Date(anchor).getUTCDate();
      const b = new Date(bound);
      // This month or the next one; the day is cut to the month's last day in shorter months.
      for (let i = 0; i <= 2; i++) {
        const y = b.getUTCFullYear();
        const m = b.getUTCMonth() + i;
        const yy = y + Math.floor(m / 12);
        const mm = ((m % 12) + 12) % 12;
        const at = Date.UTC(yy, mm, Math.min(dom, daysInMonth(yy, mm))) + tod;
        if (at > bound) return new Date(at);
      }
      throw new Error('unreachable: no month matched');
    }
    default:
      throw new Error(`unknown frequency ${String(spec.frequency)}`);
  }
}

/** Earliest year a start date-time may name; the four-digit format ends at 9999. */
export const MIN_START_YEAR = 1970;

/**
 * `start_time` as the API takes it: a UTC time of day ("09:30", "09:30:15", optionally with "Z" or
 * "+00:00"), or a full UTC date-time ("2026-03-31T09:30:00Z"). A time of day is anchored on the day the
 * schedule is set (`setAt`). Returns undefined for text that is neither, or an offset other than UTC.
 */
export function parseStartTime(value: string, setAt: Date): { anchor: Date; text: string } | undefined {
  const v = value.trim();
  const time = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-]00:?00)?$/i.exec(v);
  if (time) {
    const [h, m, s] = [Number(time[1]), Number(time[2]), Number(time[3] ?? 0)];
    const anchor = new Date(dayStart(setAt.getTime()) + h * HOUR + m * 60_000 + s * 1000);
    return { anchor, text: `${time[1]}:${time[2]}:${String(s).padStart(2, '0')}` };
  }
  const dt = /^(\d{4})-(\d{2})-(\d{2})[T ]([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d)(?:\.\d{1,9})?)?(Z|[+-]00:?00)?$/i.exec(
    v,
  );
  if (dt) {
    const [y, mo, d] = [Number(dt[1]), Number(dt[2]) - 1, Number(dt[3])];
    // Years before 1970 are no start for a schedule (and Date.UTC reads 0-99 as 1900-1999).
    if (y < MIN_START_YEAR || mo > 11 || d < 1 || d > daysInMonth(y, mo)) return undefined;
    const anchor = new Date(Date.UTC(y, mo, d, Number(dt[4]), Number(dt[5]), Number(dt[6] ?? 0)));
    return { anchor, text: anchor.toISOString().replace('.000Z', 'Z') };
  }
  return undefined;
}
