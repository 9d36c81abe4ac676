// The head of a run's card (a scan, an enumeration): its status, progress in per cent and why it failed.
import { Group, Progress, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function RunProgress({
  badge,
  progress,
  active,
  failure,
  testId,
}: {
  badge: ReactNode;
  progress: number;
  active: boolean;
  failure?: string | null;
  testId: string;
}) {
  return (
    <>
      <Group justify="space-between" mb="xs">
        {badge}
        <Text size="sm" data-testid={testId}>
          {progress}%
        </Text>
      </Group>
      <Progress.Root>
        <Progress.Section value={progress} animated={active} aria-label="Progress" />
      </Progress.Root>
      {failure && (
        <Text c="red" size="sm" mt="xs">
          {failure}
        </Text>
      )}
    </>
  );
}
