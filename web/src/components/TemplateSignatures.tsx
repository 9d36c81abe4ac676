// Settings' card for template signatures: the signers the platform trusts, and whether the team's scans
// run code and javascript templates none of them signed. Everyone reads it; only the Owner changes it.
import { Alert, Badge, Card, Group, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { useMe } from '../session';
import { ErrorState, LoadingState, errorMessage } from './States';

export function TemplateSignatures() {
  const me = useMe();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['team-settings'], queryFn: () => ok(api.GET('/v1/user/team/settings')) });
  const change = useMutation({
    mutationFn: (allow: boolean) =>
      ok(api.PATCH('/v1/user/team/settings', { body: { allow_unsigned_templates: allow } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['team-settings'] }),
  });
  return (
    <Card withBorder data-testid="template-signatures">
      <Title order={4} mb="sm">
        Template signatures
      </Title>
      {settings.isPending ? (
        <LoadingState />
      ) : settings.error ? (
        <ErrorState error={settings.error} />
      ) : (
        <>
          <Text size="sm" mb="xs">
            Code and javascript templates run only when one of these signed them:
          </Text>
          <Group gap={4} mb="sm">
            {settings.data.trusted_signers.map((s) => (
              <Badge key={s} variant="light" color="teal">
                {s}
              </Badge>
            ))}
          </Group>
          <Switch
            checked={settings.data.allow_unsigned_templates}
            disabled={me.role !== 'OWNER' || change.isPending}
            onChange={(e) => change.mutate(e.currentTarget.checked)}
            label="Also run unsigned code and javascript templates in this team's scans"
            description={
              me.role === 'OWNER'
                ? 'They run commands and scripts their author wrote: allow only templates you have read.'
                : "Only the team's Owner changes this."
            }
          />
          {change.error && (
            <Alert color="red" mt="sm">
              {errorMessage(change.error)}
            </Alert>
          )}
        </>
      )}
    </Card>
  );
}
