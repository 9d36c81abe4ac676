// An address the console does not have: a "Page not found" panel in the signed-in layout (navigation stays),
// or in the sign-in frame without a session. The router shows it for every unknown path (router.tsx).
import { useContext } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { ButtonLink } from '../components/Links';
import { AppLayout } from '../components/AppLayout';
import { SignedOutFrame } from '../components/SignedOutFrame';
import { LoadingState } from '../components/States';
import { usePageTitle } from '../components/usePageTitle';
import { MeContext, useSessionQuery } from '../session';

function Panel({ signedIn }: { signedIn: boolean }) {
  const { pathname } = useLocation();
  return (
    <Stack gap="sm" data-testid="not-found">
      <Title order={2}>Page not found</Title>
      <Text>
        The console has no page at{' '}
        <Text span ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {pathname}
        </Text>
        .
      </Text>
      <Group>
        <ButtonLink to="/">{signedIn ? 'Go to the overview' : 'Go to the start page'}</ButtonLink>
        {!signedIn && (
          <ButtonLink to="/sign-in" search={{ next: undefined }} variant="default">
            Sign in
          </ButtonLink>
        )}
      </Group>
    </Stack>
  );
}

export function NotFound() {
  const inLayout = useContext(MeContext) !== null;
  const session = useSessionQuery();
  usePageTitle('Page not found');
  if (inLayout)
    return (
      <Paper withBorder p="xl" maw={640}>
        <Panel signedIn />
      </Paper>
    );
  if (session.isPending) return <LoadingState label="Loading the console" />;
  if (session.isSuccess)
    return (
      <AppLayout>
        <Paper withBorder p="xl" maw={640}>
          <Panel signedIn />
        </Paper>
      </AppLayout>
    );
  return (
    <SignedOutFrame width={520}>
      <Panel signedIn={false} />
    </SignedOutFrame>
  );
}
