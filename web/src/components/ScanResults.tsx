// A scan's findings, grouped: one row per template (most severe first), folded when it matched on several
// hosts, opened to show each host with the matcher that fired and the values extractors took. Each host
// links to the finding's own page, which links back to this scan: the user never lands on a list with a
// filter they cannot see. Info findings come after the vulnerabilities, under their own heading.
import { Badge, Button, Code, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Fragment, useState } from 'react';
import { AnchorLink } from './Links';
import { SEVERITIES, SeverityBadge, when } from './Severity';

/** The fields of a result this view reads (GET /v1/scans/results items). */
export interface ResultLike {
  vuln_id: string;
  template_id: string;
  template_name?: string;
  severity: string;
  target: string;
  matched_at: string;
  created_at: string;
  /** The list gives the finding's one event in a list (the hosted platform's VulnerabilityResults). */
  event: Record<string, unknown>[];
}

/** A listed finding's event (its first and only one). */
export const eventOf = (r: { event: Record<string, unknown>[] }): Record<string, unknown> => r.event[0] ?? {};

interface Group_ {
  templateId: string;
  name: string;
  severity: string;
  results: ResultLike[];
}

const rank = (s: string) => {
  const i = (SEVERITIES as readonly string[]).indexOf(s.toLowerCase());
  return i < 0 ? SEVERITIES.length : i;
};

/** Results folded by template, most severe first, then by how many hosts, then by name. */
export function groupResults(results: ResultLike[]): Group_[] {
  const byTemplate = new Map<string, Group_>();
  for (const r of results) {
    let g = byTemplate.get(r.template_id);
    if (!g) {
      g = { templateId: r.template_id, name: r.template_name || r.template_id, severity: r.severity, results: [] };
      byTemplate.set(r.template_id, g);
    }
    g.results.push(r);
  }
  const groups = [...byTemplate.values()];
  for (const g of groups) g.results.sort((a, b) => a.matched_at.localeCompare(b.matched_at));
  return groups.sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) || b.results.length - a.results.length || a.name.localeCompare(b.name),
  );
}

const matcherOf = (r: ResultLike) => {
  const m = eventOf(r)['matcher-name'];
  return typeof m === 'string' ? m : '';
};
const extractedOf = (r: ResultLike): string[] => {
  const x = eventOf(r)['extracted-results'];
  return Array.isArray(x) ? x.map(String) : [];
};

export function ScanResults({ results }: { results: ResultLike[] }) {
  const groups = groupResults(results);
  const vulns = groups.filter((g) => g.severity.toLowerCase() !== 'info');
  const info = groups.filter((g) => g.severity.toLowerCase() === 'info');
  const hosts = new Set(results.map((r) => r.target)).size;
  return (
    <Stack data-testid="scan-results">
      <Text size="sm" c="dimmed" data-testid="scan-results-summary">
        {results.length} finding(s) from {groups.length} template(s) on {hosts} host(s)
      </Text>
      {vulns.length > 0 && <ResultGroups title="Vulnerabilities" groups={vulns} />}
      {info.length > 0 && <ResultGroups title="Information" groups={info} />}
    </Stack>
  );
}

function ResultGroups({ title, groups }: { title: string; groups: Group_[] }) {
  const [open, setOpen] = useState<Set<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((o) => {
      const n = new Set(o);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <Stack gap="xs">
      <Title order={4}>{title}</Title>
      <Table striped data-testid={`results-${title.toLowerCase()}`}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Severity</Table.Th>
            <Table.Th>Template</Table.Th>
            <Table.Th>Hosts</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {groups.map((g) => {
            const single = g.results.length === 1 ? g.results[0] : undefined;
            const shown = single ? [single] : open.has(g.templateId) ? g.results : [];
            return (
              <Fragment key={g.templateId}>
                <Table.Tr data-testid="result-group">
                  <Table.Td>
                    <SeverityBadge severity={g.severity} />
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" fw={500}>
                      {g.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {g.templateId}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" data-testid="result-group-count">
                      {g.results.length}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {!single && (
                      <Button size="xs" variant="subtle" onClick={() => toggle(g.templateId)}>
                        {open.has(g.templateId) ? 'Fold' : `Show ${g.results.length} hosts`}
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
                {shown.map((r) => (
                  <Table.Tr key={r.vuln_id} data-testid="result-row">
                    <Table.Td />
                    <Table.Td colSpan={3}>
                      <Group gap="xs" wrap="wrap">
                        <AnchorLink size="sm" to="/findings/$findingId" params={{ findingId: r.vuln_id }}>
                          {r.matched_at}
                        </AnchorLink>
                        {matcherOf(r) && (
                          <Badge variant="outline" size="sm" data-testid="result-matcher">
                            {matcherOf(r)}
                          </Badge>
                        )}
                        {extractedOf(r).map((v, i) => (
                          <Code key={i} data-testid="result-extracted">
                            {v}
                          </Code>
                        ))}
                        <Text size="xs" c="dimmed">
                          {when(r.created_at)}
                        </Text>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Fragment>
            );
          })}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
