// Settings: team members and roles (Admins and the Owner change them), invites with a one-time link, the
// caller's own account: API key (prefix; rotation shows the new key once) and password; template
// signatures (the Owner lets unsigned code/javascript templates run); workspaces; the team's audit log.
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Modal,
  PasswordInput,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { when } from '../components/Severity';
import { ErrorState, LoadingState, errorMessage } from '../components/States';
import { Workspaces } from '../components/Workspaces';
import { TemplateSignatures } from '../components/TemplateSignatures';
import { AuditLog } from '../components/AuditLog';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

const ROLES = ['ADMIN', 'MEMBER', 'VIEWER', 'GUEST'];

// What each role may do, in words; mirrors src/platform/auth/permissions.ts (the server decides).
const ROLE_INFO: Record<string, string> = {
  OWNER: 'Everything, including deleting the team; there is one Owner.',
  ADMIN: 'Runs scans, manages members, integrations, assets, templates and settings.',
  MEMBER: 'Sees scans, results, assets and templates; changes nothing.',
  VIEWER: 'Read-only, like a Member.',
  GUEST: 'Read-only, like a Member.',
};

export default function Settings() {
  usePageTitle('Settings');
  const me = useMe();
  const qc = useQueryClient();
  const members = useQuery({ queryKey: ['members'], queryFn: () => ok(api.GET('/v1/user/team/member')) });
  const key = useQuery({ queryKey: ['apikey'], queryFn: () => ok(api.GET('/v1/user/apikey')) });
  const [inviteEmail, setInviteEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<string>('MEMBER');
  const [inviteLink, setInviteLink] = useState<string>();
  const [inviteAccount, setInviteAccount] = useState<string>();
  const [newKey, setNewKey] = useState<string>();
  const [password, setPassword] = useState('');
  const [current, setCurrent] = useState('');

  const invite = useMutation({
    mutationFn: () => ok(api.POST('/v1/user/team/member', { body: { email: inviteEmail, role: inviteRole } })),
    onSuccess: async (out) => {
      setInviteLink(`${window.location.origin}/invite#${out.invite_token}`);
      setInviteAccount(out.account);
      setInviteEmail('');
      await qc.invalidateQueries({ queryKey: ['members'] });
    },
  });
  const changeRole = useMutation({
    mutationFn: (v: { email: string; role: string }) => ok(api.PATCH('/v1/user/team/member', { body: v })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['members'] }),
  });
  const remove = useMutation({
    mutationFn: (email: string) => ok(api.DELETE('/v1/user/team/member', { body: { email } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['members'] }),
  });
  const rotate = useMutation({
    mutationFn: () => ok(api.POST('/v1/user/apikey/rotate')),
    onSuccess: async (out) => {
      setNewKey(out.api_key);
      await qc.invalidateQueries({ queryKey: ['apikey'] });
    },
  });
  const setPw = useMutation({
    mutationFn: () => ok(api.PUT('/v1/user/password', { body: { password, current_password: current || undefined } })),
    onSuccess: () => {
      setPassword('');
      setCurrent('');
    },
  });

  return (
    <Stack maw={960}>
      <Title order={2}>Settings</Title>
      <Card withBorder>
        <Title order={4} mb="sm">
          Team members
        </Title>
        {members.isPending ? (
          <LoadingState />
        ) : members.error ? (
          <ErrorState error={members.error} />
        ) : (
          <Table data-testid="members-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Last sign-in</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.members.map((m) => (
                <Table.Tr key={m.email}>
                  <Table.Td>{m.email}</Table.Td>
                  <Table.Td>
                    {me.canManage && m.role !== 'OWNER' && m.email !== me.email ? (
                      <Select
                        size="xs"
                        w={120}
                        data={ROLES}
                        value={m.role}
                        aria-label={`role of ${m.email}`}
                        onChange={(role) => role && changeRole.mutate({ email: m.email, role })}
                      />
                    ) : (
                      <Badge variant="light">{m.role}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{m.status}</Table.Td>
                  <Table.Td>
                    <Text size="xs">{when(m.last_sign_in)}</Text>
                  </Table.Td>
                  <Table.Td>
                    {me.canManage && m.role !== 'OWNER' && m.email !== me.email && (
                      <Button size="xs" color="red" variant="subtle" onClick={() => remove.mutate(m.email)}>
                        Remove
                      </Button>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {!members.isPending && !members.error && (
          <Stack gap={2} mt="sm" data-testid="role-descriptions">
            {Object.entries(ROLE_INFO).map(([role, info]) => (
              <Text size="xs" c="dimmed" key={role}>
                <b>{role}</b>: {info}
              </Text>
            ))}
          </Stack>
        )}
        {(changeRole.error || remove.error) && (
          <Alert color="red" mt="sm">
            {errorMessage(changeRole.error ?? remove.error)}
          </Alert>
        )}
        {me.canManage && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              setInviteLink(undefined);
              invite.mutate();
            }}
          >
            <Group mt="md" align="flex-end" data-testid="invite-form">
              <TextInput
                label="Invite by email"
                type="email"
                required
                value={inviteEmail}
                onChange={(e) => setInviteEmail(e.currentTarget.value)}
                w={280}
                name="invite-email"
              />
              <Select
                label="Role"
                data={ROLES}
                value={inviteRole}
                onChange={(v) => setInviteRole(v ?? 'MEMBER')}
                w={140}
              />
              <Text size="xs" c="dimmed" maw={260} data-testid="invite-role-info">
                {ROLE_INFO[inviteRole]}
              </Text>
              <Button type="submit" loading={invite.isPending}>
                Invite
              </Button>
            </Group>
          </form>
        )}
        {invite.error && (
          <Alert color="red" mt="sm">
            {errorMessage(invite.error)}
          </Alert>
        )}
        {inviteLink && (
          <Alert color="green" mt="sm" title="Invite created: hand over this one-time link (valid 7 days)">
            <Group>
              <Code data-testid="invite-link">{inviteLink}</Code>
              <CopyButton value={inviteLink}>
                {({ copied, copy }) => (
                  <Button size="xs" onClick={copy}>
                    {copied ? 'Copied' : 'Copy'}
                  </Button>
                )}
              </CopyButton>
            </Group>
            <Text size="xs" mt="xs">
              {inviteAccount === 'existing'
                ? 'They already have an account: on the link they sign in as it and accept.'
                : 'On the link they set their password and get their API key.'}
            </Text>
          </Alert>
        )}
      </Card>
      <Card withBorder>
        <Title order={4} mb="sm">
          Your account
        </Title>
        <Text size="sm">
          {me.email} · {me.role}
        </Text>
        <Group mt="sm">
          <Text size="sm">
            API key:{' '}
            {key.isPending ? (
              '…'
            ) : key.data?.has_key ? (
              <Code data-testid="key-prefix">{key.data.key_prefix}</Code>
            ) : (
              'none'
            )}
          </Text>
          {key.data?.created_at && (
            <Text size="xs" c="dimmed">
              created {when(key.data.created_at)}
            </Text>
          )}
          <Button
            size="xs"
            variant="light"
            onClick={() => rotate.mutate()}
            loading={rotate.isPending}
            data-testid="rotate-key"
          >
            Rotate key
          </Button>
        </Group>
        {rotate.error && (
          <Alert color="red" mt="sm">
            {errorMessage(rotate.error)}
          </Alert>
        )}
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setPw.mutate();
          }}
        >
          <Group mt="md" align="flex-end">
            <PasswordInput
              label="Current password"
              value={current}
              onChange={(e) => setCurrent(e.currentTarget.value)}
              w={220}
              autoComplete="current-password"
            />
            <PasswordInput
              label="New password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              w={220}
              required
              autoComplete="new-password"
            />
            <Button type="submit" variant="light" loading={setPw.isPending}>
              Set password
            </Button>
          </Group>
        </form>
        {setPw.error && (
          <Alert color="red" mt="sm">
            {errorMessage(setPw.error)}
          </Alert>
        )}
        {setPw.isSuccess && (
          <Alert color="green" mt="sm">
            Password set; your other sessions have ended.
          </Alert>
        )}
      </Card>
      <TemplateSignatures />
      <Workspaces />
      <AuditLog />
      <Modal opened={!!newKey} onClose={() => setNewKey(undefined)} title="Your new API key" size="lg">
        <Stack>
          <Text size="sm">Shown only now. The previous key no longer works.</Text>
          <Code block data-testid="new-key">
            {newKey}
          </Code>
          <CopyButton value={newKey ?? ''}>
            {({ copied, copy }) => <Button onClick={copy}>{copied ? 'Copied' : 'Copy'}</Button>}
          </CopyButton>
        </Stack>
      </Modal>
    </Stack>
  );
}
