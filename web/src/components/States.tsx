// Loading, empty and error states shared by every page.
import { Alert, Center, Loader, Stack, Text } from '@mantine/core';
import { ApiFailure } from '../api/client';

export function LoadingState({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl">
      <Stack align="center" gap="xs">
        <Loader size="sm" />
        <Text size="sm" c="dimmed">
          {label}…
        </Text>
      </Stack>
    </Center>
  );
}

export function EmptyState({ children }: { children: React.ReactNode }) {
  return (
    <Center py="xl" data-testid="empty-state">
      <Text c="dimmed">{children}</Text>
    </Center>
  );
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiFailure) return error.body?.message ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** The server's message with the field it names (`param` of the error body), e.g. "... (start_time)". */
export function fieldError(error: unknown): string {
  const msg = errorMessage(error);
  const param = error instanceof ApiFailure ? error.body?.param : undefined;
  return param && !msg.includes(param) ? `${msg} (${param})` : msg;
}

export function ErrorState({ error, title = 'Something went wrong' }: { error: unknown; title?: string }) {
  const forbidden = error instanceof ApiFailure && error.status === 403;
  return (
    <Alert color={forbidden ? 'orange' : 'red'} title={forbidden ? 'Not allowed' : title} data-testid="error-state">
      {errorMessage(error)}
    </Alert>
  );
}
