// Sign in with email and password, or with an API key. Credentials go in the request body only.
import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, Tabs, TextInput, Title, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { api, ok, setCsrfToken } from '../api/client';
import { errorMessage } from '../components/States';

export function SignIn() {
  const { next } = useSearch({ from: '/sign-in' });
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [apiKey, setApiKey] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (body: { email?: string; password?: string; api_key?: string }) => {
    setBusy(true);
    setError(undefined);
    try {
      const out = await ok(api.POST('/v1/auth/sign-in', { body }));
      setCsrfToken(out.csrf_token);
      await qc.invalidateQueries({ queryKey: ['session'] });
      // Only paths of this console: never a full URL handed in from outside.
      await navigate({ to: next && /^\/(?![/\\])/.test(next) && !next.includes('\\') ? next : '/' });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" bg="gray.0">
      <Paper withBorder shadow="sm" p="xl" w={400}>
        <Stack>
          <Title order={2}>Sign in to Vigil</Title>
          {error && <Alert color="red" data-testid="sign-in-error">{error}</Alert>}
          <Tabs defaultValue="password">
            <Tabs.List>
              <Tabs.Tab value="password">Email and password</Tabs.Tab>
              <Tabs.Tab value="key">API key</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="password" pt="md">
              <form onSubmit={(e) => { e.preventDefault(); void submit({ email, password }); }}>
                <Stack>
                  <TextInput label="Email" name="email" type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
                  <PasswordInput label="Password" name="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                  <Button type="submit" loading={busy}>Sign in</Button>
                </Stack>
              </form>
            </Tabs.Panel>
            <Tabs.Panel value="key" pt="md">
              <form onSubmit={(e) => { e.preventDefault(); void submit({ api_key: apiKey }); }}>
                <Stack>
                  <PasswordInput label="API key" name="api_key" autoComplete="off" required value={apiKey} onChange={(e) => setApiKey(e.currentTarget.value)} />
                  <Button type="submit" loading={busy}>Sign in with key</Button>
                </Stack>
              </form>
            </Tabs.Panel>
          </Tabs>
          <Text size="xs" c="dimmed">Invited? Open the link you were given to set your password.</Text>
        </Stack>
      </Paper>
    </Center>
  );
}
