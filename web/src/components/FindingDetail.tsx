// One finding: what matched, the request and response, the curl command, the template, the CVE record
// (scores, EPSS, KEV, PoCs) and its history across the scan's runs.
import { Badge, Code, Group, Stack, Table, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { AnchorLink } from './Links';
import { api, ApiFailure, ok } from '../api/client';
import type { components, paths } from '../api/schema';
import { day, NOWRAP, SeverityBadge, when } from './Severity';
import { EmptyState, ErrorState, LoadingState } from './States';
import { FindingChangelog, FindingTriage } from './FindingTriage';
import { eventOf } from './ScanResults';

type Finding = paths['/v1/scans/results']['get']['responses'][200]['content']['application/json']['data'][number];
type Vuln = components['schemas']['Vulnerability'];

const text = (v: unknown) => (typeof v === 'string' ? v : v == null ? '' : JSON.stringify(v, null, 2));

export function FindingDetail({ finding }: { finding: Finding }) {
  const ev = eventOf(finding);
  const info = (ev.info ?? {}) as { classification?: { 'cve-id'?: string[] | string } };
  const cveRaw = info.classification?.['cve-id'];
  const cve =
    ([cveRaw].flat().find((c) => typeof c === 'string' && /^CVE-/i.test(c)) as string | undefined) ??
    (/^CVE-\d{4}-\d+$/i.test(finding.template_id) ? finding.template_id : undefined);

  const record = useQuery({
    queryKey: ['vuln', cve],
    enabled: !!cve,
    queryFn: () => ok(api.GET('/v2/vulnerability/{id}', { params: { path: { id: cve! } } })),
  });
  const history = useQuery({
    queryKey: ['history', finding.vuln_hash],
    queryFn: () =>
      ok(
        api.GET('/v1/scans/vulns/history', {
          params: { query: { vuln_hash: [finding.vuln_hash], history_limit: 20 } },
        }),
      ),
  });

  return (
    <Stack data-testid="finding-detail">
      <Group>
        <SeverityBadge severity={finding.severity} />
        <Title order={4}>{finding.template_name || finding.template_id}</Title>
      </Group>
      <Text size="sm">
        Matched at <Code>{finding.matched_at}</Code> on {when(finding.created_at)}
      </Text>
      <FindingTriage finding={finding} />
      {finding.description && <Text size="sm">{finding.description}</Text>}
      <Group gap={4}>
        {finding.tags.map((t) => (
          <Badge key={t} variant="outline" size="xs">
            {t}
          </Badge>
        ))}
      </Group>
      <Tabs defaultValue="request">
        <Tabs.List>
          <Tabs.Tab value="request">Request</Tabs.Tab>
          <Tabs.Tab value="response">Response</Tabs.Tab>
          <Tabs.Tab value="curl">curl</Tabs.Tab>
          <Tabs.Tab value="template">Template</Tabs.Tab>
          <Tabs.Tab value="cve">CVE</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
          <Tabs.Tab value="changelog">Changelog</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="changelog" pt="sm">
          <FindingChangelog vulnId={finding.vuln_id} />
        </Tabs.Panel>
        <Tabs.Panel value="request" pt="sm">
          {ev.request ? (
            <Code block data-testid="finding-request">
              {text(ev.request)}
            </Code>
          ) : (
            <EmptyState>No request was kept</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="response" pt="sm">
          {ev.response ? (
            <Code block data-testid="finding-response" style={{ maxHeight: 400, overflow: 'auto' }}>
              {text(ev.response)}
            </Code>
          ) : (
            <EmptyState>No response was kept</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="curl" pt="sm">
          {ev['curl-command'] ? (
            <Code block>{text(ev['curl-command'])}</Code>
          ) : (
            <EmptyState>No curl command</EmptyState>
          )}
        </Tabs.Panel>
        <Tabs.Panel value="template" pt="sm">
          <Stack gap={4}>
            <Text size="sm">
              Template id: <Code>{finding.template_id}</Code>
            </Text>
            {finding.template_path && (
              <Text size="sm">
                Path: <Code>{finding.template_path}</Code>
              </Text>
            )}
            <AnchorLink
              to="/templates"
              search={{ q: `id:${finding.template_id}`, view: finding.template_path || finding.template_id }}
            >
              Open in the template catalogue
            </AnchorLink>
            {finding.remediation && <Text size="sm">Remediation: {finding.remediation}</Text>}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="cve" pt="sm">
          {!cve ? (
            <EmptyState>This finding names no CVE</EmptyState>
          ) : record.isPending ? (
            <LoadingState />
          ) : record.error ? (
            record.error instanceof ApiFailure && record.error.status === 404 ? (
              <EmptyState>{cve} is not in the vulnerability data</EmptyState>
            ) : (
              <ErrorState error={record.error} />
            )
          ) : (
            <VulnRecord v={record.data.data} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="sm">
          {history.isPending ? (
            <LoadingState />
          ) : history.error ? (
            <ErrorState error={history.error} />
          ) : (
            <Table data-testid="finding-history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>Matched</Table.Th>
                  <Table.Th>Target</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(history.data[finding.vuln_hash]?.history ?? []).map((h, i) => (
                  <Table.Tr key={i}>
                    <Table.Td>{when(h.timestamp)}</Table.Td>
                    <Table.Td>{h.matched ? 'yes' : 'no'}</Table.Td>
                    <Table.Td>{h.target}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

export function VulnRecord({ v }: { v: Vuln }) {
  return (
    <Stack gap="xs" data-testid="vuln-record">
      <Group>
        <Title order={4} style={NOWRAP}>
          {v.cve_id}
        </Title>
        <SeverityBadge severity={v.severity} />
        {v.is_kev && <Badge color="red">Known exploited (KEV)</Badge>}
        {v.is_poc && (
          <Badge color="orange.5" c="black">
            PoC
          </Badge>
        )}
        {v.is_template && <Badge color="teal.9">Template</Badge>}
      </Group>
      {v.name && <Text fw={600}>{v.name}</Text>}
      {v.description && <Text size="sm">{v.description}</Text>}
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>CVSS</Table.Td>
            <Table.Td>
              {v.cvss_score ?? '—'} {v.cvss_metrics && <Code>{v.cvss_metrics}</Code>}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>EPSS</Table.Td>
            <Table.Td>
              {v.epss_score ?? '—'}
              {v.epss_percentile != null && ` (percentile ${v.epss_percentile})`}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Vendor / product</Table.Td>
            <Table.Td>{[v.vendor, v.product].filter(Boolean).join(' / ') || '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>CWE</Table.Td>
            <Table.Td>{(v.cwe ?? []).join(', ') || '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Published</Table.Td>
            <Table.Td>{day(v.cve_created_at)}</Table.Td>
          </Table.Tr>
          {v.kev?.map((k, i) => (
            <Table.Tr key={i}>
              <Table.Td>KEV ({k.source})</Table.Td>
              <Table.Td>
                added {day(k.added_date)}
                {k.known_ransomware_campaign_use ? ', used by ransomware' : ''}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {!!v.pocs?.length && (
        <Stack gap={2}>
          <Text fw={600} size="sm">
            Proofs of concept ({v.poc_count ?? v.pocs.length})
          </Text>
          {v.pocs.slice(0, 10).map((p, i) => (
            <Text key={i} size="xs">
              {p.source}: {p.url}
            </Text>
          ))}
        </Stack>
      )}
      {v.remediation && <Text size="sm">Remediation: {v.remediation}</Text>}
    </Stack>
  );
}
