// Create an asset policy: its conditions (AssetFilters), its action, its scope. The server checks it and
// its 400 (naming the field) is shown as it is.
import { Alert, Button, Fieldset, Group, MultiSelect, SegmentedControl, SimpleGrid, Stack, Switch, TagsInput, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../../api/client';
import { ErrorState, errorMessage } from '../../components/States';
import { useMe } from '../../session';
import { lines } from './common';

const TYPES = [
  { value: 'alert', label: 'Alert' }, { value: 'set_label', label: 'Add labels' },
  { value: 'remove_label', label: 'Remove labels' }, { value: 'delete', label: 'Delete assets' },
];
/** Text conditions: comma-separated values in the API. */
const TEXT_FIELDS = [
  ['host', 'Host names', 'app.example.com'], ['port', 'Ports', '8080,8443'], ['status_code', 'Status codes', '503'],
  ['title', 'Title contains', 'index of'], ['technologies', 'Technologies', 'nginx'], ['ip', 'IP addresses', '10.0.0.5'],
  ['cname', 'CNAME', 'cdn.example.net'], ['labels', 'Has labels', 'prod'], ['search', 'Search (host, title, server, URL)', ''],
] as const;
const FLAGS = [['is_new', 'New assets'], ['is_tech', 'With technologies'], ['only_dns', 'DNS names only'], ['is_screenshot', 'With a screenshot']] as const;

export default function NewPolicy() {
  const me = useMe();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [type, setType] = useState('alert');
  const [text, setText] = useState<Record<string, string>>({});
  const [domains, setDomains] = useState('');
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [labels, setLabels] = useState<string[]>([]);
  const [alerting, setAlerting] = useState<string[]>([]);
  const [scope, setScope] = useState<string[]>([]);
  const [applyExisting, setApplyExisting] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string }>();
  const [busy, setBusy] = useState(false);

  const configs = useQuery({
    queryKey: ['configs', 'alerting'], enabled: me.canManage && type === 'alert',
    queryFn: () => ok(api.GET('/v1/scans/config', { params: { query: { type: 'alerting', limit: 200 } } })),
  });
  const enumerations = useQuery({
    queryKey: ['enumerations', 'pick'], enabled: me.canManage,
    queryFn: () => ok(api.GET('/v1/asset/enumerate', { params: { query: { limit: 1000, sort_asc: 'name' } } })),
  });

  if (!me.canManage) return <ErrorState error={new Error(`role ${me.role} may not create asset policies`)} title="Not allowed" />;

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    const policies: Record<string, string | boolean | string[]> = {};
    for (const [k, v] of Object.entries(text)) if (v.trim()) policies[k] = v.trim();
    for (const [k, v] of Object.entries(flags)) if (v) policies[k] = true;
    if (domains.trim()) policies.domain = lines(domains);
    try {
      const out = await ok(api.POST('/v1/asset/policy', {
        body: {
          name: name.trim() || undefined, policy_type: type, policies,
          labels: type === 'set_label' || type === 'remove_label' ? labels : undefined,
          alerting_config_ids: type === 'alert' ? alerting : undefined,
          enumeration_ids: scope.length ? scope : undefined,
          apply_to_existing: applyExisting || undefined,
        },
      }));
      await navigate({ to: '/assets/policies/$policyId', params: { policyId: out.id } });
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiFailure ? err.body?.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  const fieldError = (param: string) => (error?.param === param || error?.param?.startsWith(param + '[') || error?.param?.startsWith(param + '.') ? error.message : undefined);

  return (
    <Stack maw={900}>
      <Title order={2}>New asset policy</Title>
      {error && <Alert color="red" data-testid="policy-error">{error.message}{error.param ? ` (${error.param})` : ''}</Alert>}
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} name="policy-name" />
      <Stack gap={4}>
        <Text size="sm" fw={500}>Action on matching assets</Text>
        <SegmentedControl data={TYPES} value={type} onChange={setType} data-testid="policy-type" />
        {fieldError('policy_type') && <Text size="xs" c="red">{fieldError('policy_type')}</Text>}
      </Stack>
      {type === 'alert' && (
        <MultiSelect
          label="Alerting configurations" placeholder={configs.data?.length === 0 ? 'none yet: add one under Settings' : 'pick one or more'}
          data={(configs.data ?? []).map((c) => ({ value: c.id, label: c.name || c.id }))} value={alerting} onChange={setAlerting}
          error={fieldError('alerting_config_ids')} searchable
        />
      )}
      {(type === 'set_label' || type === 'remove_label') && (
        <TagsInput label="Labels to add or remove (Enter after each)" value={labels} onChange={setLabels} error={fieldError('labels')} />
      )}
      <Fieldset legend="Conditions (all must hold)">
        {fieldError('policies') && <Text size="sm" c="red" mb="xs" data-testid="conditions-error">{fieldError('policies')}</Text>}
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {TEXT_FIELDS.map(([k, label, placeholder]) => (
            <TextInput
              key={k} label={label} placeholder={placeholder} value={text[k] ?? ''} error={fieldError(`policies.${k}`)}
              onChange={(e) => { const v = e.currentTarget.value; setText((t) => ({ ...t, [k]: v })); }}
            />
          ))}
          <TextInput label="Domains (and names under them)" placeholder="example.com" value={domains} onChange={(e) => setDomains(e.currentTarget.value)} />
        </SimpleGrid>
        <Group mt="md">
          {FLAGS.map(([k, label]) => (
            <Switch key={k} label={label} checked={!!flags[k]} onChange={(e) => { const v = e.currentTarget.checked; setFlags((f) => ({ ...f, [k]: v })); }} />
          ))}
        </Group>
      </Fieldset>
      <MultiSelect
        label="Enumerations (none: every enumeration)" data={(enumerations.data?.data ?? []).map((e) => ({ value: e.id, label: e.name }))}
        value={scope} onChange={setScope} error={fieldError('enumeration_ids')} searchable clearable
      />
      <Switch label="Also apply now to the assets already stored" checked={applyExisting} onChange={(e) => setApplyExisting(e.currentTarget.checked)} />
      <Group>
        <Button onClick={() => void submit()} loading={busy} data-testid="create-policy">Create policy</Button>
      </Group>
    </Stack>
  );
}
