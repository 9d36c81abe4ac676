// An enumeration: live status and progress (polled while it runs), its assets, what each run changed,
// and its settings; Rescan, Delete and editing the settings for those who may.
import {
  Alert,
  Button,
  Card,
  Group,
  List,
  Modal,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import { RunProgress } from '../../components/RunProgress';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState, type ReactNode } from 'react';
import { api, ok } from '../../api/client';
import { when } from '../../components/Severity';
import { ConfigLinks } from '../../components/TeamConfigs';
import { EmptyState, ErrorState, LoadingState, errorMessage } from '../../components/States';
import { useMe } from '../../session';
import { AssetList } from './AssetList';
import { EnumerationSchedule } from '../../components/EnumerationSchedule';
import { EnumerationForm } from './EnumerationForm';
import { ACTIVE, AssetsTabs, ChangeFields, ChangeKind, type Enumeration, EnumStatusBadge } from './common';
import { enumerationRoute, type AssetListSearch } from './routes';
import { usePageTitle } from '../../components/usePageTitle';

export default function EnumerationDetail() {
  const me = useMe();
  const { enumerationId } = enumerationRoute.useParams();
  const search = enumerationRoute.useSearch();
  const navigate = useNavigate({ from: '/assets/$enumerationId' });
  const qc = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const enumeration = useQuery({
    queryKey: ['enumeration', enumerationId],
    queryFn: async () =>
      (await ok(api.GET('/v1/asset/enumerate/{enumerate_id}', { params: { path: { enumerate_id: enumerationId } } })))
        .data,
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.status) ? 1500 : false),
  });
  usePageTitle(enumeration.data?.name || 'Enumeration');
  const act = useMutation({
    mutationFn: async (what: 'rescan' | 'delete') => {
      const path = { enumerate_id: enumerationId };
      if (what === 'delete') return ok(api.DELETE('/v1/asset/enumerate/{enumerate_id}', { params: { path } }));
      return ok(api.POST('/v1/asset/enumerate/{enumerate_id}/rescan', { params: { path } }));
    },
    onSuccess: async (_d, what) => {
      if (what === 'delete') {
        qc.removeQueries({ queryKey: ['enumeration', enumerationId] });
        await qc.invalidateQueries({ queryKey: ['enumerations'] });
        await navigate({ to: '/assets', search: {} });
      } else await qc.invalidateQueries({ queryKey: ['enumeration', enumerationId] });
    },
  });

  if (enumeration.isPending) return <LoadingState label="Loading the enumeration" />;
  if (enumeration.error) return <ErrorState error={enumeration.error} />;
  const e = enumeration.data;
  const active = ACTIVE.includes(e.status);
  const tab = search.tab ?? 'assets';
  const setSearch = (patch: Partial<AssetListSearch & { tab?: string; run?: number; change?: string }>) =>
    void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });

  return (
    <Stack>
      <AssetsTabs />
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2} data-testid="enumeration-name">
            {e.name}
          </Title>
          <Text size="xs" c="dimmed">
            {e.id}
          </Text>
        </Stack>
        {me.canManage && (
          <Group data-testid="enumeration-actions">
            <Button
              variant="light"
              onClick={() => act.mutate('rescan')}
              disabled={active}
              loading={act.isPending && act.variables === 'rescan'}
            >
              Rescan
            </Button>
            <Button variant="light" color="red" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          </Group>
        )}
      </Group>
      {act.error && (
        <Alert color="red" data-testid="enumeration-action-error">
          {errorMessage(act.error)}
        </Alert>
      )}
      <Card withBorder>
        <RunProgress
          badge={<EnumStatusBadge status={e.status} />}
          progress={e.progress}
          active={active}
          failure={e.failure_reason}
          testId="enumeration-progress"
        />
        <SimpleGrid cols={{ base: 2, md: 5 }} mt="md">
          <Stat label="Assets" value={e.total_assets} testId="total-assets" />
          <Stat label="New in the latest run" value={e.new_assets} />
          <Stat label="Runs" value={e.rescan_count + 1} testId="runs" />
          <Stat label="Elapsed" value={e.enumeration_time_elapsed || '—'} />
          <Stat label="Finished" value={when(e.completed_at)} />
        </SimpleGrid>
        {e.notices.length > 0 && (
          <Alert color="yellow" mt="md" title="Notices" data-testid="enumeration-notices">
            <List size="sm">
              {e.notices.map((n) => (
                <List.Item key={n}>{n}</List.Item>
              ))}
            </List>
          </Alert>
        )}
      </Card>
      <EnumerationSchedule enumerationId={enumerationId} />
      <Tabs value={tab} onChange={(v) => setSearch({ tab: v === 'assets' ? undefined : (v ?? undefined) })}>
        <Tabs.List>
          <Tabs.Tab value="assets">Assets</Tabs.Tab>
          <Tabs.Tab value="changes">Changes</Tabs.Tab>
          <Tabs.Tab value="settings">Settings</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="assets" pt="md">
          {tab === 'assets' && (
            <AssetList
              enumerationId={enumerationId}
              search={search}
              setSearch={setSearch}
              refreshKey={`${e.status}:${e.rescan_count}`}
            />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="changes" pt="md">
          {tab === 'changes' && <Changes enumeration={e} run={search.run} kind={search.change} setSearch={setSearch} />}
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          {tab === 'settings' && <Settings enumeration={e} />}
        </Tabs.Panel>
      </Tabs>
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this enumeration?">
        <Stack>
          <Text size="sm">The enumeration, its assets and their history are deleted for good.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              data-testid="confirm-delete"
              onClick={() => {
                setConfirmDelete(false);
                act.mutate('delete');
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

const KINDS = ['appeared', 'changed', 'disappeared'] as const;

/** What one run changed: assets that appeared, changed (field by field) or disappeared. */
function Changes({
  enumeration: e,
  run: wanted,
  kind,
  setSearch,
}: {
  enumeration: Enumeration;
  run?: number;
  kind?: string;
  setSearch: (p: { run?: number; change?: string }) => void;
}) {
  const last = e.rescan_count + 1;
  const run = wanted && wanted <= last ? wanted : last;
  const path = { enumerate_id: e.id };
  const records = useQuery({
    queryKey: ['enumeration-changes', e.id, run, kind, e.status],
    queryFn: () =>
      ok(
        api.GET('/v1/asset/enumerate/{enumerate_id}/changelogs', {
          params: { path, query: { run, event_type: kind, limit: 500 } },
        }),
      ),
  });
  // How many of each kind the run wrote (one small count request each).
  const counts = useQuery({
    queryKey: ['enumeration-change-counts', e.id, run, e.status],
    queryFn: async () =>
      Object.fromEntries(
        await Promise.all(
          KINDS.map(
            async (k) =>
              [
                k,
                (
                  await ok(
                    api.GET('/v1/asset/enumerate/{enumerate_id}/changelogs', {
                      params: { path, query: { run, event_type: k, limit: 1 } },
                    }),
                  )
                ).total_results,
              ] as const,
          ),
        ),
      ),
  });
  return (
    <Stack>
      <Group>
        <Select
          aria-label="run"
          w={200}
          allowDeselect={false}
          value={String(run)}
          data={Array.from({ length: last }, (_, i) => ({
            value: String(last - i),
            label: `Run ${last - i}${last - i === 1 ? ' (first)' : ''}${last - i === last ? ' (latest)' : ''}`,
          }))}
          onChange={(v) => setSearch({ run: v && Number(v) !== last ? Number(v) : undefined })}
        />
        <SegmentedControl
          value={kind ?? 'all'}
          onChange={(v) => setSearch({ change: v === 'all' ? undefined : v })}
          data-testid="change-kinds"
          data={[
            { value: 'all', label: 'All' },
            ...KINDS.map((k) => ({ value: k, label: `${k}${counts.data ? ` (${counts.data[k]})` : ''}` })),
          ]}
        />
      </Group>
      {ACTIVE.includes(e.status) && run === last && (
        <Text size="sm" c="dimmed">
          This run is still going: its changes are written when it ends.
        </Text>
      )}
      {records.isPending ? (
        <LoadingState />
      ) : records.error ? (
        <ErrorState error={records.error} />
      ) : records.data.data.length === 0 ? (
        <EmptyState>{kind ? `No asset ${kind} in run ${run}` : `Run ${run} changed nothing`}</EmptyState>
      ) : (
        <>
          <Table striped data-testid="changes-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Change</Table.Th>
                <Table.Th>Asset</Table.Th>
                <Table.Th>What changed</Table.Th>
                <Table.Th>When</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {records.data.data.map((c) => (
                <Table.Tr key={c.id} data-kind={c.event_type}>
                  <Table.Td>
                    <ChangeKind kind={c.event_type} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{c.name}</Text>
                  </Table.Td>
                  <Table.Td>
                    {c.event_type === 'changed' ? (
                      <ChangeFields record={c} />
                    ) : (
                      <Text size="sm" c="dimmed">
                        {[c.status_code, c.title].filter(Boolean).join(' · ')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{when(c.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {records.data.total_results > records.data.data.length && (
            <Text size="sm" c="dimmed">
              The first {records.data.data.length} of {records.data.total_results} changes; pick a kind to narrow them.
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}

/** The enumeration's settings; Admins and the Owner change them here (PATCH, used from the next run). */
function Settings({ enumeration: e }: { enumeration: Enumeration }) {
  const me = useMe();
  const qc = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  if (editing) {
    return (
      <EnumerationForm
        initial={e}
        submitLabel="Save settings"
        submitTestId="save-enumeration"
        onCancel={() => setEditing(false)}
        onSubmit={async (body) => {
          await ok(api.PATCH('/v1/asset/enumerate/{enumerate_id}', { params: { path: { enumerate_id: e.id } }, body }));
          await Promise.all([
            qc.invalidateQueries({ queryKey: ['enumeration', e.id] }),
            qc.invalidateQueries({ queryKey: ['enumerations'] }),
          ]);
          setEditing(false);
          setSaved(true);
        }}
      />
    );
  }
  const c = e.enumeration_config as Record<string, unknown>;
  const list = (v: unknown) =>
    Array.isArray(v)
      ? v.length > 20
        ? `${v.slice(0, 20).join(', ')} and ${v.length - 20} more`
        : v.join(', ') || 'none'
      : undefined;
  const rows: [string, ReactNode][] = [
    ['Roots', e.root_domains.join(', ') || '—'],
    ['Steps', e.steps.join(', ')],
    ['Ports', e.enumeration_ports || String(c.ports ?? '') || 'top-100'],
    ['Exclusions', e.exclusions.join(', ') || '—'],
    ['Automatic vulnerability scans', e.automatic_vuln_scans ? 'yes' : 'no'],
    ['DNS resolvers', list(c.resolvers) ?? 'the system resolver'],
    ['Wordlist', list(c.wordlist) ?? 'built-in'],
    ['Concurrency', String(c.concurrency ?? 'default (50)')],
    ['Rate limit', c.rate_limit ? `${String(c.rate_limit)} per second` : 'none'],
    ['Timeout', c.timeout ? `${String(c.timeout)} s` : 'default (3 s)'],
    ['Follow redirects', c['follow-redirect'] === false ? 'no' : 'yes'],
    ['Fingerprint templates', list(c.technology_templates) ?? 'http/technologies/tech-detect.yaml'],
    ...(c.provider_config ? [['Passive source keys', 'set (hidden)'] as [string, string]] : []),
    ...(Array.isArray(c.subfinder_config_ids) && c.subfinder_config_ids.length
      ? [
          [
            'Passive source configs',
            <ConfigLinks ids={c.subfinder_config_ids as string[]} testId="subfinder-configs" />,
          ] as [string, ReactNode],
        ]
      : []),
    ...(e.cloudlist_config_ids?.length
      ? [['Cloud accounts', <ConfigLinks ids={e.cloudlist_config_ids} testId="cloud-configs" />] as [string, ReactNode]]
      : []),
    ['Created', when(e.created_at)],
    ['Changed', when(e.updated_at)],
  ];
  return (
    <Stack>
      {saved && (
        <Alert color="green" data-testid="enumeration-saved" withCloseButton onClose={() => setSaved(false)}>
          Settings saved: the next run uses them.
        </Alert>
      )}
      {me.canManage && (
        <Button
          variant="light"
          style={{ alignSelf: 'flex-start' }}
          onClick={() => {
            setSaved(false);
            setEditing(true);
          }}
          data-testid="edit-enumeration"
        >
          Edit settings
        </Button>
      )}
      <Table withRowBorders={false} maw={900} data-testid="enumeration-settings">
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Td w={240}>
                <Text size="sm" c="dimmed">
                  {k}
                </Text>
              </Table.Td>
              <Table.Td>{typeof v === 'string' ? <Text size="sm">{v}</Text> : v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}

function Stat({ label, value, testId }: { label: string; value: string | number; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
