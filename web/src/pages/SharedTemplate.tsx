// A template shared by link (/templates/shared#<token>), read-only: the text in the editor that cannot be
// typed into, and for Admins and the Owner a "Copy to my templates" action that saves it as one of the
// team's private templates (then opened in the editor). The link's token stays in the address's fragment,
// so the page request never carries it; the console reads it with GET /v1/template/share/{token}.
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from '@tanstack/react-router';
import { api, ok } from '../api/client';
import { SeverityBadge, when } from '../components/Severity';
import { ErrorState, LoadingState } from '../components/States';
import { YamlEditor } from '../components/YamlEditor';
import { usePageTitle } from '../components/usePageTitle';
import { useMe } from '../session';

export default function SharedTemplate() {
  usePageTitle('Shared template');
  const me = useMe();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const token = useLocation({ select: (l) => l.hash }).replace(/^#/, '');
  const shared = useQuery({
    queryKey: ['shared-template', token],
    enabled: !!token,
    retry: false,
    queryFn: () => ok(api.GET('/v1/template/share/{template_id}', { params: { path: { template_id: token } } })),
  });
  const copy = useMutation({
    mutationFn: () => {
      const t = shared.data!.result;
      return ok(api.POST('/v1/template', { body: { template: t.raw ?? '', filename: t.filename || undefined } }));
    },
    onSuccess: async (out) => {
      await qc.invalidateQueries({ queryKey: ['private-templates'] });
      await navigate({ to: '/templates/private/$templateId', params: { templateId: out.template_id } });
    },
  });

  if (!token) return <ErrorState error={new Error('this link has no token after #')} title="Not a share link" />;
  if (shared.isPending) return <LoadingState label="Loading the shared template" />;
  if (shared.error) return <ErrorState error={shared.error} title="The link does not open a template" />;
  const t = shared.data.result;
  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Group gap="sm">
          <Title order={2}>{t.name || t.id}</Title>
          <SeverityBadge severity={t.severity} />
          <Badge variant="light" color="gray">
            read-only
          </Badge>
        </Group>
        {me.canManage && (
          <Button onClick={() => copy.mutate()} loading={copy.isPending}>
            Copy to my templates
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" data-testid="share-note">
        Shared with you by link{t.expires_at ? `; the link works until ${when(t.expires_at)}` : ''}. Nothing you do here
        changes it{me.canManage ? ': copy it to your templates to edit or run it' : ''}.
      </Text>
      {copy.error && <ErrorState error={copy.error} />}
      {!t.raw ? (
        <Alert color="gray">The share does not include the template&apos;s text.</Alert>
      ) : (
        <YamlEditor value={t.raw} onChange={() => {}} readOnly />
      )}
    </Stack>
  );
}
