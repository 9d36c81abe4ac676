// Asset policies: what each does when a run finds matching assets, when it last ran; create and delete.
import { Badge, Button, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ok } from '../../api/client';
import { AnchorLink, ButtonLink } from '../../components/Links';
import { when } from '../../components/Severity';
import { EmptyState, ErrorState, LoadingState, errorMessage } from '../../components/States';
import { useMe } from '../../session';
import { AssetsTabs, type Policy } from './common';
import { policiesRoute } from './routes';
import { ListFooter } from '../../components/ListFooter';
import { usePageTitle } from '../../components/usePageTitle';

const PAGE = 20;

/** The policy's conditions as one line: "status_code=503 · title=shop". */
export function conditions(p: Policy): string {
  return Object.entries(p.policies)
    .filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : String(v)}`)
    .join(' · ');
}

export default function Policies() {
  usePageTitle('Asset policies');
  const me = useMe();
  const { page = 1 } = policiesRoute.useSearch();
  const navigate = useNavigate({ from: '/assets/policies' });
  const qc = useQueryClient();
  const [deleting, setDeleting] = useState<Policy>();
  const list = useQuery({
    queryKey: ['asset-policies', page],
    queryFn: () => ok(api.GET('/v1/asset/policy', { params: { query: { limit: PAGE, offset: (page - 1) * PAGE } } })),
    placeholderData: keepPreviousData,
  });
  const remove = useMutation({
    mutationFn: (id: string) => ok(api.DELETE('/v1/asset/policy/{policy_id}', { params: { path: { policy_id: id } } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['asset-policies'] }),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Group>
          <Title order={2}>Assets</Title>
          <AssetsTabs />
        </Group>
        {me.canManage && (
          <ButtonLink to="/assets/policies/new" data-testid="new-policy">
            New policy
          </ButtonLink>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        After each run, every policy runs over the assets the run found new or changed: it alerts, labels or deletes
        those that match.
      </Text>
      {remove.error && (
        <ErrorState error={remove.error} title={`The policy was not deleted: ${errorMessage(remove.error)}`} />
      )}
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.policies.length === 0 ? (
        <EmptyState>No asset policies yet</EmptyState>
      ) : (
        <>
          <Table striped highlightOnHover data-testid="policies-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Conditions</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th>Last ran</Table.Th>
                {me.canManage && <Table.Th />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.policies.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <AnchorLink to="/assets/policies/$policyId" params={{ policyId: p.id }}>
                      {p.name || p.id}
                    </AnchorLink>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      <Badge variant="light">{p.policy_type}</Badge>
                      {p.labels.map((l) => (
                        <Badge key={l} size="xs" variant="outline">
                          {l}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Code>{conditions(p)}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {p.enumeration_ids.length ? `${p.enumeration_ids.length} enumeration(s)` : 'every enumeration'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{when(p.last_executed_at)}</Text>
                  </Table.Td>
                  {me.canManage && (
                    <Table.Td>
                      <Button size="xs" variant="subtle" color="red" onClick={() => setDeleting(p)}>
                        Delete
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={list.data.total}
            noun="policies"
            pages={Math.ceil(list.data.total / PAGE)}
            page={page}
            onPage={(p) => navigate({ search: { page: p } })}
          />
        </>
      )}
      <Modal opened={!!deleting} onClose={() => setDeleting(undefined)} title="Delete this policy?">
        <Stack>
          <Text size="sm">
            The policy “{deleting?.name}” and its events are deleted; assets it labelled keep their labels.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
            <Button
              color="red"
              data-testid="confirm-delete"
              onClick={() => {
                remove.mutate(deleting!.id);
                setDeleting(undefined);
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
