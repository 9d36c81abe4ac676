// Working one finding: its status (a control for Owners and Admins, a badge for the others), labels, a
// retest button with the latest retest's state, and the changelog of every status, label and retest change.
import { Badge, Button, Group, Select, Table, TagsInput, Text } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ApiFailure, ok } from '../api/client';
import { useMe } from '../session';
import { when } from './Severity';
import { EmptyState, ErrorState, LoadingState } from './States';

export const VULN_STATUSES = [
  { value: 'open', label: 'Open' },
  { value: 'triaged', label: 'Triaged' },
  { value: 'fix_in_progress', label: 'Fix in progress' },
  { value: 'fixed', label: 'Fixed' },
  { value: 'false_positive', label: 'False positive' },
  { value: 'accepted_risk', label: 'Accepted risk' },
  { value: 'duplicate', label: 'Duplicate' },
];
const COLORS: Record<string, string> = {
  open: 'red',
  triaged: 'orange',
  fix_in_progress: 'yellow',
  fixed: 'green',
  false_positive: 'gray',
  accepted_risk: 'grape',
  duplicate: 'gray',
};
export const statusLabel = (s: string) => VULN_STATUSES.find((v) => v.value === s)?.label ?? s;

export function StatusBadge({ status, regression }: { status: string; regression?: boolean }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={COLORS[status] ?? 'gray'} variant="light" data-testid="vuln-status">
        {statusLabel(status)}
      </Badge>
      {regression && (
        <Badge color="red" variant="outline" size="xs">
          regression
        </Badge>
      )}
    </Group>
  );
}

interface TriageFinding {
  vuln_id: string;
  vuln_status: string;
  labels: string[];
  is_regression: boolean;
}

/** The status, labels and retest controls of a finding. */
export function FindingTriage({ finding }: { finding: TriageFinding }) {
  const me = useMe();
  const qc = useQueryClient();
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: ['findings'] });
    void qc.invalidateQueries({ queryKey: ['finding'] });
    void qc.invalidateQueries({ queryKey: ['changelog', finding.vuln_id] });
    void qc.invalidateQueries({ queryKey: ['retest', finding.vuln_id] });
  };
  const setStatus = useMutation({
    mutationFn: (vuln_status: string) =>
      ok(api.PATCH('/v1/scans/vulns', { body: { vuln_ids: [finding.vuln_id], vuln_status: vuln_status as 'open' } })),
    onSuccess: refresh,
  });
  const setLabels = useMutation({
    mutationFn: (labels: string[]) =>
      ok(api.PATCH('/v1/scans/vulns/labels', { body: { ids: [finding.vuln_id], labels } })),
    onSuccess: refresh,
  });
  const retest = useQuery({
    queryKey: ['retest', finding.vuln_id],
    retry: false,
    queryFn: async () => {
      try {
        return await ok(api.GET('/v1/retest/{vuln_id}', { params: { path: { vuln_id: finding.vuln_id } } }));
      } catch (err) {
        if (err instanceof ApiFailure && err.status === 404) return null; // never retested
        throw err;
      }
    },
    // While a retest runs, its state is polled; when it ends the finding and its changelog are read again.
    refetchInterval: (q) => (q.state.data?.retest_status === 'running' ? 1000 : false),
  });
  const startRetest = useMutation({
    mutationFn: () =>
      ok(api.POST('/v1/scans/{vuln_id}/retest', { params: { path: { vuln_id: finding.vuln_id } }, body: {} })),
    onSuccess: refresh,
  });
  const state = retest.data?.retest_status;
  // A retest that ended since the page loaded (seen running or not: a quick one may end before the first
  // poll) changed the finding: read it and its changelog again.
  const key = retest.data ? `${retest.data.retest_scan_id}:${state}` : undefined;
  const seen = useRef(key);
  useEffect(() => {
    if (key === seen.current) return;
    seen.current = key;
    if (state && state !== 'running') {
      void qc.invalidateQueries({ queryKey: ['findings'] });
      void qc.invalidateQueries({ queryKey: ['finding'] });
      void qc.invalidateQueries({ queryKey: ['changelog', finding.vuln_id] });
    }
  }, [key, state, qc, finding.vuln_id]);
  const failure = setStatus.error ?? setLabels.error ?? startRetest.error;

  return (
    <Group align="flex-end" gap="md" data-testid="finding-triage">
      {me.canManage ? (
        <Select
          label="Status"
          data={VULN_STATUSES}
          value={finding.vuln_status}
          allowDeselect={false}
          w={180}
          disabled={setStatus.isPending}
          onChange={(v) => v && v !== finding.vuln_status && setStatus.mutate(v)}
          aria-label="Status"
        />
      ) : (
        <div>
          <Text size="sm" fw={500}>
            Status
          </Text>
          <StatusBadge status={finding.vuln_status} regression={finding.is_regression} />
        </div>
      )}
      {me.canManage && finding.is_regression && (
        <Badge color="red" variant="outline">
          regression
        </Badge>
      )}
      {me.canManage ? (
        <TagsInput
          label="Labels"
          value={finding.labels}
          onChange={(v) => setLabels.mutate(v)}
          w={280}
          clearable
          disabled={setLabels.isPending}
        />
      ) : (
        <Group gap={4}>
          {finding.labels.map((l) => (
            <Badge key={l} variant="dot">
              {l}
            </Badge>
          ))}
        </Group>
      )}
      {me.canManage && (
        <Button
          variant="light"
          onClick={() => startRetest.mutate()}
          loading={startRetest.isPending || state === 'running'}
        >
          Retest
        </Button>
      )}
      {state && (
        <Text size="sm" data-testid="retest-state">
          Last retest: {state.replace('_', ' ')}
          {retest.data?.finished_at ? ` (${when(retest.data.finished_at)})` : ''}
        </Text>
      )}
      {failure && <ErrorState error={failure} />}
    </Group>
  );
}

/** Every status, label and retest change of a finding, newest first, with who made it. */
export function FindingChangelog({ vulnId }: { vulnId: string }) {
  const log = useQuery({
    queryKey: ['changelog', vulnId],
    queryFn: () =>
      ok(
        api.GET('/v1/scans/vuln/{vuln_id}/changelogs', {
          params: { path: { vuln_id: vulnId }, query: { limit: 200 } },
        }),
      ),
  });
  if (log.isPending) return <LoadingState />;
  if (log.error) return <ErrorState error={log.error} />;
  if (log.data.data.length === 0) return <EmptyState>No changes yet</EmptyState>;
  const show = (v: unknown) => (Array.isArray(v) ? v.join(', ') || '(none)' : v == null ? '' : String(v));
  return (
    <Table data-testid="finding-changelog">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>When</Table.Th>
          <Table.Th>Who</Table.Th>
          <Table.Th>Change</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {log.data.data.map((c) => (
          <Table.Tr key={c.change_id}>
            <Table.Td>{when(c.created_at)}</Table.Td>
            <Table.Td>
              {c.changed_by}{' '}
              <Text span size="xs" c="dimmed">
                ({c.source})
              </Text>
            </Table.Td>
            <Table.Td>
              {c.change_event
                .map((e) =>
                  e.name === 'retest'
                    ? `retest: ${show(e.to).replace('_', ' ')}`
                    : e.name === 'vuln_status'
                      ? `status: ${statusLabel(show(e.from))} → ${statusLabel(show(e.to))}`
                      : `${e.name}: ${show(e.from)} → ${show(e.to)}`,
                )
                .join('; ')}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
