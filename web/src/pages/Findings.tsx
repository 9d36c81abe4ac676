// Every finding across scans, filtered and paginated by the server (severity, status, host, template, tags,
// time, free text); a finding opens in a drawer, deep-linked with ?finding=<id>. Owners and Admins change
// the status and labels of the selected findings (or of the whole filter) and retest them; everyone
// exports them (components/FindingsBulk.tsx).
import {
  Anchor,
  Button,
  Checkbox,
  Drawer,
  Group,
  MultiSelect,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { AnchorLink } from '../components/Links';
import { FindingDetail } from '../components/FindingDetail';
import { FindingsBulk } from '../components/FindingsBulk';
import { StatusBadge, VULN_STATUSES } from '../components/FindingTriage';
import { useMe } from '../session';
import { SEVERITIES, SeverityBadge, when } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { findingsRoute } from '../router';
import { ListFooter } from '../components/ListFooter';
import { usePageTitle } from '../components/usePageTitle';

const PAGE = 50;
const TIMES = [
  { value: 'last_day', label: 'Last day' },
  { value: 'last_week', label: 'Last week' },
  { value: 'last_month', label: 'Last month' },
  { value: 'last_3_months', label: 'Last 3 months' },
  { value: 'last_12_months', label: 'Last 12 months' },
];

export default function Findings() {
  usePageTitle('Findings');
  const search = findingsRoute.useSearch();
  const navigate = useNavigate({ from: '/findings' });
  const page = search.page ?? 1;
  const [host, setHost] = useState(search.host ?? '');
  const [template, setTemplate] = useState(search.template ?? '');
  const [tags, setTags] = useState(search.tags ?? '');
  const [q, setQ] = useState(search.q ?? '');
  const me = useMe();
  const qc = useQueryClient();
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [bulkStatus, setBulkStatus] = useState<string | null>(null);
  const split = (v: string | undefined) => (v ? v.split(',').filter(Boolean) : undefined);
  // The whole filter can go to the server as the bulk body when it only uses fields that body takes.
  const filterFits =
    !search.tags &&
    !search.time &&
    !search.status &&
    !!(search.scan || search.severity || search.host || search.template || search.q);
  const bulk = useMutation({
    mutationFn: (v: { ids?: string[]; status: string }) =>
      ok(
        api.PATCH('/v1/scans/vulns', {
          body: v.ids
            ? { vuln_ids: v.ids, vuln_status: v.status as 'open' }
            : {
                vuln_status: v.status as 'open',
                scan_id: search.scan,
                severity: split(search.severity),
                host: split(search.host),
                template: split(search.template),
                search: search.q,
              },
        }),
      ),
    onSuccess: () => {
      setSelected(new Set());
      void qc.invalidateQueries({ queryKey: ['findings'] });
      void qc.invalidateQueries({ queryKey: ['finding'] });
    },
  });

  const list = useQuery({
    queryKey: ['findings', { ...search, finding: undefined }],
    queryFn: () =>
      ok(
        api.GET('/v1/scans/results', {
          params: {
            query: {
              limit: PAGE,
              offset: (page - 1) * PAGE,
              severity: search.severity,
              host: search.host,
              templates: search.template,
              tags: search.tags,
              time: search.time,
              search: search.q,
              scan_id: search.scan,
              vuln_status: search.status,
              sort_desc: 'created_at',
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const onPage = list.data?.data.find((r) => r.vuln_id === search.finding);
  // A finding named in the link but not on this page of the list: fetched by its id.
  const byId = useQuery({
    queryKey: ['finding', search.finding],
    enabled: !!search.finding && !!list.data && !onPage,
    retry: false,
    queryFn: () => ok(api.GET('/v1/scans/results/{vuln_id}', { params: { path: { vuln_id: search.finding! } } })),
  });
  const open = onPage ?? byId.data;
  const apply = () =>
    navigate({
      search: (s) => ({
        ...s,
        host: host || undefined,
        template: template || undefined,
        tags: tags || undefined,
        q: q || undefined,
        page: undefined,
      }),
    });

  return (
    <Stack>
      <Title order={2}>Findings</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void apply();
        }}
      >
        <Group align="flex-end">
          <MultiSelect
            label="Severity"
            data={SEVERITIES.slice(0, 5) as unknown as string[]}
            w={260}
            clearable
            value={search.severity ? search.severity.split(',') : []}
            onChange={(v) =>
              navigate({ search: (s) => ({ ...s, severity: v.length ? v.join(',') : undefined, page: undefined }) })
            }
          />
          <MultiSelect
            label="Status"
            data={VULN_STATUSES}
            w={240}
            clearable
            value={search.status ? search.status.split(',') : []}
            onChange={(v) =>
              navigate({ search: (s) => ({ ...s, status: v.length ? v.join(',') : undefined, page: undefined }) })
            }
          />
          <TextInput label="Host" value={host} onChange={(e) => setHost(e.currentTarget.value)} w={180} />
          <TextInput label="Template" value={template} onChange={(e) => setTemplate(e.currentTarget.value)} w={160} />
          <TextInput label="Tags" value={tags} onChange={(e) => setTags(e.currentTarget.value)} w={120} />
          <Select
            label="Time"
            data={TIMES}
            clearable
            w={150}
            value={search.time ?? null}
            onChange={(v) => navigate({ search: (s) => ({ ...s, time: v ?? undefined, page: undefined }) })}
          />
          <TextInput label="Text" value={q} onChange={(e) => setQ(e.currentTarget.value)} w={160} />
          <Button type="submit">Filter</Button>
        </Group>
      </form>
      {list.isPending ? (
        <LoadingState />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>No findings match</EmptyState>
      ) : (
        <>
          {me.canManage && (
            <Group align="flex-end" data-testid="bulk-status">
              <Text size="sm">{selected.size} selected</Text>
              <Select
                aria-label="New status for the selected findings"
                placeholder="Set status to…"
                data={VULN_STATUSES}
                value={bulkStatus}
                onChange={setBulkStatus}
                w={200}
              />
              <Button
                disabled={!bulkStatus || selected.size === 0}
                loading={bulk.isPending}
                onClick={() => bulkStatus && bulk.mutate({ ids: [...selected], status: bulkStatus })}
              >
                Apply to selected
              </Button>
              {filterFits && (
                <Button
                  variant="light"
                  disabled={!bulkStatus}
                  loading={bulk.isPending}
                  onClick={() => bulkStatus && bulk.mutate({ status: bulkStatus })}
                >
                  Apply to all {list.data.total_results} matching
                </Button>
              )}
              {bulk.error && <ErrorState error={bulk.error} />}
            </Group>
          )}
          <FindingsBulk
            selected={[...selected]}
            filter={search}
            total={list.data.total_results}
            canManage={me.canManage}
            onDone={() => {
              void qc.invalidateQueries({ queryKey: ['findings'] });
              void qc.invalidateQueries({ queryKey: ['finding'] });
              void qc.invalidateQueries({ queryKey: ['retest'] });
            }}
          />
          <Table striped highlightOnHover data-testid="findings-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Checkbox
                    aria-label="Select every finding on this page"
                    checked={list.data.data.length > 0 && list.data.data.every((r) => selected.has(r.vuln_id))}
                    onChange={(e) =>
                      setSelected(e.currentTarget.checked ? new Set(list.data.data.map((r) => r.vuln_id)) : new Set())
                    }
                  />
                </Table.Th>
                <Table.Th>Severity</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Finding</Table.Th>
                <Table.Th>Host</Table.Th>
                <Table.Th>Matched at</Table.Th>
                <Table.Th>Found</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((r) => (
                <Table.Tr key={r.vuln_id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${r.template_name || r.template_id} on ${r.target}`}
                      checked={selected.has(r.vuln_id)}
                      onChange={(e) => {
                        const next = new Set(selected);
                        if (e.currentTarget.checked) next.add(r.vuln_id);
                        else next.delete(r.vuln_id);
                        setSelected(next);
                      }}
                    />
                  </Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={r.severity} />
                  </Table.Td>
                  <Table.Td>
                    <StatusBadge status={r.vuln_status} regression={r.is_regression} />
                  </Table.Td>
                  <Table.Td>
                    <Anchor
                      component="button"
                      onClick={() => navigate({ search: (s) => ({ ...s, finding: r.vuln_id }) })}
                    >
                      {r.template_name || r.template_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.target}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{r.matched_at}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="xs">{when(r.created_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={list.data.total_results}
            noun="findings"
            pages={list.data.total_pages}
            page={page}
            onPage={(p) => navigate({ search: (s) => ({ ...s, page: p }) })}
          />
        </>
      )}
      <Drawer
        opened={!!search.finding}
        onClose={() => navigate({ search: (s) => ({ ...s, finding: undefined }) })}
        position="right"
        size="xl"
        title="Finding"
      >
        {open ? (
          <Stack>
            <AnchorLink to="/findings/$findingId" params={{ findingId: open.vuln_id }} size="sm">
              Link to this finding
            </AnchorLink>
            <FindingDetail finding={open} />
          </Stack>
        ) : byId.error ? (
          <ErrorState error={byId.error} />
        ) : (
          <LoadingState />
        )}
      </Drawer>
    </Stack>
  );
}
