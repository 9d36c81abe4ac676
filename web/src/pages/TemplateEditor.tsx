// A private template in the YAML editor: the validator's problems at their lines while typing, save
// (create or update) and delete for those who may; read-only for the others. Those who may start scans
// run the text being edited against one target (TemplateRun).
import { Alert, Button, Group, List, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { api, ok } from '../api/client';
import { ErrorState, LoadingState, errorMessage } from '../components/States';
import { YamlEditor, type LineProblem } from '../components/YamlEditor';
import { templateEditRoute } from '../router';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';
import { TemplateRun } from '../components/TemplateRun';

const STARTER = `id: my-check
info:
  name: My check
  author: me
  severity: info
http:
  - method: GET
    path:
      - "{{BaseURL}}/"
    matchers:
      - type: status
        status:
          - 200
`;

export default function TemplateEditor() {
  const { templateId } = templateEditRoute.useParams();
  const isNew = templateId === 'new';
  const me = useMe();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [text, setText] = useState(isNew ? STARTER : '');
  const [filename, setFilename] = useState('');
  const [problems, setProblems] = useState<LineProblem[]>([]);
  const [saveError, setSaveError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);

  const existing = useQuery({
    queryKey: ['private-template', templateId],
    enabled: !isNew,
    queryFn: () => ok(api.GET('/v1/template/{template_id}', { params: { path: { template_id: templateId } } })),
  });
  usePageTitle(isNew ? 'New private template' : (existing.data?.template.name ?? 'Private template'));
  useEffect(() => {
    if (existing.data) {
      setText(existing.data.template.raw ?? '');
      setFilename(existing.data.template.filename ?? '');
    }
  }, [existing.data]);

  const check = useCallback(async (t: string): Promise<LineProblem[]> => {
    const out = await ok(api.POST('/v1/template/validate', { body: { template: t } }));
    setProblems(out.errors);
    return out.errors;
  }, []);

  const save = async () => {
    setBusy(true);
    setSaveError(undefined);
    setSaved(undefined);
    try {
      if (isNew) {
        const out = await ok(api.POST('/v1/template', { body: { template: text, filename: filename || undefined } }));
        await qc.invalidateQueries({ queryKey: ['private-templates'] });
        setSaved('Template created');
        await navigate({ to: '/templates/private/$templateId', params: { templateId: out.template_id } });
      } else {
        await ok(
          api.PATCH('/v1/template', {
            body: { template_id: templateId, template: text, filename: filename || undefined },
          }),
        );
        await qc.invalidateQueries({ queryKey: ['private-template', templateId] });
        await qc.invalidateQueries({ queryKey: ['private-templates'] });
        setSaved('Template saved');
      }
    } catch (err) {
      setSaveError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    try {
      await ok(api.DELETE('/v1/template/{template_id}', { params: { path: { template_id: templateId } } }));
      await qc.invalidateQueries({ queryKey: ['private-templates'] });
      await navigate({ to: '/templates', search: { tab: 'private' } as never });
    } catch (err) {
      setSaveError(errorMessage(err));
    }
  };

  if (!isNew && existing.isPending) return <LoadingState label="Loading the template" />;
  if (!isNew && existing.error) return <ErrorState error={existing.error} />;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{isNew ? 'New private template' : existing.data?.template.name}</Title>
        {me.canManage && (
          <Group>
            <Button onClick={save} loading={busy} data-testid="save-template">
              {isNew ? 'Create' : 'Save'}
            </Button>
            {!isNew && (
              <Button color="red" variant="light" onClick={() => setConfirmDelete(true)} data-testid="delete-template">
                Delete
              </Button>
            )}
          </Group>
        )}
      </Group>
      {!me.canManage && <Alert color="gray">Your role ({me.role}) can read templates but not change them.</Alert>}
      {me.canManage && (
        <TextInput
          label="File name"
          value={filename}
          onChange={(e) => setFilename(e.currentTarget.value)}
          w={320}
          placeholder="my-check.yaml"
        />
      )}
      {saveError && (
        <Alert color="red" data-testid="save-error">
          {saveError}
        </Alert>
      )}
      {saved && (
        <Alert color="green" data-testid="saved">
          {saved}
        </Alert>
      )}
      <YamlEditor value={text} onChange={setText} readOnly={!me.canManage} check={me.canManage ? check : undefined} />
      {me.canManage &&
        (problems.length > 0 ? (
          <Alert color="red" title="The validator found problems" data-testid="template-problems">
            <List size="sm">
              {problems.map((p, i) => (
                <List.Item key={i}>
                  {p.line ? `line ${p.line}: ` : ''}
                  {p.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <Text size="sm" c="var(--vigil-ok-text)" data-testid="template-valid">
            No problems found
          </Text>
        ))}
      {me.canManage && (
        <>
          <Title order={3}>Run</Title>
          <TemplateRun text={text} onInvalid={setProblems} />
        </>
      )}
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this template?">
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirmDelete(false)}>
            Cancel
          </Button>
          <Button color="red" onClick={remove}>
            Delete
          </Button>
        </Group>
      </Modal>
    </Stack>
  );
}
