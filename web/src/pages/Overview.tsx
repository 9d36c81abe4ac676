// Overview: findings by severity and over time, recent scans, most affected hosts, findings whose CVE is
// in a KEV list. Counts come from the server (filtered totals), so they hold for any number of findings.
import { Card, Group, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AnchorLink } from '../components/Links';
import { api, ok } from '../api/client';
import { NOWRAP, SEVERITIES, SeverityBadge, StatusBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { usePageTitle } from '../components/usePageTitle';

const PERIODS = [
  { time: 'last_day', label: 'Last day' },
  { time: 'last_week', label: 'Last week' },
  { time: 'last_month', label: 'Last month' },
  { time: 'last_3_months', label: 'Last 3 months' },
  { time: 'last_12_months', label: 'Last 12 months' },
] as const;

const countOf = async (query: Record<string, string>) =>
  (await ok(api.GET('/v1/scans/results', { params: { query: { ...query, limit: 1 } } }))).stats.total;

export default function Overview() {
  usePageTitle('Overview');
  const bySeverity = useQuery({
    queryKey: ['overview', 'severity'],
    queryFn: async () =>
      Object.fromEntries(
        await Promise.all(SEVERITIES.slice(0, 5).map(async (s) => [s, await countOf({ severity: s })] as const)),
      ),
  });
  const overTime = useQuery({
    queryKey: ['overview', 'time'],
    queryFn: async () => Promise.all(PERIODS.map(async (p) => ({ ...p, n: await countOf({ time: p.time }) }))),
  });
  const scans = useQuery({
    queryKey: ['overview', 'scans'],
    queryFn: () => ok(api.GET('/v1/scans', { params: { query: { limit: 5, sort_desc: 'created_at' } } })),
  });
  // Hosts and KEV from the latest 1000 findings (a sample; the Findings page filters everything).
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

  const hosts = new Map<string, number>();
  for (const r of latest.data?.data ?? []) hosts.set(r.target, (hosts.get(r.target) ?? 0) + 1);
  const topHosts = [...hosts.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8);
  const total = Object.values(bySeverity.data ?? {}).reduce((a, b) => a + b, 0);
  const maxPeriod = Math.max(1, ...(overTime.data ?? []).map((p) => p.n));

  return (
    <Stack>
      <Title order={2}>Overview</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Card withBorder data-testid="severity-card">
          <Title order={4} mb="sm">
            Findings by severity
          </Title>
          {bySeverity.isPending ? (
            <LoadingState />
          ) : bySeverity.error ? (
            <ErrorState error={bySeverity.error} />
          ) : total === 0 ? (
            <EmptyState>No findings yet</EmptyState>
          ) : (
            <Stack gap="xs">
              {SEVERITIES.slice(0, 5).map((s) => (
                <Group key={s} justify="space-between">
                  <AnchorLink to="/findings" search={{ severity: s }}>
                    <SeverityBadge severity={s} />
                  </AnchorLink>
                  <Text fw={600}>{bySeverity.data[s]}</Text>
                </Group>
              ))}
            </Stack>
          )}
        </Card>
        <Card withBorder>
          <Title order={4} mb="sm">
            Findings over time
          </Title>
          {overTime.isPending ? (
            <LoadingState />
          ) : overTime.error ? (
            <ErrorState error={overTime.error} />
          ) : (
            <Stack gap="xs">
              {overTime.data.map((p) => (
                <div key={p.time}>
                  <Group justify="space-between">
                    <Text size="sm">{p.label}</Text>
                    <Text size="sm" fw={600}>
                      {p.n}
                    </Text>
                  </Group>
                  <Progress.Root size="sm">
                    <Progress.Section value={(100 * p.n) / maxPeriod} aria-label={`${p.label}: ${p.n} findings`} />
                  </Progress.Root>
                </div>
              ))}
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
        <Card withBorder>
          <Title order={4} mb="sm">
            Most affected hosts
          </Title>
          {latest.isPending ? (
            <LoadingState />
          ) : latest.error ? (
            <ErrorState error={latest.error} />
          ) : topHosts.length === 0 ? (
            <EmptyState>No findings yet</EmptyState>
          ) : (
            <Table>
              <Table.Tbody>
                {topHosts.map(([host, n]) => (
                  <Table.Tr key={host}>
                    <Table.Td>
                      <AnchorLink to="/findings" search={{ host }}>
                        {host}
                      </AnchorLink>
                    </Table.Td>
                    <Table.Td>{n}</Table.Td>
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
