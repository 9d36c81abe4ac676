// An asset policy as a form: its conditions (AssetFilters), its action, its scope. Used to create one
// (POST) and to change one (PATCH with update_type=replace: the form holds the whole policy). The server
// checks it; its 400 is shown as it is, and at the field it names.
import {
  Alert,
  Button,
  Fieldset,
  Group,
  MultiSelect,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../../api/client';
import type { paths } from '../../api/schema';
import { errorMessage } from '../../components/States';
import { useTeamConfigs } from '../../components/TeamConfigs';
import { lines, type Policy } from './common';

export type PolicyBody = NonNullable<paths['/v1/asset/policy']['post']['requestBody']>['content']['application/json'];

const TYPES = [
  { value: 'alert', label: 'Alert' },
  { value: 'set_label', label: 'Add labels' },
  { value: 'remove_label', label: 'Remove labels' },
  { value: 'delete', label: 'Delete assets' },
];
/** Text conditions: comma-separated values in the API. */
const TEXT_FIELDS = [
  ['host', 'Host names', 'app.example.com'],
  ['port', 'Ports', '8080,8443'],
  ['status_code', 'Status codes', '503'],
  ['title', 'Title contains', 'index of'],
  ['technologies', 'Technologies', 'nginx'],
  ['ip', 'IP addresses', '10.0.0.5'],
  ['cname', 'CNAME', 'cdn.example.net'],
  ['labels', 'Has labels', 'prod'],
  ['search', 'Search (host, title, server, URL)', ''],
] as const;
const FLAGS = [
  ['is_new', 'New assets'],
  ['is_tech', 'With technologies'],
  ['only_dns', 'DNS names only'],
  ['is_screenshot', 'With a screenshot'],
] as const;

interface Props {
  /** The policy being changed; none for a new one. */
  initial?: Policy;
  submitLabel: string;
  submitTestId: string;
  onSubmit(body: PolicyBody): Promise<void>;
  onCancel?: () => void;
}

const FORM_CONDITIONS: string[] = [...TEXT_FIELDS.map(([k]) => k), ...FLAGS.map(([k]) => k), 'domain'];

export function PolicyForm({ initial, submitLabel, submitTestId, onSubmit, onCancel }: Props) {
  const given = (initial?.policies ?? {}) as Record<string, unknown>;
  const textOf = (v: unknown) => (Array.isArray(v) ? v.join(',') : v === undefined || v === null ? '' : String(v));
  const [name, setName] = useState(initial?.name ?? '');
  const [type, setType] = useState(initial?.policy_type ?? 'alert');
  const [text, setText] = useState<Record<string, string>>(
    Object.fromEntries(TEXT_FIELDS.map(([k]) => [k, textOf(given[k])])),
  );
  const [domains, setDomains] = useState(textOf(given.domain));
  const [flags, setFlags] = useState<Record<string, boolean>>(
    Object.fromEntries(FLAGS.map(([k]) => [k, given[k] === true])),
  );
  const [labels, setLabels] = useState<string[]>(initial?.labels ?? []);
  const [alerting, setAlerting] = useState<string[]>(initial?.alerting_config_ids ?? []);
  const [scope, setScope] = useState<string[]>(initial?.enumeration_ids ?? []);
  const [applyExisting, setApplyExisting] = useState(initial?.apply_to_existing ?? false);
  const [error, setError] = useState<{ message: string; param?: string }>();
  const [busy, setBusy] = useState(false);

  const alertingConfigs = (useTeamConfigs().data ?? []).filter((c) => c.config_type === 'alerting');
  const enumerations = useQuery({
    queryKey: ['enumerations', 'pick'],
    queryFn: () => ok(api.GET('/v1/asset/enumerate', { params: { query: { limit: 1000, sort_asc: 'name' } } })),
  });

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    // Conditions the form does not show (dates, enumeration ids...) go back as they came.
    const policies: Record<string, unknown> = Object.fromEntries(
      Object.entries(given).filter(([k]) => !FORM_CONDITIONS.includes(k)),
    );
    for (const [k, v] of Object.entries(text)) if (v.trim()) policies[k] = v.trim();
    for (const [k, v] of Object.entries(flags)) if (v) policies[k] = true;
    if (domains.trim()) policies.domain = lines(domains);
    try {
      await onSubmit({
        name: name.trim() || undefined,
        policy_type: type,
        policies,
        labels: type === 'set_label' || type === 'remove_label' ? labels : undefined,
        alerting_config_ids: type === 'alert' ? alerting : undefined,
        enumeration_ids: scope.length ? scope : undefined,
        apply_to_existing: applyExisting || undefined,
      });
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiFailure ? err.body?.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (param: string) =>
    error?.param === param || error?.param?.startsWith(param + '[') || error?.param?.startsWith(param + '.')
      ? error.message
      : undefined;

  return (
    <Stack maw={900}>
      {error && (
        <Alert color="red" data-testid="policy-error">
          {error.message}
          {error.param ? ` (${error.param})` : ''}
        </Alert>
      )}
      <TextInput
        label="Name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        name="policy-name"
        error={fieldError('name')}
      />
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Action on matching assets
        </Text>
        <SegmentedControl data={TYPES} value={type} onChange={setType} data-testid="policy-type" />
        {fieldError('policy_type') && (
          <Text size="xs" c="red">
            {fieldError('policy_type')}
          </Text>
        )}
      </Stack>
      {type === 'alert' && (
        <MultiSelect
          label="Alerting configurations"
          placeholder={alertingConfigs.length === 0 ? 'none yet: add one under Settings' : 'pick one or more'}
          description="Only configurations whose events include asset_policy_match can send a policy's alerts."
          data={alertingConfigs.map((c) => {
            const listens = (c.events ?? []).includes('asset_policy_match');
            return {
              value: c.id,
              // A config that does not listen to policy events would never send this policy's alerts.
              disabled: !listens && !alerting.includes(c.id),
              label:
                `${c.name || c.id}${c.provider_name ? ` (${c.provider_name})` : ''}` +
                (listens ? '' : ' (does not receive asset_policy_match)'),
            };
          })}
          value={alerting}
          onChange={setAlerting}
          error={fieldError('alerting_config_ids')}
          searchable
        />
      )}
      {(type === 'set_label' || type === 'remove_label') && (
        <TagsInput
          label="Labels to add or remove (Enter after each)"
          value={labels}
          onChange={setLabels}
          error={fieldError('labels')}
        />
      )}
      <Fieldset legend="Conditions (all must hold)">
        {fieldError('policies') && (
          <Text size="sm" c="red" mb="xs" data-testid="conditions-error">
            {fieldError('policies')}
          </Text>
        )}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {TEXT_FIELDS.map(([k, label, placeholder]) => (
            <TextInput
              key={k}
              label={label}
              placeholder={placeholder}
              value={text[k] ?? ''}
              error={fieldError(`policies.${k}`)}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setText((t) => ({ ...t, [k]: v }));
              }}
            />
          ))}
          <TextInput
            label="Domains (and names under them)"
            placeholder="example.com"
            value={domains}
            onChange={(e) => setDomains(e.currentTarget.value)}
            error={fieldError('policies.domain')}
          />
        </SimpleGrid>
        <Group mt="md">
          {FLAGS.map(([k, label]) => (
            <Switch
              key={k}
              label={label}
              checked={!!flags[k]}
              onChange={(e) => {
                const v = e.currentTarget.checked;
                setFlags((f) => ({ ...f, [k]: v }));
              }}
            />
          ))}
        </Group>
      </Fieldset>
      <MultiSelect
        label="Enumerations (none: every enumeration)"
        data={(enumerations.data?.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
        value={scope}
        onChange={setScope}
        error={fieldError('enumeration_ids')}
        searchable
        clearable
      />
      <Switch
        label="Also apply now to the assets already stored"
        checked={applyExisting}
        onChange={(e) => setApplyExisting(e.currentTarget.checked)}
      />
      <Group>
        <Button onClick={() => void submit()} loading={busy} data-testid={submitTestId}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </Group>
    </Stack>
  );
}
