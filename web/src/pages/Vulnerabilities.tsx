// Vulnerabilities: a CVE id opens its record; anything else searches (field:value, ranges, free text).
import { Anchor, Badge, Button, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../api/client';
import { VulnRecord } from '../components/FindingDetail';
import { NOWRAP, SeverityBadge } from '../components/Severity';
import { EmptyState, ErrorState, LoadingState } from '../components/States';
import { vulnsRoute } from '../router';
import { usePageTitle } from '../components/usePageTitle';

const PAGE = 25;
const CVE = /^CVE-\d{4}-\d{4,}$/i;

export default function Vulnerabilities() {
  usePageTitle('Vulnerabilities');
  const search = vulnsRoute.useSearch();
  const navigate = useNavigate({ from: '/vulnerabilities' });
  const [q, setQ] = useState(search.q ?? '');
  const page = search.page ?? 1;
  const term = (search.q ?? '').trim();
  const isCve = CVE.test(term);

  const record = useQuery({
    queryKey: ['vuln', term.toUpperCase()],
    enabled: isCve,
    queryFn: () => ok(api.GET('/v2/vulnerability/{id}', { params: { path: { id: term } } })),
  });
  const found = useQuery({
    queryKey: ['vuln-search', term, page],
    enabled: !!term && !isCve,
    queryFn: () =>
      ok(
        api.GET('/v2/vulnerability/search', {
          params: {
            query: {
              q: term,
              limit: PAGE,
              offset: (page - 1) * PAGE,
              fields: 'cve_id,name,severity,cvss_score,epss_score,is_kev,is_poc',
            },
          },
        }),
      ),
    placeholderData: keepPreviousData,
  });

  return (
    <Stack>
      <Title order={2}>Vulnerabilities</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void navigate({ search: { q: q.trim() || undefined } });
        }}
      >
        <Group>
          <TextInput
            flex={1}
            placeholder="CVE-2021-44228, or a search: is_kev:true && cvss_score:>9, log4j"
            value={q}
            onChange={(e) => setQ(e.currentTarget.value)}
            aria-label="vulnerability query"
          />
          <Button type="submit">Look up</Button>
        </Group>
      </form>
      {!term ? (
        <EmptyState>Enter a CVE id or a search</EmptyState>
      ) : isCve ? (
        record.isPending ? (
          <LoadingState />
        ) : record.error ? (
          record.error instanceof ApiFailure && record.error.status === 404 ? (
            <EmptyState>{term.toUpperCase()} is not in the vulnerability data</EmptyState>
          ) : (
            <ErrorState error={record.error} />
          )
        ) : (
          <VulnRecord v={record.data.data} />
        )
      ) : found.isPending ? (
        <LoadingState />
      ) : found.error ? (
        <ErrorState error={found.error} />
      ) : found.data.results.length === 0 ? (
        <EmptyState>Nothing matches</EmptyState>
      ) : (
        <>
          <Text size="sm" c="dimmed">
            {found.data.total} vulnerabilities
          </Text>
          <Table striped data-testid="vuln-results">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>CVE</Table.Th>
                <Table.Th>Severity</Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>CVSS</Table.Th>
                <Table.Th>EPSS</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {found.data.results.map((v) => (
                <Table.Tr key={v.cve_id}>
                  <Table.Td style={NOWRAP}>
                    <Anchor
                      component="button"
                      onClick={() => {
                        setQ(v.cve_id ?? '');
                        void navigate({ search: { q: v.cve_id } });
                      }}
                    >
                      {v.cve_id}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <SeverityBadge severity={v.severity} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{v.name}</Text>
                  </Table.Td>
                  <Table.Td>{v.cvss_score ?? '—'}</Table.Td>
                  <Table.Td>{v.epss_score ?? '—'}</Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {v.is_kev && (
                        <Badge color="red" size="xs">
                          KEV
                        </Badge>
                      )}
                      {v.is_poc && (
                        <Badge color="orange.5" c="black" size="xs">
                          PoC
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Pagination
            total={Math.max(1, Math.ceil(found.data.total / PAGE))}
            value={page}
            onChange={(p) => navigate({ search: (s) => ({ ...s, page: p === 1 ? undefined : p }) })}
          />
        </>
      )}
    </Stack>
  );
}
