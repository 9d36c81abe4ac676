// One named configuration: create (configId "new") or change it in the YAML editor, delete it, and for
// alerting and reporting configs see what was sent. Alerting and reporting configs also have a form per
// provider (IntegrationForm, over the same text) and "Send a test" (POST /v1/scans/config/verify: a test
// alert, or a read of the tracker project), with problems shown in words under their fields. The server checks the text against its type; a 400
// names the bad key (config.webhook.url), shown here with the line it is on, and that line is marked in
// the editor as the template editor marks the validator's problems. Read-only configs cannot be
// changed; roles that may not manage configs see the name and type only (the server sends no text).
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { api, ApiFailure, ok } from '../api/client';
import { ConfigDeliveries } from '../components/ConfigDeliveries';
import { IntegrationForm, missingFields, problemAt } from '../components/IntegrationForm';
import { CONFIG_TYPES, lineOfProblem, STARTERS } from '../components/configTypes';
import { AnchorLink } from '../components/Links';
import { when } from '../components/Severity';
import { ErrorState, LoadingState, errorMessage, fieldError } from '../components/States';
import { YamlEditor, type LineProblem } from '../components/YamlEditor';
import { configRoute } from '../router';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

export default function ConfigEditor() {
  const { configId } = configRoute.useParams();
  const search = configRoute.useSearch();
  const isNew = configId === 'new';
  const me = useMe();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const startType = search.type && CONFIG_TYPES.includes(search.type) ? search.type : 'scan';
  const [name, setName] = useState('');
  const [type, setType] = useState(startType);
  const [text, setText] = useState(isNew ? STARTERS[startType]! : '');
  const [global, setGlobal] = useState(false);
  const [readOnly, setReadOnly] = useState(false);
  const [saveError, setSaveError] = useState<string>();
  const [marks, setMarks] = useState<LineProblem[]>([]);
  const [saved, setSaved] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [mode, setMode] = useState<'form' | 'yaml'>('form');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [testing, setTesting] = useState(false);
  const [tested, setTested] = useState<{ ok: boolean; text: string }>();

  const existing = useQuery({
    queryKey: ['config', configId],
    enabled: !isNew,
    retry: false,
    queryFn: () => ok(api.GET('/v1/scans/config/{config_id}', { params: { path: { config_id: configId } } })),
  });
  usePageTitle(isNew ? 'New configuration' : (existing.data?.name ?? 'Configuration'));
  useEffect(() => {
    if (!existing.data) return;
    setName(existing.data.name);
    setType(existing.data.config_type);
    setText(existing.data.config);
    setGlobal(existing.data.global);
  }, [existing.data]);

  if (!isNew && existing.isPending) return <LoadingState label="Loading the configuration" />;
  if (!isNew && existing.error) return <ErrorState error={existing.error} />;
  if (isNew && !me.canManage)
    return <ErrorState error={new Error(`role ${me.role} may not add configurations`)} title="Not allowed" />;
  const c = existing.data;
  const locked = !!c?.read_only;
  const editable = me.canManage && !locked;
  const integration = type === 'alerting' || type === 'reporting';
  const showForm = integration && mode === 'form' && editable;

  /** Required fields left empty, shown at their fields; true when there are none. */
  const complete = () => {
    if (!integration) return true;
    const missing = missingFields(type, text);
    setFieldErrors(missing);
    return Object.keys(missing).length === 0;
  };
  /** A problem the server named a key for: under its field in the form (also kept for the summary). */
  const showProblem = (param: string | undefined, message: string) => {
    const at = integration ? problemAt(param, message) : undefined;
    if (at) setFieldErrors({ [at.path]: at.text });
  };

  const sendTest = async () => {
    setTested(undefined);
    setSaveError(undefined);
    setFieldErrors({});
    if (!complete()) {
      setTested({ ok: false, text: 'Fill in the fields marked above first.' });
      return;
    }
    setTesting(true);
    try {
      const out = await ok(api.POST('/v1/scans/config/verify', { body: { config: text, config_type: type } }));
      setTested({ ok: out.is_verified, text: out.response });
      if (!out.is_verified) showProblem(out.param, out.response);
    } catch (err) {
      setTested({ ok: false, text: fieldError(err) });
    } finally {
      setTesting(false);
    }
  };

  // A new config's starting text follows the type until the user writes their own.
  const pickType = (t: string | null) => {
    if (!t) return;
    if (text === STARTERS[type]) setText(STARTERS[t]!);
    setType(t);
  };

  const save = async () => {
    setSaveError(undefined);
    setMarks([]);
    setSaved(false);
    setTested(undefined);
    setFieldErrors({});
    if (!complete()) {
      setSaveError('Fill in the fields marked above.');
      return;
    }
    setBusy(true);
    try {
      if (isNew) {
        const out = await ok(
          api.POST('/v1/scans/config', {
            body: {
              name,
              config_type: type,
              config: text,
              global: global || undefined,
              read_only: readOnly || undefined,
            },
          }),
        );
        await qc.invalidateQueries({ queryKey: ['configs'] });
        await navigate({
          to: '/settings/configs/$configId',
          params: { configId: out.id },
          search: { type: undefined },
        });
      } else {
        await ok(
          api.PATCH('/v1/scans/config/{config_id}', {
            params: { path: { config_id: configId } },
            body: { name, config: text, global },
          }),
        );
        await Promise.all([
          qc.invalidateQueries({ queryKey: ['configs'] }),
          qc.invalidateQueries({ queryKey: ['config', configId] }),
        ]);
        setSaved(true);
      }
    } catch (err) {
      const line = err instanceof ApiFailure ? lineOfProblem(text, err.body?.param, errorMessage(err)) : undefined;
      setSaveError(fieldError(err) + (line && !/line \d+/.test(errorMessage(err)) ? ` (line ${line})` : ''));
      if (line) setMarks([{ message: fieldError(err), line }]);
      if (err instanceof ApiFailure) showProblem(err.body?.param, errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  const remove = async () => {
    setConfirmDelete(false);
    try {
      await ok(api.DELETE('/v1/scans/config/{config_id}', { params: { path: { config_id: configId } } }));
      qc.removeQueries({ queryKey: ['config', configId] });
      await qc.invalidateQueries({ queryKey: ['configs'] });
      await navigate({ to: '/settings/configs', search: { type: undefined, q: undefined } });
    } catch (err) {
      setSaveError(fieldError(err));
    }
  };

  return (
    <Stack maw={1100}>
      <Group justify="space-between">
        <Group>
          <Title order={2} data-testid="config-title">
            {isNew ? 'New configuration' : c!.name}
          </Title>
          {c && <Badge variant="light">{c.config_type}</Badge>}
          {c?.provider_name && <Badge variant="outline">{c.provider_name}</Badge>}
          {c?.global && (
            <Badge color="grape" variant="outline">
              global
            </Badge>
          )}
          {locked && (
            <Badge color="gray" data-testid="read-only">
              read-only
            </Badge>
          )}
        </Group>
        <AnchorLink to="/settings/configs" search={{ type: undefined, q: undefined }}>
          All configurations
        </AnchorLink>
      </Group>
      {c && (
        <Text size="xs" c="dimmed">
          Created {when(c.created_at)} · changed {when(c.updated_at)} · id {c.id}
        </Text>
      )}

      {!me.canManage ? (
        <Alert color="gray" data-testid="config-hidden">
          Only Admins and the Owner see a configuration's text: it holds tokens, passwords and webhook addresses.
        </Alert>
      ) : (
        <>
          {locked && (
            <Alert color="gray">This configuration was made read-only: it cannot be changed or deleted.</Alert>
          )}
          <Group align="flex-end">
            <TextInput
              label="Name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              w={320}
              disabled={!editable}
              name="config-name"
            />
            <Select
              label="Type"
              data={CONFIG_TYPES}
              value={type}
              onChange={pickType}
              w={180}
              disabled={!isNew}
              allowDeselect={false}
              data-testid="config-type"
            />
            <Checkbox
              label="Global (every scan of the team)"
              checked={global}
              onChange={(e) => setGlobal(e.currentTarget.checked)}
              disabled={!editable}
            />
            {isNew && (
              <Checkbox
                label="Read-only after saving"
                checked={readOnly}
                onChange={(e) => setReadOnly(e.currentTarget.checked)}
              />
            )}
          </Group>
          {integration && editable && (
            <SegmentedControl
              value={mode}
              onChange={(v) => setMode(v as 'form' | 'yaml')}
              data={[
                { value: 'form', label: 'Form' },
                { value: 'yaml', label: 'YAML' },
              ]}
              w={200}
              aria-label="Edit as a form or as YAML"
              data-testid="config-mode"
            />
          )}
          {showForm ? (
            <IntegrationForm
              type={type as 'alerting' | 'reporting'}
              text={text}
              onChange={setText}
              errors={fieldErrors}
              disabled={!editable}
            />
          ) : (
            <YamlEditor value={text} onChange={setText} readOnly={!editable} marks={marks} />
          )}
          {tested && (
            <Alert color={tested.ok ? 'green' : 'red'} data-testid="config-test">
              <Text size="sm">
                <b>{tested.ok ? 'Test sent: ' : 'Test failed: '}</b>
                {tested.text}
              </Text>
            </Alert>
          )}
          {saveError && (
            <Alert color="red" title="Not saved" data-testid="config-error">
              {saveError}
            </Alert>
          )}
          {saved && (
            <Alert color="green" data-testid="config-saved">
              Configuration saved
            </Alert>
          )}
          {editable && (
            <Group>
              <Button onClick={save} loading={busy} data-testid="save-config">
                {isNew ? 'Create configuration' : 'Save'}
              </Button>
              {integration && (
                <Button variant="default" onClick={() => void sendTest()} loading={testing} data-testid="test-config">
                  Send a test
                </Button>
              )}
              {!isNew && (
                <Button variant="light" color="red" onClick={() => setConfirmDelete(true)} data-testid="delete-config">
                  Delete
                </Button>
              )}
            </Group>
          )}
        </>
      )}
      {c && (c.config_type === 'alerting' || c.config_type === 'reporting') && (
        <Card withBorder>
          <ConfigDeliveries configId={c.id} />
        </Card>
      )}
      <Modal opened={confirmDelete} onClose={() => setConfirmDelete(false)} title="Delete this configuration?">
        <Stack>
          <Text size="sm">The configuration is deleted for good.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmDelete(false)}>
              Cancel
            </Button>
            <Button color="red" onClick={() => void remove()}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
