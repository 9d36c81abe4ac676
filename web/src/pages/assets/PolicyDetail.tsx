// One asset policy: its conditions and action, and the events it wrote (labels applied, alerts sent);
// Admins and the Owner change it (the whole policy, PATCH with update_type=replace) or delete it.
import { Alert, Badge, Button, Card, Code, Group, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ok } from '../../api/client';
import { AnchorLink } from '../../components/Links';
import { when } from '../../components/Severity';
import { ConfigLinks } from '../../components/TeamConfigs';
import { EmptyState, ErrorState, LoadingState, errorMessage } from '../../components/States';
import { useMe } from '../../session';
import { AssetsTabs, type PolicyEvent } from './common';
import { conditions } from './Policies';
import { PolicyForm } from './PolicyForm';
import { policyRoute } from './routes';
import { ListFooter } from '../../components/ListFooter';
import { usePageTitle } from '../../components/usePageTitle';

const PAGE = 50;

export default function PolicyDetail() {
  const me = useMe();
  const { policyId } = policyRoute.useParams();
  const { page = 1 } = policyRoute.useSearch();
  const navigate = useNavigate({ from: '/assets/policies/$policyId' });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const qc = useQueryClient();
  const path = { policy_id: policyId };
  const policy = useQuery({
    queryKey: ['asset-policy', policyId],
    queryFn: async () => (await ok(api.GET('/v1/asset/policy/{policy_id}', { params: { path } }))).data,
  });
  usePageTitle(policy.data?.name || 'Policy');
  const events = useQuery({
    queryKey: ['asset-policy-events', policyId, page, policy.data?.last_executed_at],
    queryFn: () =>
      ok(
        api.GET('/v1/asset/policy/{policy_id}/events', {
          params: { path, query: { limit: PAGE, offset: (page - 1) * PAGE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  // Names of the enumerations a scoped policy names.
  const names = useQuery({
    queryKey: ['enumerations', 'names'],
    enabled: !!policy.data?.enumeration_ids.length,
    queryFn: async () =>
      new Map(
        (await ok(api.GET('/v1/asset/enumerate', { params: { query: { limit: 1000 } } }))).data.map((e) => [
          e.id,
          e.name,
        ]),
      ),
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE('/v1/asset/policy/{policy_id}', { params: { path } })),
    onSuccess: () => navigate({ to: '/assets/policies', search: {} }),
  });

  if (policy.isPending) return <LoadingState label="Loading the policy" />;
  if (policy.error) return <ErrorState error={policy.error} />;
  const p = policy.data;

  return (
    <Stack>
      <AssetsTabs />
      <Group justify="space-between">
        <Title order={2} data-testid="policy-name">
          {p.name || p.id}
        </Title>
        {me.canManage && !editing && (
          <Group>
            <Button
              variant="light"
              onClick={() => {
                setSaved(false);
                setEditing(true);
              }}
              data-testid="edit-policy"
            >
              Edit
            </Button>
            <Button variant="light" color="red" onClick={() => setConfirmDelete(true)} data-testid="delete-policy">
              Delete
            </Button>
          </Group>
        )}
      </Group>
      {remove.error && <ErrorState error={remove.error} title={errorMessage(remove.error)} />}
      {saved && (
        <Alert color="green" data-testid="policy-saved" withCloseButton onClose={() => setSaved(false)}>
          Policy saved: it applies to the assets the next runs find.
        </Alert>
      )}
      {editing ? (
        <PolicyForm
          initial={p}
          submitLabel="Save policy"
          submitTestId="save-policy"
          onCancel={() => setEditing(false)}
          onSubmit={async (body) => {
            await ok(
              api.PATCH('/v1/asset/policy/{policy_id}', { params: { path, query: { update_type: 'replace' } }, body }),
            );
            await Promise.all([
              qc.invalidateQueries({ queryKey: ['asset-policy', policyId] }),
              qc.invalidateQueries({ queryKey: ['asset-policies'] }),
            ]);
            setEditing(false);
            setSaved(true);
          }}
        />
      ) : (
        <Card withBorder>
          <Stack gap="xs">
            <Group gap="xs">
              <Text size="sm" c="dimmed" w={140}>
                Action
              </Text>
              <Badge variant="light">{p.policy_type}</Badge>
              {p.labels.map((l) => (
                <Badge key={l} variant="outline">
                  {l}
                </Badge>
              ))}
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed" w={140}>
                Conditions
              </Text>
              <Code>{conditions(p)}</Code>
            </Group>
            <Group gap="xs">
              <Text size="sm" c="dimmed" w={140}>
                Scope
              </Text>
              {p.enumeration_ids.length ? (
                p.enumeration_ids.map((id) => (
                  <AnchorLink key={id} size="sm" to="/assets/$enumerationId" params={{ enumerationId: id }}>
                    {names.data?.get(id) ?? id}
                  </AnchorLink>
                ))
              ) : (
                <Text size="sm">every enumeration</Text>
              )}
            </Group>
            {p.alerting_config_ids.length > 0 && (
              <Group gap="xs">
                <Text size="sm" c="dimmed" w={140}>
                  Alerting configs
                </Text>
                <ConfigLinks ids={p.alerting_config_ids} testId="policy-alerting" />
              </Group>
            )}
            <Group gap="xs">
              <Text size="sm" c="dimmed" w={140}>
                Last ran
              </Text>
              <Text size="sm">{when(p.last_executed_at)}</Text>
            </Group>
          </Stack>
        </Card>
      )}
      <Title order={4}>Events</Title>
      {events.isPending ? (
        <LoadingState />
      ) : events.error ? (
        <ErrorState error={events.error} />
      ) : events.data.data.events.length === 0 ? (
        <EmptyState>No events yet: the policy acts when a run finds matching new or changed assets</EmptyState>
      ) : (
        <>
          <Table striped data-testid="policy-events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Assets</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {events.data.data.events.map((ev) => (
                <Table.Tr key={ev.id}>
                  <Table.Td>
                    <Text size="sm">{ev.event_type}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge
                      size="sm"
                      variant="light"
                      color={ev.status === 'failed' ? 'red' : ev.status === 'pending' ? 'gray' : 'green'}
                    >
                      {ev.status}
                    </Badge>
                    {ev.error_message && (
                      <Text size="xs" c="red">
                        {ev.error_message}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{assetsOf(ev)}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{when(ev.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={events.data.total}
            noun="events"
            pages={Math.ceil(events.data.total / PAGE)}
            page={page}
            onPage={(n) => navigate({ search: { page: n } })}
          />
        </>
      )}
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this policy?">
        <Stack>
          <Text size="sm">The policy and its events are deleted for good.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              data-testid="confirm-delete"
              onClick={() => {
                setConfirmDelete(false);
                remove.mutate();
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

/** The asset(s) an event is about, from its payload (one asset, or the list an alert names). */
function assetsOf(ev: PolicyEvent): string {
  type Named = { url?: string | null; host?: string; port?: number | null };
  const m = ev.message_payload as { asset?: Named; assets?: Named[] };
  const name = (a: Named) => a.url || `${a.host ?? ''}${a.port ? ':' + a.port : ''}`;
  if (m.assets) return m.assets.map(name).join(', ');
  if (m.asset) return name(m.asset);
  return '—';
}
