// What an alerting or reporting config has sent (GET /v1/scans/config/{id}/deliveries): newest first, with
// status, attempts and the last error, so a broken webhook or tracker shows here.
import { Badge, Button, Group, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { AnchorLink } from './Links';
import { when } from './Severity';
import { EmptyState, ErrorState, LoadingState } from './States';

const STATUS: Record<string, string> = { delivered: 'green', pending: 'gray', failed: 'red' };

export function ConfigDeliveries({ configId }: { configId: string }) {
  const list = useQuery({
    queryKey: ['deliveries', configId],
    queryFn: () =>
      ok(
        api.GET('/v1/scans/config/{config_id}/deliveries', {
          params: { path: { config_id: configId }, query: { limit: 100 } },
        }),
      ),
  });
  return (
    <div>
      <Group justify="space-between" mb="xs">
        <Title order={4}>Deliveries</Title>
        <Button size="xs" variant="subtle" onClick={() => void list.refetch()} loading={list.isFetching}>
          Refresh
        </Button>
      </Group>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.length === 0 ? (
        <EmptyState>Nothing sent yet</EmptyState>
      ) : (
        <Table data-testid="deliveries-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Event</Table.Th>
              <Table.Th>Scan</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Attempts</Table.Th>
              <Table.Th>Answer / error</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((d) => (
              <Table.Tr key={d.id}>
                <Table.Td>
                  <Text size="xs">{when(d.created_at)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{d.event}</Text>
                </Table.Td>
                <Table.Td>
                  {d.scan_id ? (
                    <AnchorLink
                      to="/scans/$scanId"
                      params={{ scanId: d.scan_id }}
                      search={{ tab: undefined }}
                      size="sm"
                    >
                      run {d.run + 1}
                    </AnchorLink>
                  ) : (
                    '—'
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge color={STATUS[d.status] ?? 'gray'} variant="light">
                    {d.status}
                  </Badge>
                </Table.Td>
                <Table.Td>{d.attempts}</Table.Td>
                <Table.Td>
                  <Text size="xs" c={d.last_error ? 'red' : undefined}>
                    {d.last_error || (d.response_status ? `HTTP ${d.response_status}` : '')}
                    {d.ticket_url && (
                      <>
                        {' '}
                        <a href={d.ticket_url} target="_blank" rel="noopener noreferrer">
                          ticket
                        </a>
                      </>
                    )}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </div>
  );
}
