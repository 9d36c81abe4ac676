// Settings › Schedules: every scheduled scan of the team (GET /v1/scans/schedule) with its next and last
// run; a scan's own page changes or removes its schedule.
import { Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { AnchorLink } from '../components/Links';
import { describeSchedule } from '../components/ScheduleFields';
import { when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { usePageTitle } from '../components/usePageTitle';

export default function Schedules() {
  usePageTitle('Schedules');
  const schedules = useQuery({ queryKey: ['schedules'], queryFn: () => ok(api.GET('/v1/scans/schedule')) });
  // Scan names for the list (the schedule record carries the id only).
  const scans = useQuery({
    queryKey: ['scans', 'names'],
    queryFn: () => ok(api.GET('/v1/scans', { params: { query: { limit: 1000 } } })),
  });
  const names = new Map((scans.data?.data ?? []).map((s) => [s.scan_id, s.name]));

  return (
    <Stack maw={1100}>
      <Title order={2}>Schedules</Title>
      <Text size="sm" c="dimmed">
        Scans that run again on their own. Times are UTC; open a scan to change or remove its schedule.
      </Text>
      {schedules.isPending ? (
        <LoadingState />
      ) : schedules.error ? (
        <ErrorState error={schedules.error} />
      ) : schedules.data.schedules.length === 0 ? (
        <EmptyState>No scan is scheduled</EmptyState>
      ) : (
        <Table striped data-testid="schedules-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Scan</Table.Th>
              <Table.Th>Runs</Table.Th>
              <Table.Th>Next run</Table.Th>
              <Table.Th>Last scheduled run</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {[...schedules.data.schedules]
              .sort((a, b) => a.schedule_next_run.localeCompare(b.schedule_next_run))
              .map((s) => (
                <Table.Tr key={s.scan_id}>
                  <Table.Td>
                    <AnchorLink to="/scans/$scanId" params={{ scanId: s.scan_id }} search={{ tab: undefined }}>
                      {names.get(s.scan_id) || s.scan_id}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{describeSchedule(s)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(s.schedule_next_run)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{s.schedule_last_run ? when(s.schedule_last_run) : 'none yet'}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
