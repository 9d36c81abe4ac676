// Overview: open findings (or all) by severity, new and fixed per day over a chosen period, recent scans,
// the most affected hosts and most frequent findings, and findings whose CVE is in a KEV list. The figures
// come from GET /v1/scans/results/stats (each finding counted once, whatever number of scans saw it).
import { Card, Group, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { DailyBars, HorizontalBars } from '../components/Charts';
import { useQuery } from '@tanstack/react-query';
import { AnchorLink } from '../components/Links';
import { api, ok } from '../api/client';
import { NOWRAP, SEVERITIES, SeverityBadge, StatusBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { usePageTitle } from '../components/usePageTitle';

const PERIODS = [
  { value: '7', label: '7 days' },
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
];
const SCOPES = [
  { value: 'open', label: 'Open findings' },
  { value: 'all', label: 'All statuses' },
];
// Mantine's palette, as the severity badges use it.
const SEVERITY_COLOR: Record<string, string> = {
  critical: 'var(--mantine-color-red-9)',
  high: 'var(--mantine-color-red-7)',
  medium: 'var(--mantine-color-orange-5)',
  low: 'var(--mantine-color-yellow-5)',
  info: 'var(--mantine-color-blue-7)',
};

const DAILY_SERIES = [
  { name: 'new', color: 'var(--mantine-color-red-7)' },
  { name: 'fixed', color: 'var(--mantine-color-teal-7)' },
];

export default function Overview() {
  usePageTitle('Overview');
  const [days, setDays] = useState('30');
  const [status, setStatus] = useState('open');
  const stats = useQuery({
    queryKey: ['overview', 'stats', days, status],
    queryFn: () => ok(api.GET('/v1/scans/results/stats', { params: { query: { days: Number(days), status } } })),
  });
  const scans = useQuery({
    queryKey: ['overview', 'scans'],
    queryFn: () => ok(api.GET('/v1/scans', { params: { query: { limit: 5, sort_desc: 'created_at' } } })),
  });
  // KEV: the CVE templates among the latest 1000 findings (the Vulnerabilities page searches everything).
  const latest = useQuery({
    queryKey: ['overview', 'latest'],
    queryFn: () => ok(api.GET('/v1/scans/results', { params: { query: { limit: 1000, sort_desc: 'created_at' } } })),
  });
  const cves = [
    ...new Set(
      (latest.data?.data ?? []).map((r) => r.template_id.toUpperCase()).filter((id) => /^CVE-\d{4}-\d+$/.test(id)),
    ),
  ].slice(0, 50);
  const kev = useQuery({
    queryKey: ['overview', 'kev', cves],
    enabled: cves.length > 0,
    queryFn: async () => {
      const q = `is_kev:true && (${cves.map((c) => `cve_id:${c}`).join(' || ')})`;
      const out = await ok(
        api.GET('/v2/vulnerability/search', { params: { query: { q, limit: 50, fields: 'cve_id,name,severity' } } }),
      );
      return out.results;
    },
  });
  const severityRows = SEVERITIES.slice(0, 5).map((sev) => ({ severity: sev, count: stats.data?.severity[sev] ?? 0 }));
  const perDay = (stats.data?.per_day ?? []).map((d) => ({ ...d, label: d.day.slice(5) }));
  const newInPeriod = perDay.reduce((a, d) => a + d.new, 0);
  const fixedInPeriod = perDay.reduce((a, d) => a + d.fixed, 0);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Overview</Title>
        <Group>
          <SegmentedControl data={SCOPES} value={status} onChange={setStatus} aria-label="findings counted" />
          <SegmentedControl data={PERIODS} value={days} onChange={setDays} aria-label="period" />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder data-testid="severity-card">
          <Group justify="space-between" mb="sm">
            <Title order={4}>Findings by severity</Title>
            {stats.data && (
              <Text size="sm" c="dimmed" data-testid="severity-total">
                {stats.data.total} {status === 'open' ? 'open' : 'in all'}
              </Text>
            )}
          </Group>
          {stats.isPending ? (
            <LoadingState />
          ) : stats.error ? (
            <ErrorState error={stats.error} />
          ) : stats.data.total === 0 ? (
            <EmptyState>{status === 'open' ? 'No open findings' : 'No findings yet'}</EmptyState>
          ) : (
            <Group align="flex-start" wrap="nowrap">
              <Stack gap={6} miw={130}>
                {severityRows.map((r) => (
                  <Group key={r.severity} justify="space-between" data-testid={`severity-${r.severity}`}>
                    <AnchorLink to="/findings" search={{ severity: r.severity }}>
                      <SeverityBadge severity={r.severity} />
                    </AnchorLink>
                    <Text fw={600}>{r.count}</Text>
                  </Group>
                ))}
              </Stack>
              <div style={{ flex: 1 }}>
                <HorizontalBars
                  height={150}
                  rows={severityRows.map((r) => ({
                    key: r.severity,
                    count: r.count,
                    color: SEVERITY_COLOR[r.severity]!,
                  }))}
                />
              </div>
            </Group>
          )}
        </Card>
        <Card withBorder data-testid="per-day-card">
          <Group justify="space-between" mb="sm">
            <Title order={4}>New and fixed per day</Title>
            {stats.data && (
              <Text size="sm" c="dimmed" data-testid="per-day-totals">
                {newInPeriod} new, {fixedInPeriod} fixed in {days} days
              </Text>
            )}
          </Group>
          {stats.isPending ? (
            <LoadingState />
          ) : stats.error ? (
            <ErrorState error={stats.error} />
          ) : (
            <Stack gap={4}>
              <DailyBars
                height={170}
                series={DAILY_SERIES}
                days={perDay.map((d) => ({ label: d.label, values: [d.new, d.fixed] }))}
              />
              <Group gap="md" justify="center">
                {DAILY_SERIES.map((s) => (
                  <Group gap={4} key={s.name}>
                    <div style={{ width: 10, height: 10, background: s.color, borderRadius: 2 }} />
                    <Text size="xs">{s.name}</Text>
                  </Group>
                ))}
              </Group>
            </Stack>
          )}
        </Card>
        <Card withBorder>
          <Title order={4} mb="sm">
            Recent scans
          </Title>
          {scans.isPending ? (
            <LoadingState />
          ) : scans.error ? (
            <ErrorState error={scans.error} />
          ) : scans.data.data.length === 0 ? (
            <EmptyState>No scans yet</EmptyState>
          ) : (
            <Table>
              <Table.Tbody>
                {scans.data.data.map((s) => (
                  <Table.Tr key={s.scan_id}>
                    <Table.Td>
                      <AnchorLink to="/scans/$scanId" params={{ scanId: s.scan_id }}>
                        {s.name || s.scan_id}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={s.status} />
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{s.total_result} findings</Text>
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {when(s.created_at)}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card withBorder data-testid="top-hosts-card">
          <Title order={4} mb="sm">
            Most affected hosts
          </Title>
          {stats.isPending ? (
            <LoadingState />
          ) : stats.error ? (
            <ErrorState error={stats.error} />
          ) : stats.data.top_hosts.length === 0 ? (
            <EmptyState>No findings</EmptyState>
          ) : (
            <Table>
              <Table.Tbody>
                {stats.data.top_hosts.map((h) => (
                  <Table.Tr key={h.host}>
                    <Table.Td>
                      <AnchorLink to="/findings" search={{ host: h.host }}>
                        {h.host}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td ta="right">{h.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card withBorder data-testid="top-templates-card">
          <Title order={4} mb="sm">
            Most frequent findings
          </Title>
          {stats.isPending ? (
            <LoadingState />
          ) : stats.error ? (
            <ErrorState error={stats.error} />
          ) : stats.data.top_templates.length === 0 ? (
            <EmptyState>No findings</EmptyState>
          ) : (
            <Table>
              <Table.Tbody>
                {stats.data.top_templates.map((tpl) => (
                  <Table.Tr key={tpl.template_id}>
                    <Table.Td>
                      <SeverityBadge severity={tpl.severity} />
                    </Table.Td>
                    <Table.Td>
                      <AnchorLink to="/findings" search={{ template: tpl.template_id }}>
                        {tpl.name}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td ta="right">{tpl.count}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
        <Card withBorder data-testid="kev-card">
          <Title order={4} mb="sm">
            Findings with a CVE in a KEV list
          </Title>
          {cves.length === 0 ? (
            <EmptyState>No CVE findings among the latest</EmptyState>
          ) : kev.isPending ? (
            <LoadingState />
          ) : kev.error ? (
            <ErrorState error={kev.error} />
          ) : kev.data.length === 0 ? (
            <EmptyState>None is in a KEV list</EmptyState>
          ) : (
            <Stack gap={4}>
              {kev.data.map((v) => (
                <Group key={v.cve_id}>
                  <AnchorLink to="/vulnerabilities" search={{ q: v.cve_id }} style={NOWRAP}>
                    {v.cve_id}
                  </AnchorLink>
                  <SeverityBadge severity={v.severity} />
                  <Text size="sm">{v.name}</Text>
                </Group>
              ))}
            </Stack>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
