// Every finding across scans, filtered and paginated by the server (severity, host, template, tags, time,
// free text); a finding opens in a drawer, deep-linked with ?finding=<id>.
import {
  Anchor,
  Button,
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
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { AnchorLink } from '../components/Links';
import { FindingDetail } from '../components/FindingDetail';
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
          <Table striped highlightOnHover data-testid="findings-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Severity</Table.Th>
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
                    <SeverityBadge severity={r.severity} />
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
