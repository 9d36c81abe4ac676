import { Badge } from '@mantine/core';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
// Shades dark enough for white text (black on orange and yellow): 4.5:1 contrast or more, light and dark mode.
const COLORS: Record<string, string> = {
  critical: 'red.9',
  high: 'red.8',
  medium: 'orange.5',
  low: 'yellow.5',
  info: 'blue.8',
  unknown: 'gray.7',
};

export function SeverityBadge({ severity }: { severity?: string | null }) {
  const s = (severity || 'unknown').toLowerCase();
  return (
    <Badge
      color={COLORS[s] ?? 'gray.7'}
      c={s === 'low' || s === 'medium' ? 'black' : 'white'}
      variant="filled"
      size="sm"
    >
      {s}
    </Badge>
  );
}

const STATUS: Record<string, string> = {
  finished: 'green',
  running: 'blue',
  starting: 'blue',
  queued: 'gray',
  failed: 'red',
  scheduled: 'violet',
  uploaded: 'teal',
};
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge color={STATUS[status] ?? 'gray'} variant="light" data-testid="scan-status">
      {status}
    </Badge>
  );
}

export function when(iso?: string | null): string {
  if (!iso) return '—';
  // A bare date ("2021-12-10") is a day, not midnight UTC shown as "12:00:00 AM" or the evening before.
  if (DATE_ONLY.test(iso)) return day(iso);
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const MIDNIGHT_UTC = /^(\d{4}-\d{2}-\d{2})T00:00:00(?:\.0+)?(?:Z|[+-]00:?00)$/;

/**
 * A calendar day (a KEV list's date added, a CVE's publication): the date alone. Dates stored as
 * midnight UTC are that day wherever the reader is; other timestamps are the reader's local day.
 */
export function day(iso?: string | null): string {
  if (!iso) return '—';
  const date = DATE_ONLY.test(iso) ? iso : MIDNIGHT_UTC.exec(iso)?.[1];
  if (date) return new Date(`${date}T00:00:00Z`).toLocaleDateString(undefined, { timeZone: 'UTC' });
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleDateString();
}

/** Identifiers (CVE-2021-44228, template ids) break at their hyphens otherwise. */
export const NOWRAP = { whiteSpace: 'nowrap' } as const;
