// Enumerations: search, status filter and pagination done by the server; the list refreshes while one runs.
import { Badge, Group, Progress, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useUrlSearchText } from '../../components/useUrlSearchText';
import { api, ok } from '../../api/client';
import { AnchorLink, ButtonLink } from '../../components/Links';
import { when } from '../../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../../components/States';
import { useTeamConfigs } from '../../components/TeamConfigs';
import { useMe } from '../../session';
import { ACTIVE, AssetsTabs, ENUM_STATUSES, EnumStatusBadge } from './common';
import { enumerationsRoute } from './routes';
import { ListFooter } from '../../components/ListFooter';
import { usePageTitle } from '../../components/usePageTitle';

const PAGE = 20;

export default function Enumerations() {
  usePageTitle('Assets');
  const me = useMe();
  const search = enumerationsRoute.useSearch();
  const navigate = useNavigate({ from: '/assets' });
  const [q, setQ] = useUrlSearchText(
    search.q,
    (text) => void navigate({ search: (s) => ({ ...s, q: text, page: undefined }) }),
  );
  const page = search.page ?? 1;
  const list = useQuery({
    queryKey: ['enumerations', search],
    queryFn: () =>
      ok(
        api.GET('/v1/asset/enumerate', {
          params: {
            query: {
              limit: PAGE,
              offset: (page - 1) * PAGE,
              search: search.q,
              status: search.status,
              sort_desc: 'created_at',
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.data.some((e) => ACTIVE.includes(e.status)) ? 2000 : false),
  });
  // Cloud accounts are shown by their config's name (loaded only when a listed enumeration has some).
  const configs = useTeamConfigs(!!list.data?.data.some((e) => e.cloudlist_config_ids?.length));
  const configName = (id: string) => configs.data?.find((c) => c.id === id)?.name ?? id;

  return (
    <Stack>
      <Group justify="space-between">
        <Group>
          <Title order={2}>Assets</Title>
          <AssetsTabs />
        </Group>
        {me.canManage && (
          <ButtonLink to="/assets/new" data-testid="new-enumeration">
            New enumeration
          </ButtonLink>
        )}
      </Group>
      <Group>
        <TextInput
          placeholder="Search by name or root"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          aria-label="search enumerations"
          w={260}
        />
        <Select
          placeholder="Any status"
          clearable
          aria-label="status"
          w={180}
          data={ENUM_STATUSES}
          value={search.status ?? null}
          onChange={(v) => navigate({ search: (s) => ({ ...s, status: v ?? undefined, page: undefined }) })}
        />
      </Group>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>
          {search.q || search.status
            ? 'No enumeration matches'
            : 'No enumerations yet: an enumeration discovers the hosts, ports and web services of your domains'}
        </EmptyState>
      ) : (
        <>
          <Table striped highlightOnHover data-testid="enumerations-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>Roots and cloud accounts</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Assets</Table.Th>
                <Table.Th>New</Table.Th>
                <Table.Th>Runs</Table.Th>
                <Table.Th>Last run</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>
                    <AnchorLink to="/assets/$enumerationId" params={{ enumerationId: e.id }}>
                      {e.name || e.id}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td data-testid="enumeration-type">
                    <Group gap={4} wrap="nowrap">
                      <Badge size="sm" variant="light" color={e.enumeration_type === 'cloudlist' ? 'grape' : 'blue'}>
                        {e.enumeration_type}
                      </Badge>
                      {e.cloudlist_provider_name && (
                        <Text size="xs" c="dimmed">
                          {e.cloudlist_provider_name.split(',').join(', ')}
                        </Text>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={1} maw={260} data-testid="enumeration-roots">
                      {[...e.root_domains, ...(e.cloudlist_config_ids ?? []).map((id) => configName(id))].join(', ') ||
                        '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <EnumStatusBadge status={e.status} />
                      {e.status === 'running' && <Progress value={e.progress} w={60} size="sm" animated />}
                    </Group>
                  </Table.Td>
                  <Table.Td>{e.total_assets}</Table.Td>
                  <Table.Td>{e.new_assets}</Table.Td>
                  <Table.Td>{e.rescan_count + 1}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(e.completed_at ?? e.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={list.data.total_results}
            noun="enumerations"
            pages={list.data.total_pages}
            page={page}
            onPage={(p) => navigate({ search: (s) => ({ ...s, page: p }) })}
          />
        </>
      )}
    </Stack>
  );
}
