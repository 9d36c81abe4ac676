// A scan: live progress (polled while it runs), its findings, its log (with export) and its
// configuration; Rescan, Stop and Delete for those who may.
import { Alert, Button, Card, Group, Modal, SimpleGrid, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { RunProgress } from '../components/RunProgress';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { AnchorLink } from '../components/Links';
import { api, ok } from '../api/client';
import { NOWRAP, StatusBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState, errorMessage } from '../components/States';
import { ScanConfigView } from '../components/ScanConfigView';
import { ScanSchedule } from '../components/ScanSchedule';
import { ScanResults } from '../components/ScanResults';
import { ExportMenu } from '../components/ExportMenu';
import { scanRoute } from '../router';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

const ACTIVE = ['queued', 'starting', 'running'];
const RESULTS_SHOWN = 1000;

interface LogRecord {
  timestamp: string;
  target: string;
  template_id: string;
  matched: boolean;
  severity?: string;
  error?: string;
}

export default function ScanDetail() {
  const me = useMe();
  const { scanId } = scanRoute.useParams();
  const { tab } = scanRoute.useSearch();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [confirmDelete, setConfirmDelete] = useState(false);

  const scan = useQuery({
    queryKey: ['scan', scanId],
    queryFn: () => ok(api.GET('/v1/scans/{scan_id}', { params: { path: { scan_id: scanId } } })),
    refetchInterval: (q) => (q.state.data && ACTIVE.includes(q.state.data.status) ? 1500 : false),
  });
  usePageTitle(scan.data ? scan.data.name || scan.data.scan_id : 'Scan');
  const active = !!scan.data && ACTIVE.includes(scan.data.status);
  const results = useQuery({
    queryKey: ['scan-results', scanId, scan.data?.total_result, scan.data?.status],
    enabled: !!scan.data,
    // Most severe first, so a large scan's cut keeps what matters; grouped by template on the page.
    queryFn: () =>
      ok(
        api.GET('/v1/scans/results', {
          params: { query: { scan_id: scanId, limit: RESULTS_SHOWN, sort_desc: 'severity' } },
        }),
      ),
  });
  const config = useQuery({
    queryKey: ['scan-config', scanId],
    enabled: tab === 'config',
    queryFn: () => ok(api.GET('/v1/scans/{scan_id}/config', { params: { path: { scan_id: scanId } } })),
  });
  const log = useQuery({
    queryKey: ['scan-log', scanId, scan.data?.status, scan.data?.rescan_count],
    enabled: tab === 'log' && !!scan.data,
    queryFn: async () => {
      const out = await ok(
        api.GET('/v1/scans/{scan_id}/scan_log/export', {
          params: { path: { scan_id: scanId }, query: { format: 'json' } },
        }),
      );
      if (!('url' in out)) throw new Error('the server gave no download link');
      const link = out;
      const res = await fetch(new URL(link.url).pathname, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`the log export answered ${res.status}`);
      return { url: new URL(link.url).pathname, records: (await res.json()) as LogRecord[] };
    },
  });

  // A fresh download link per format (the link's token is the credential; it is used at once, never shown).
  const exportLog = async (format: 'json' | 'csv' | 'raw') => {
    const out = await ok(
      api.GET('/v1/scans/{scan_id}/scan_log/export', { params: { path: { scan_id: scanId }, query: { format } } }),
    );
    if ('url' in out) window.location.assign(new URL(out.url).pathname);
  };

  const act = useMutation({
    mutationFn: async (what: 'rescan' | 'stop' | 'delete') => {
      if (what === 'delete') return ok(api.DELETE('/v1/scans/{scan_id}', { params: { path: { scan_id: scanId } } }));
      if (what === 'stop') return ok(api.POST('/v1/scans/{scan_id}/stop', { params: { path: { scan_id: scanId } } }));
      return ok(api.POST('/v1/scans/{scan_id}/rescan', { params: { path: { scan_id: scanId } } }));
    },
    onSuccess: async (_d, what) => {
      if (what === 'delete') {
        qc.removeQueries({ queryKey: ['scan', scanId] });
        await navigate({ to: '/scans' });
      } else await qc.invalidateQueries({ queryKey: ['scan', scanId] });
    },
  });

  if (scan.isPending) return <LoadingState label="Loading the scan" />;
  if (scan.error) return <ErrorState error={scan.error} />;
  const s = scan.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Stack gap={0}>
          <Title order={2} data-testid="scan-name">
            {s.name || s.scan_id}
          </Title>
          <Text size="xs" c="dimmed">
            {s.scan_id}
          </Text>
        </Stack>
        {me.canManage && (
          <Group data-testid="scan-actions">
            <Button
              variant="light"
              onClick={() => act.mutate('rescan')}
              disabled={active}
              loading={act.isPending && act.variables === 'rescan'}
            >
              Rescan
            </Button>
            <Button variant="light" color="orange" onClick={() => act.mutate('stop')} disabled={!active}>
              Stop
            </Button>
            <Button variant="light" color="red" onClick={() => setConfirmDelete(true)}>
              Delete
            </Button>
          </Group>
        )}
      </Group>
      {act.error && <Alert color="red">{errorMessage(act.error)}</Alert>}
      <Card withBorder>
        <RunProgress
          badge={<StatusBadge status={s.status} />}
          progress={s.progress}
          active={active}
          failure={s.failure_reason}
          testId="scan-progress"
        />
        <SimpleGrid cols={{ base: 2, md: 5 }} mt="md">
          <Stat label="Targets" value={s.total_target} />
          <Stat label="Templates" value={s.total_template} />
          <Stat label="Findings" value={s.total_result} />
          <Stat label="Elapsed" value={s.scan_time_elapsed || '—'} />
          <Stat label="Runs" value={s.rescan_count + 1} />
        </SimpleGrid>
        <Text size="xs" c="dimmed" mt="xs">
          Created {when(s.created_at)} · finished {when(s.completed_at)}
        </Text>
      </Card>
      <ScanSchedule scanId={scanId} schedule={s.schedule} uploaded={s.status === 'uploaded'} />
      <Tabs
        value={tab ?? 'results'}
        onChange={(v) =>
          navigate({
            to: '/scans/$scanId',
            params: { scanId },
            search: { tab: v === 'results' ? undefined : (v ?? undefined) },
          })
        }
      >
        <Tabs.List>
          <Tabs.Tab value="results">Results</Tabs.Tab>
          <Tabs.Tab value="log">Log</Tabs.Tab>
          <Tabs.Tab value="config">Configuration</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="results" pt="md">
          {results.isPending ? (
            <LoadingState />
          ) : results.error ? (
            <ErrorState error={results.error} />
          ) : results.data.data.length === 0 ? (
            <EmptyState>{active ? 'No findings yet: the scan is running' : 'No findings'}</EmptyState>
          ) : (
            <Stack>
              {results.data.total_results > results.data.data.length && (
                <Text size="sm" data-testid="scan-results-more">
                  The {results.data.data.length} most severe of {results.data.total_results} findings are grouped here;{' '}
                  <AnchorLink to="/findings" search={{ scan: scanId }}>
                    all of them in Findings, filtered to this scan
                  </AnchorLink>
                  .
                </Text>
              )}
              <ScanResults results={results.data.data} />
              <Group>
                <ExportMenu
                  label="Export this scan's findings"
                  call={(type) =>
                    api.GET('/v1/scans/{scan_id}/export', {
                      params: { path: { scan_id: scanId }, query: { type } },
                      parseAs: 'blob',
                    })
                  }
                />
              </Group>
            </Stack>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          {log.isPending ? (
            <LoadingState />
          ) : log.error ? (
            <ErrorState error={log.error} />
          ) : (
            <Stack>
              <Group gap="xs">
                <Text size="sm">Export the log:</Text>
                {(['json', 'csv', 'raw'] as const).map((format) => (
                  <Button key={format} variant="light" size="xs" onClick={() => void exportLog(format)}>
                    {format.toUpperCase()}
                  </Button>
                ))}
                {active && (
                  <Button variant="subtle" size="xs" onClick={() => void log.refetch()} loading={log.isFetching}>
                    Refresh
                  </Button>
                )}
              </Group>
              {log.data.records.length === 0 ? (
                <EmptyState>The log is empty</EmptyState>
              ) : (
                <Table data-testid="scan-log">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Target</Table.Th>
                      <Table.Th>Template</Table.Th>
                      <Table.Th>Outcome</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {log.data.records.slice(0, 500).map((r, i) => (
                      <Table.Tr key={i}>
                        <Table.Td>
                          <Text size="xs">{when(r.timestamp)}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm">{r.target}</Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" style={NOWRAP}>
                            {r.template_id}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" c={r.error ? 'red' : r.matched ? 'green' : 'dimmed'}>
                            {r.error ? r.error : r.matched ? 'matched' : 'not matched'}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="config" pt="md">
          {config.isPending ? (
            <LoadingState />
          ) : config.error ? (
            <ErrorState error={config.error} />
          ) : (
            <ScanConfigView config={config.data} />
          )}
        </Tabs.Panel>
      </Tabs>
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this scan?">
        <Stack>
          <Text size="sm">The scan, its findings and its logs are deleted for good.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button
              color="red"
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

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
    </div>
  );
}
