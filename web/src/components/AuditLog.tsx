// The team's audit log under Settings: every change a person or key made (who, what, when, from where,
// through the API or the console), newest first, with the server's search box (a status code, an email,
// an IP address, a method, or text in the path).
import { Badge, Button, Card, Group, Table, Text, TextInput, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { when } from './Severity';
import { EmptyState, ErrorState, LoadingState } from './States';

const PAGE = 50;

export function AuditLog() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(0);
  const log = useQuery({
    queryKey: ['audit', q, page],
    placeholderData: keepPreviousData,
    queryFn: () =>
      q
        ? ok(api.GET('/v1/team/audit_log/search', { params: { query: { q, limit: PAGE, offset: page * PAGE } } }))
        : ok(api.GET('/v1/team/audit_log', { params: { query: { limit: PAGE, offset: page * PAGE } } })),
  });
  return (
    <Card withBorder>
      <Title order={4} mb="sm">
        Audit log
      </Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setPage(0);
          setQ(text.trim());
        }}
      >
        <Group align="flex-end" mb="sm">
          <TextInput
            label="Search"
            placeholder="email, IP, 403, PATCH, /v1/scans…"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            w={320}
          />
          <Button type="submit" variant="light">
            Search
          </Button>
        </Group>
      </form>
      {log.isPending ? (
        <LoadingState />
      ) : log.error ? (
        <ErrorState error={log.error} />
      ) : log.data.data.length === 0 ? (
        <EmptyState>No entries</EmptyState>
      ) : (
        <>
          <Table data-testid="audit-log" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>What</Table.Th>
                <Table.Th>Answer</Table.Th>
                <Table.Th>From</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.data.data.map((e, i) => (
                <Table.Tr key={`${e.created_at}-${i}`}>
                  <Table.Td>
                    <Text size="xs">{when(e.created_at)}</Text>
                  </Table.Td>
                  <Table.Td>{e.email}</Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {e.method} {e.path}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={e.status < 400 ? 'green' : 'red'} variant="light">
                      {e.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">
                      {e.ip} · {e.source === 'platform' ? 'console' : e.source}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group mt="sm">
            <Button size="xs" variant="default" disabled={page === 0} onClick={() => setPage(page - 1)}>
              Newer
            </Button>
            <Button
              size="xs"
              variant="default"
              disabled={log.data.data.length < PAGE}
              onClick={() => setPage(page + 1)}
            >
              Older
            </Button>
          </Group>
        </>
      )}
    </Card>
  );
}
