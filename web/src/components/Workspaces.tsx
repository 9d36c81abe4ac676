// Settings' workspace cards. Creating a workspace makes the caller its Owner, so the server decides who
// may (VIGIL_TEAM_CREATION; the instance owner's grants): the form shows only for them, and the others
// read why not. The instance owner also manages who may create workspaces.
import { Alert, Badge, Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok, setTeam } from '../api/client';
import { ErrorState, LoadingState, errorMessage } from './States';

export function Workspaces() {
  const qc = useQueryClient();
  const user = useQuery({ queryKey: ['user'], queryFn: () => ok(api.GET('/v1/user')) });
  const [name, setName] = useState('');
  const create = useMutation({
    mutationFn: () => ok(api.POST('/v1/user/team', { body: { name } })),
    onSuccess: async () => {
      setName('');
      await qc.invalidateQueries({ queryKey: ['user'] });
    },
  });
  const open = (id: string) => {
    setTeam(id);
    // A fresh start in the other team: nothing of this team's data stays in memory.
    window.location.assign('/');
  };

  if (user.isPending)
    return (
      <Card withBorder>
        <LoadingState />
      </Card>
    );
  if (user.error)
    return (
      <Card withBorder>
        <ErrorState error={user.error} />
      </Card>
    );
  const me = user.data;
  return (
    <>
      <Card withBorder data-testid="workspaces">
        <Title order={4} mb="sm">
          Workspaces
        </Title>
        <Text size="sm">You are in {me.teams.map((t) => `${t.name} (${t.role})`).join(', ')}.</Text>
        {me.can_create_team ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              create.mutate();
            }}
          >
            <Group mt="md" align="flex-end" data-testid="create-workspace">
              <TextInput
                label="New workspace"
                name="workspace-name"
                required
                maxLength={200}
                value={name}
                onChange={(e) => setName(e.currentTarget.value)}
                w={280}
              />
              <Button type="submit" loading={create.isPending}>
                Create
              </Button>
            </Group>
          </form>
        ) : (
          <Text size="sm" c="dimmed" mt="sm" data-testid="create-workspace-refused">
            Only the instance owner and the users they allow can create workspaces on this server: ask the instance
            owner if you need one.
          </Text>
        )}
        {create.error && (
          <Alert color="red" mt="sm">
            {errorMessage(create.error)}
          </Alert>
        )}
        {create.data && (
          <Alert color="green" mt="sm" title="Workspace created; you are its Owner">
            <Button size="xs" onClick={() => open(create.data.team_id)}>
              Open it
            </Button>
          </Alert>
        )}
      </Card>
      {me.is_instance_owner && <TeamCreators />}
    </>
  );
}

/** The instance owner's list of users who may create workspaces (GET/POST/DELETE /v1/instance/team-creators). */
function TeamCreators() {
  const qc = useQueryClient();
  const creators = useQuery({ queryKey: ['team-creators'], queryFn: () => ok(api.GET('/v1/instance/team-creators')) });
  const [email, setEmail] = useState('');
  const done = () => qc.invalidateQueries({ queryKey: ['team-creators'] });
  const allow = useMutation({
    mutationFn: () => ok(api.POST('/v1/instance/team-creators', { body: { email } })),
    onSuccess: async () => {
      setEmail('');
      await done();
    },
  });
  const withdraw = useMutation({
    mutationFn: (who: string) => ok(api.DELETE('/v1/instance/team-creators', { body: { email: who } })),
    onSettled: done,
  });

  return (
    <Card withBorder data-testid="team-creators">
      <Title order={4} mb="sm">
        Who may create workspaces
      </Title>
      {creators.isPending ? (
        <LoadingState />
      ) : creators.error ? (
        <ErrorState error={creators.error} />
      ) : (
        <Stack gap="xs">
          <Text size="sm">
            {creators.data.mode === 'everyone'
              ? 'Every user may (VIGIL_TEAM_CREATION=everyone).'
              : creators.data.mode === 'owner'
                ? 'Only you (VIGIL_TEAM_CREATION=owner): the users below count only under the default setting, allowed.'
                : 'You, and the users you allow here.'}
          </Text>
          {creators.data.users.length === 0 ? (
            <Text size="sm" c="dimmed">
              Nobody else is allowed.
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {creators.data.users.map((u) => (
                  <Table.Tr key={u.email}>
                    <Table.Td>{u.email}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">may create</Badge>
                    </Table.Td>
                    <Table.Td>
                      <Button size="xs" variant="subtle" color="red" onClick={() => withdraw.mutate(u.email)}>
                        Withdraw
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          allow.mutate();
        }}
      >
        <Group mt="md" align="flex-end">
          <TextInput
            label="Allow a user"
            type="email"
            name="creator-email"
            required
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            w={280}
          />
          <Button type="submit" variant="light" loading={allow.isPending}>
            Allow
          </Button>
        </Group>
      </form>
      {(allow.error || withdraw.error) && (
        <Alert color="red" mt="sm">
          {errorMessage(allow.error ?? withdraw.error)}
        </Alert>
      )}
    </Card>
  );
}
