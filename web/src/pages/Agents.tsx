// Settings › Agents: the team's `vigil agent` processes (GET /v1/agents) with their state, version, tags,
// networks, last contact and running chunks. Admins and the Owner remove them; starting one is a command
// on the machine inside the network (docs/agents.md).
import { Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

export default function Agents() {
  usePageTitle('Agents');
  const me = useMe();
  const qc = useQueryClient();
  const agents = useQuery({
    queryKey: ['agents'],
    queryFn: () => ok(api.GET('/v1/agents')),
    refetchInterval: 10_000,
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/agents/{agent_id}', { params: { path: { agent_id: id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['agents'] }),
  });

  return (
    <Stack maw={1100}>
      <Title order={2}>Agents</Title>
      <Text size="sm" c="dimmed">
        Agents run this team&apos;s scans from inside other networks. Start one on a machine there with an Owner&apos;s
        or Admin&apos;s API key:
      </Text>
      <Code block>
        vigil agent --server {window.location.origin} --key $VIGIL_API_KEY --name NAME --tags a,b --networks 10.0.0.0/8
      </Code>
      {remove.error && <ErrorState error={remove.error} />}
      {agents.isPending ? (
        <LoadingState />
      ) : agents.error ? (
        <ErrorState error={agents.error} />
      ) : agents.data.agents.length === 0 ? (
        <EmptyState>No agent registered yet</EmptyState>
      ) : (
        <Table striped data-testid="agents-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Tags</Table.Th>
              <Table.Th>Networks</Table.Th>
              <Table.Th>Version</Table.Th>
              <Table.Th>Last seen</Table.Th>
              <Table.Th>Running chunks</Table.Th>
              {me.canManage && <Table.Th />}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {agents.data.agents.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {a.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {a.id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={a.online ? 'green' : 'gray'}>
                    {a.online ? 'online' : 'offline'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {a.tags.map((t) => (
                      <Badge key={t} variant="light">
                        {t}
                      </Badge>
                    ))}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.networks.join(', ')}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.version}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.last_seen ? when(a.last_seen) : 'never'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{a.running_chunks}</Text>
                </Table.Td>
                {me.canManage && (
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="subtle"
                      color="red"
                      loading={remove.isPending && remove.variables === a.id}
                      onClick={() => {
                        if (window.confirm(`Remove agent ${a.name}? Its key stops working.`)) remove.mutate(a.id);
                      }}
                    >
                      Remove
                    </Button>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
