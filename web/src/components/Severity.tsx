import { Badge } from '@mantine/core';

export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info', 'unknown'] as const;
const COLORS: Record<string, string> = { critical: 'red.9', high: 'red', medium: 'orange', low: 'yellow', info: 'blue', unknown: 'gray' };

export function SeverityBadge({ severity }: { severity?: string | null }) {
  const s = (severity || 'unknown').toLowerCase();
  return <Badge color={COLORS[s] ?? 'gray'} variant="filled" size="sm">{s}</Badge>;
}

const STATUS: Record<string, string> = { finished: 'green', running: 'blue', starting: 'blue', queued: 'gray', failed: 'red', scheduled: 'violet', uploaded: 'teal' };
export function StatusBadge({ status }: { status: string }) {
  return <Badge color={STATUS[status] ?? 'gray'} variant="light" data-testid="scan-status">{status}</Badge>;
}

export function when(iso?: string | null): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}
