// The line under a paged list: how many there are, and the page picker. Page 1 is left out of the URL
// (undefined), so a list's first page has one address.
import { Group, Pagination, Text } from '@mantine/core';

interface Props {
  total: number;
  /** What is counted, plural: "scans", "assets" ... */
  noun: string;
  pages: number;
  page: number;
  onPage(page: number | undefined): void;
  testId?: string;
}

export function ListFooter({ total, noun, pages, page, onPage, testId }: Props) {
  return (
    <Group justify="space-between">
      <Text size="sm" c="dimmed" data-testid={testId}>
        {total} {noun}
      </Text>
      <Pagination total={Math.max(1, pages)} value={page} onChange={(p) => onPage(p === 1 ? undefined : p)} />
    </Group>
  );
}
