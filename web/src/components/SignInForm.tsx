// Signing in with email and password, or with an API key (POST /v1/auth/sign-in); credentials go in the
// request body only. Used by the sign-in page and by the invite page (where the email is the invite's).
import { useState } from 'react';
import { Alert, Button, PasswordInput, Stack, Tabs, TextInput } from '@mantine/core';
import { api, ok, setCsrfToken } from '../api/client';
import { errorMessage } from './States';

export interface SignedIn {
  email: string;
}

export function SignInForm({
  email: fixedEmail,
  onSignedIn,
}: {
  email?: string;
  onSignedIn: (out: SignedIn) => Promise<void>;
}) {
  const [email, setEmail] = useState(fixedEmail ?? '');
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
      await onSignedIn({ email: out.email });
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack>
      {error && (
        <Alert color="red" data-testid="sign-in-error">
          {error}
        </Alert>
      )}
      <Tabs defaultValue="password">
        <Tabs.List>
          <Tabs.Tab value="password">Email and password</Tabs.Tab>
          <Tabs.Tab value="key">API key</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="password" pt="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit({ email, password });
            }}
          >
            <Stack>
              <TextInput
                label="Email"
                name="email"
                type="email"
                autoComplete="username"
                required
                value={email}
                readOnly={fixedEmail !== undefined}
                onChange={(e) => setEmail(e.currentTarget.value)}
              />
              <PasswordInput
                label="Password"
                name="password"
                autoComplete="current-password"
                required
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
              />
              <Button type="submit" loading={busy}>
                Sign in
              </Button>
            </Stack>
          </form>
        </Tabs.Panel>
        <Tabs.Panel value="key" pt="md">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit({ api_key: apiKey });
            }}
          >
            <Stack>
              <PasswordInput
                label="API key"
                name="api_key"
                autoComplete="off"
                required
                value={apiKey}
                onChange={(e) => setApiKey(e.currentTarget.value)}
              />
              <Button type="submit" loading={busy}>
                Sign in with key
              </Button>
            </Stack>
          </form>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
