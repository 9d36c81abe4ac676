// The sign-in page: email and password, or an API key; then back to the page that asked for it.
import { Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { SignInForm } from '../components/SignInForm';
import { SignedOutFrame } from '../components/SignedOutFrame';
import { usePageTitle } from '../components/usePageTitle';

export function SignIn() {
  const { next } = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const qc = useQueryClient();
  usePageTitle('Sign in');

  const signedIn = async () => {
    await qc.invalidateQueries({ queryKey: ['session'] });
    // Only paths of this console: never a full URL handed in from outside.
    await navigate({ to: next && /^\/(?![/\\])/.test(next) && !next.includes('\\') ? next : '/' });
  };

  return (
    <SignedOutFrame>
      <Stack>
        <Title order={2}>Sign in to Vigil</Title>
        <SignInForm onSignedIn={signedIn} />
        <Text size="xs" c="dimmed">
          Invited? Open the link you were given.
        </Text>
      </Stack>
    </SignedOutFrame>
  );
}
