// Scans: search, status filter, sort and pagination, all done by the server; deep-linkable through the URL.
// A scheduled scan carries a badge with its frequency and next run. The API's list has no "has a
// schedule" filter (its `scheduled` status is a scan stored to run later, not yet run), so the page links
// to Settings › Schedules for the scheduled ones instead of filtering them here.
import { Badge, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useUrlSearchText } from '../components/useUrlSearchText';
import { AnchorLink, ButtonLink } from '../components/Links';
import { api, ok } from '../api/client';
import { describeSchedule } from '../components/ScheduleFields';
import { StatusBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { scansRoute } from '../router';
import { useMe } from '../session';
import { ListFooter } from '../components/ListFooter';
import { usePageTitle } from '../components/usePageTitle';

const PAGE = 20;
const SORTS: Record<string, { sort_asc?: string; sort_desc?: string }> = {
  newest: { sort_desc: 'created_at' },
  oldest: { sort_asc: 'created_at' },
  name: { sort_asc: 'name' },
};

export default function Scans() {
  usePageTitle('Scans');
  const me = useMe();
  const search = scansRoute.useSearch();
  const navigate = useNavigate({ from: '/scans' });
  const [q, setQ] = useUrlSearchText(
    search.q,
    (text) => void navigate({ search: (s) => ({ ...s, q: text, page: undefined }) }),
  );
  const page = search.page ?? 1;
  const sort = search.sort ?? 'newest';
  const list = useQuery({
    queryKey: ['scans', search],
    queryFn: () =>
      ok(
        api.GET('/v1/scans', {
          params: {
            query: { limit: PAGE, offset: (page - 1) * PAGE, search: search.q, status: search.status, ...SORTS[sort] },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((s) => ['queued', 'starting', 'running'].includes(s.status)) ? 3000 : false,
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Scans</Title>
        {me.canManage && (
          <ButtonLink to="/scans/new" data-testid="new-scan">
            New scan
          </ButtonLink>
        )}
      </Group>
      <Group>
        <TextInput
          placeholder="Search by name"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          aria-label="search scans"
          w={260}
        />
        <Select
          placeholder="Any status"
          clearable
          aria-label="status"
          w={180}
          data={[
            ...['queued', 'starting', 'running', 'finished', 'failed'],
            { value: 'scheduled', label: 'scheduled (not run yet)' },
            'uploaded',
          ]}
          value={search.status ?? null}
          onChange={(v) => navigate({ search: (s) => ({ ...s, status: v ?? undefined, page: undefined }) })}
        />
        <Select
          aria-label="sort"
          w={160}
          data={[
            { value: 'newest', label: 'Newest first' },
            { value: 'oldest', label: 'Oldest first' },
            { value: 'name', label: 'By name' },
          ]}
          value={sort}
          onChange={(v) => navigate({ search: (s) => ({ ...s, sort: v === 'newest' ? undefined : (v ?? undefined) }) })}
        />
        <AnchorLink to="/settings/schedules" size="sm" data-testid="scheduled-scans-link">
          Scheduled scans
        </AnchorLink>
      </Group>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>{search.q || search.status ? 'No scan matches' : 'No scans yet'}</EmptyState>
      ) : (
        <>
          <Table striped highlightOnHover data-testid="scans-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Schedule</Table.Th>
                <Table.Th>Progress</Table.Th>
                <Table.Th>Targets</Table.Th>
                <Table.Th>Findings</Table.Th>
                <Table.Th>Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((s) => (
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
                    {s.schedule ? (
                      <Stack gap={0} data-testid="scan-scheduled" align="flex-start">
                        <Badge variant="light" color="violet" leftSection="↻" tt="none">
                          {describeSchedule(s.schedule)}
                        </Badge>
                        <Text size="xs" c="dimmed">
                          next {when(s.schedule.schedule_next_run)}
                        </Text>
                      </Stack>
                    ) : (
                      <Text size="sm" c="dimmed">
                        —
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{s.progress}%</Table.Td>
                  <Table.Td>{s.total_target}</Table.Td>
                  <Table.Td>{s.total_result}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(s.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={list.data.total_results}
            noun="scans"
            pages={list.data.total_pages}
            page={page}
            onPage={(p) => navigate({ search: (s) => ({ ...s, page: p }) })}
          />
        </>
      )}
    </Stack>
  );
}
