// Pieces shared by the assets pages: their types (from the generated API schema), the section's tabs,
// the enumeration status badge and how a change event reads.
import { Badge, Code, Group, SegmentedControl, Text } from '@mantine/core';
import { useLocation, useNavigate } from '@tanstack/react-router';
import type { paths } from '../../api/schema';

type Json<P extends keyof paths, M extends 'get'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer T } } };
}
  ? T
  : never;

export type Enumeration = Json<'/v1/asset/enumerate/{enumerate_id}', 'get'>['data'];
export type Asset = Json<'/v1/asset/enumerate/contents', 'get'>['data'][number];
export type ChangeRecord = Json<'/v1/asset/enumerate/{enumerate_id}/changelogs', 'get'>['data'][number];
export type Policy = Json<'/v1/asset/policy', 'get'>['policies'][number];
export type PolicyEvent = Json<'/v1/asset/policy/{policy_id}/events', 'get'>['data']['events'][number];

/** Discovery steps the API accepts, in the order they run, with what each does. */
export const STEPS = [
  { value: 'dns_resolve', label: 'Resolve names (A, AAAA, CNAME)' },
  { value: 'dns_bruteforce', label: 'Brute-force subdomains (wordlist)' },
  { value: 'dns_passive', label: 'Passive subdomains (crt.sh, OTX...)' },
  { value: 'port_scan', label: 'Port scan (TCP connect)' },
  { value: 'http_probe', label: 'HTTP probe (status, title, technologies)' },
  { value: 'tls_scan', label: 'TLS certificate and versions' },
  { value: 'http_screenshot', label: 'Screenshots of web pages' },
] as const;

export const ENUM_STATUSES = ['queued', 'running', 'finished', 'failed'];
export const ACTIVE = ['queued', 'running'];

const COLORS: Record<string, string> = { finished: 'green', running: 'blue', queued: 'gray', failed: 'red' };
export function EnumStatusBadge({ status }: { status: string }) {
  return (
    <Badge color={COLORS[status] ?? 'gray'} variant="light" data-testid="enum-status">
      {status}
    </Badge>
  );
}

const KIND_COLORS: Record<string, string> = { appeared: 'green', changed: 'orange', disappeared: 'red' };
export function ChangeKind({ kind }: { kind: string }) {
  return (
    <Badge color={KIND_COLORS[kind] ?? 'gray'} variant="light" size="sm">
      {kind}
    </Badge>
  );
}

const show = (v: unknown) => (v === null || v === undefined ? '—' : Array.isArray(v) ? v.join(', ') || '—' : String(v));

/** One change event's fields: "title: Shop → Maintenance". */
export function ChangeFields({ record }: { record: Pick<ChangeRecord, 'event_type' | 'change_event'> }) {
  if (record.event_type !== 'changed') return null;
  return (
    <>
      {record.change_event.map((c) => (
        <Group key={c.name} gap={4} wrap="nowrap">
          <Text size="xs" fw={600}>
            {c.name}:
          </Text>
          <Code>{show(c.from)}</Code>
          <Text size="xs">→</Text>
          <Code>{show(c.to)}</Code>
        </Group>
      ))}
    </>
  );
}

/** Enumerations / Inventory / Policies / Groups: the section's own tabs. */
export function AssetsTabs() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const value = pathname.startsWith('/assets/policies')
    ? '/assets/policies'
    : pathname.startsWith('/assets/groups')
      ? '/assets/groups'
      : pathname.startsWith('/assets/inventory')
        ? '/assets/inventory'
        : '/assets';
  return (
    <SegmentedControl
      data-testid="assets-tabs"
      style={{ alignSelf: 'flex-start' }}
      value={value}
      onChange={(to) => void navigate({ to })}
      data={[
        { value: '/assets', label: 'Enumerations' },
        { value: '/assets/inventory', label: 'Inventory' },
        { value: '/assets/policies', label: 'Policies' },
        { value: '/assets/groups', label: 'Groups' },
      ]}
    />
  );
}

export const lines = (text: string) =>
  text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
