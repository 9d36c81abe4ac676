// The invite link (/invite#<token>). The page first says whose invite it is and to which team
// (POST /v1/user/invite/lookup). A new account sets its password here, is signed in, and sees its API key
// once. An account that exists signs in as itself (here, or already) and then accepts: the link never
// sets its password or hands out its key. The token is after `#`, so it never reaches a server log or a
// Referer header.
import { useState } from 'react';
import { Alert, Button, Code, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, ok, setCsrfToken, setTeam } from '../api/client';
import { SignInForm } from '../components/SignInForm';
import { LoadingState, errorMessage } from '../components/States';
import { sessionQuery } from '../session';
import { usePageTitle } from '../components/usePageTitle';
import { SignedOutFrame } from '../components/SignedOutFrame';

interface Done {
  email: string;
  teamName: string;
  apiKey?: string;
}

export default function Invite() {
  usePageTitle('Invitation');
  const [token] = useState(() => window.location.hash.replace(/^#/, ''));
  const [done, setDone] = useState<Done>();
  const lookup = useQuery({
    queryKey: ['invite', token],
    enabled: !!token && !done,
    retry: false,
    staleTime: Infinity,
    queryFn: () => ok(api.POST('/v1/user/invite/lookup', { body: { token } })),
  });

  return (
    <SignedOutFrame width={460}>
      {done ? (
        <Welcome done={done} />
      ) : !token ? (
        <Alert color="red">This page needs the invite link you were given (it ends with #vgi_…).</Alert>
      ) : lookup.isPending ? (
        <LoadingState label="Reading the invite" />
      ) : lookup.error ? (
        <Alert color="red" data-testid="invite-error">
          {errorMessage(lookup.error)}
        </Alert>
      ) : (
        <Stack>
          <Title order={2}>Join {lookup.data.team_name}</Title>
          <Text size="sm" data-testid="invite-for">
            This invite is for <b>{lookup.data.email}</b>.
          </Text>
          {lookup.data.accept_with === 'password' ? (
            <SetPassword token={token} onDone={setDone} teamName={lookup.data.team_name} />
          ) : (
            <SignInAndAccept
              token={token}
              email={lookup.data.email}
              teamName={lookup.data.team_name}
              onDone={setDone}
            />
          )}
        </Stack>
      )}
    </SignedOutFrame>
  );
}

/** The token is used up: take it out of the address bar and history. */
const forgetToken = () => window.history.replaceState(null, '', '/invite');

function Welcome({ done }: { done: Done }) {
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={2}>Welcome, {done.email}</Title>
      <Text size="sm">You are a member of {done.teamName}.</Text>
      {done.apiKey && (
        <>
          <Text size="sm">Your API key, shown only now (you can rotate it later in Settings):</Text>
          <Code block data-testid="new-api-key">
            {done.apiKey}
          </Code>
        </>
      )}
      <Button onClick={() => navigate({ to: '/' })}>Continue to the console</Button>
    </Stack>
  );
}

/** A new account (or the first start's owner): choose the password, which also signs in. */
function SetPassword({ token, teamName, onDone }: { token: string; teamName: string; onDone: (d: Done) => void }) {
  const qc = useQueryClient();
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (password !== again) return setError('the two passwords differ');
    setBusy(true);
    setError(undefined);
    try {
      const out = await ok(api.POST('/v1/user/invite/accept', { body: { token, password } }));
      setCsrfToken(out.csrf_token);
      setTeam(out.team_id);
      forgetToken();
      await qc.invalidateQueries({ queryKey: ['session'] });
      onDone({ email: out.email, teamName, apiKey: out.api_key });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack>
        <Title order={4}>Set your password</Title>
        {error && (
          <Alert color="red" data-testid="invite-error">
            {error}
          </Alert>
        )}
        <PasswordInput
          label="New password (at least 12 characters)"
          name="new-password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
        <Text size="xs" c="dimmed">
          A few unrelated words make a good one; common passwords are refused.
        </Text>
        <PasswordInput
          label="Repeat it"
          name="repeat-password"
          autoComplete="new-password"
          required
          value={again}
          onChange={(e) => setAgain(e.currentTarget.value)}
        />
        <Button type="submit" loading={busy}>
          Set password and sign in
        </Button>
      </Stack>
    </form>
  );
}

/** An account that exists: signed in as it, accept; signed in as someone else, say so; else sign in here. */
function SignInAndAccept({
  token,
  email,
  teamName,
  onDone,
}: {
  token: string;
  email: string;
  teamName: string;
  onDone: (d: Done) => void;
}) {
  const qc = useQueryClient();
  const session = useQuery({ ...sessionQuery, staleTime: 0 });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const accept = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const out = await ok(api.POST('/v1/user/invite/accept', { body: { token } }));
      setTeam(out.team_id);
      forgetToken();
      await qc.invalidateQueries({ queryKey: ['session'] });
      onDone({ email: out.email, teamName });
    } catch (err) {
      setError(errorMessage(err));
      // Signed in just now as another account (its key, say): show who is signed in.
      await qc.invalidateQueries({ queryKey: ['session'] });
    } finally {
      setBusy(false);
    }
  };
  const signOut = async () => {
    await api.POST('/v1/auth/sign-out');
    setCsrfToken(undefined);
    qc.removeQueries({ queryKey: ['session'] });
    await session.refetch();
  };

  if (session.isPending) return <LoadingState label="Checking who is signed in" />;
  const me = session.data?.email;
  return (
    <Stack>
      {error && (
        <Alert color="red" data-testid="invite-error">
          {error}
        </Alert>
      )}
      {me && me.toLowerCase() === email.toLowerCase() ? (
        <>
          <Text size="sm">You are signed in as {me}.</Text>
          <Button onClick={() => void accept()} loading={busy}>
            Accept the invite
          </Button>
        </>
      ) : me ? (
        <>
          <Alert color="yellow" data-testid="invite-other-account">
            You are signed in as {me}. Sign out, then sign in as {email} to accept.
          </Alert>
          <Group>
            <Button variant="light" onClick={() => void signOut()}>
              Sign out
            </Button>
          </Group>
        </>
      ) : (
        <>
          <Text size="sm">{email} already has an account: sign in as it, and the invite is accepted.</Text>
          <SignInForm
            email={email}
            onSignedIn={async () => {
              await accept();
            }}
          />
        </>
      )}
    </Stack>
  );
}
