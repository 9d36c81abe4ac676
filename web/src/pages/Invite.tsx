// The invite link (/invite#<token>): the member sets a password, is signed in, and sees their API key once.
// The token is after `#`, so it never reaches a server log or a Referer header.
import { useState } from 'react';
import { Alert, Button, Center, Code, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { api, ok, setCsrfToken } from '../api/client';
import { errorMessage } from '../components/States';

export default function Invite() {
  const [token] = useState(() => window.location.hash.replace(/^#/, ''));
  const [password, setPassword] = useState('');
  const [again, setAgain] = useState('');
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<{ email: string; apiKey?: string }>();
  const [busy, setBusy] = useState(false);
  const navigate = useNavigate();
  const qc = useQueryClient();

  const submit = async () => {
    if (password !== again) return setError('the two passwords differ');
    setBusy(true);
    setError(undefined);
    try {
      const out = await ok(api.POST('/v1/user/invite/accept', { body: { token, password } }));
      setCsrfToken(out.csrf_token);
      // The token is used up: take it out of the address bar and history.
      window.history.replaceState(null, '', '/invite');
      await qc.invalidateQueries({ queryKey: ['session'] });
      setDone({ email: out.email, apiKey: out.api_key });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={460}>
        {done ? (
          <Stack>
            <Title order={2}>Welcome, {done.email}</Title>
            {done.apiKey && (
              <>
                <Text size="sm">Your API key, shown only now (you can rotate it later in Settings):</Text>
                <Code block data-testid="new-api-key">{done.apiKey}</Code>
              </>
            )}
            <Button onClick={() => navigate({ to: '/' })}>Continue to the console</Button>
          </Stack>
        ) : !token ? (
          <Alert color="red">This page needs the invite link you were given (it ends with #vgi_…).</Alert>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); void submit(); }}>
            <Stack>
              <Title order={2}>Set your password</Title>
              {error && <Alert color="red" data-testid="invite-error">{error}</Alert>}
              <PasswordInput label="New password (at least 10 characters)" name="new-password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
              <PasswordInput label="Repeat it" name="repeat-password" autoComplete="new-password" required value={again} onChange={(e) => setAgain(e.currentTarget.value)} />
              <Button type="submit" loading={busy}>Set password and sign in</Button>
            </Stack>
          </form>
        )}
      </Paper>
    </Center>
  );
}
