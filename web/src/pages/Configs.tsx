// Settings › Configurations: the team's named configs (GET /v1/scans/config) with a type filter and a
// name search, both kept in the URL. Admins and the Owner add and open them in the editor; other roles
// see names, types and providers only (the server sends them no config text).
import { Badge, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useUrlSearchText } from '../components/useUrlSearchText';
import { api, ok } from '../api/client';
import { CONFIG_TYPES } from '../components/configTypes';
import { AnchorLink, ButtonLink } from '../components/Links';
import { when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { configsRoute } from '../router';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

export default function Configs() {
  usePageTitle('Configurations');
  const me = useMe();
  const search = configsRoute.useSearch();
  const navigate = useNavigate({ from: '/settings/configs' });
  const [q, setQ] = useUrlSearchText(search.q, (text) => void navigate({ search: (s) => ({ ...s, q: text }) }));

  const list = useQuery({
    queryKey: ['configs', search],
    queryFn: () =>
      ok(api.GET('/v1/scans/config', { params: { query: { type: search.type, search: search.q, limit: 1000 } } })),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Title order={2}>Configurations</Title>
        {me.canManage && (
          <ButtonLink
            to="/settings/configs/$configId"
            params={{ configId: 'new' }}
            search={{ type: search.type }}
            data-testid="new-config"
          >
            New configuration
          </ButtonLink>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        Named settings that scans use: engine settings, template selections, alerts, tickets, cloud and source
        credentials, retests and severity rules.
        {!me.canManage && ` Your role (${me.role}) sees names and types only: the text holds credentials.`}
      </Text>
      <Group align="flex-end">
        <Select
          label="Type"
          placeholder="all types"
          clearable
          w={200}
          data-testid="config-type-filter"
          data={CONFIG_TYPES}
          value={search.type ?? null}
          onChange={(v) => navigate({ search: (s) => ({ ...s, type: v ?? undefined }) })}
        />
        <TextInput
          label="Search names"
          placeholder="part of a name"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          w={260}
        />
      </Group>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.length === 0 ? (
        <EmptyState>
          {search.type || search.q ? 'No configuration matches' : 'The team has no configurations yet'}
        </EmptyState>
      ) : (
        <Table striped highlightOnHover data-testid="configs-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Provider</Table.Th>
              <Table.Th>Flags</Table.Th>
              <Table.Th>Changed</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((c) => (
              <Table.Tr key={c.id}>
                <Table.Td>
                  <AnchorLink to="/settings/configs/$configId" params={{ configId: c.id }} search={{ type: undefined }}>
                    {c.name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light">{c.config_type}</Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{c.provider_name || '—'}</Text>
                </Table.Td>
                <Table.Td>
                  <Group gap={4}>
                    {c.global && (
                      <Badge color="grape" variant="outline" size="sm">
                        global
                      </Badge>
                    )}
                    {c.read_only && (
                      <Badge color="gray" variant="outline" size="sm">
                        read-only
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{when(c.updated_at)}</Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Stack>
  );
}
