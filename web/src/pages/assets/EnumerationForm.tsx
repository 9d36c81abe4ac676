// An enumeration's settings as a form: roots, discovery steps, ports, exclusions and the discovery settings
// the API takes. Used to create one (POST) and to change one (PATCH, from its Settings tab). The server
// checks everything; its 400 is shown as it is, and at the field it names.
import {
  Alert,
  Button,
  Checkbox,
  Fieldset,
  Group,
  MultiSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { ApiFailure } from '../../api/client';
import type { paths } from '../../api/schema';
import { errorMessage } from '../../components/States';
import { useTeamConfigs } from '../../components/TeamConfigs';
import { lines, STEPS, type Enumeration } from './common';

export type EnumerationBody = NonNullable<
  paths['/v1/asset/enumerate']['post']['requestBody']
>['content']['application/json'];
type ConfigBody = NonNullable<EnumerationBody['enumeration_config']>;

interface Props {
  /** The enumeration being changed; none for a new one. */
  initial?: Enumeration;
  submitLabel: string;
  submitTestId: string;
  onSubmit(body: EnumerationBody): Promise<void>;
  onCancel?: () => void;
}

/** The config keys this form edits; any other stored key (ports, provider_config shown as ****) goes back as it came. */
const FORM_KEYS = [
  'follow-redirect',
  'resolvers',
  'wordlist',
  'concurrency',
  'rate_limit',
  'timeout',
  'technology_templates',
];
/** Keys the enumeration record shows inside its config that the request takes elsewhere (or not at all). */
const NOT_CONFIG = ['subfinder_config_ids', 'cloudlist_config_ids', 'cloudlist_provider_name'];

export function EnumerationForm({ initial, submitLabel, submitTestId, onSubmit, onCancel }: Props) {
  const c = (initial?.enumeration_config ?? {}) as ConfigBody & Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : '');
  const [name, setName] = useState(initial?.name ?? '');
  const [roots, setRoots] = useState(initial?.root_domains.join('\n') ?? '');
  const [steps, setSteps] = useState<string[]>(initial?.steps ?? ['dns_resolve', 'port_scan', 'http_probe']);
  const [ports, setPorts] = useState(initial?.enumeration_ports ?? '');
  const [exclusions, setExclusions] = useState(initial?.exclusions.join('\n') ?? '');
  const [resolvers, setResolvers] = useState((c.resolvers ?? []).join('\n'));
  const [wordlist, setWordlist] = useState((c.wordlist ?? []).join('\n'));
  const [concurrency, setConcurrency] = useState<number | string>(num(c.concurrency));
  const [rateLimit, setRateLimit] = useState<number | string>(num(c.rate_limit));
  const [timeout, setTimeoutS] = useState<number | string>(num(c.timeout));
  const [followRedirects, setFollowRedirects] = useState(c['follow-redirect'] ?? true);
  const [fingerprint, setFingerprint] = useState(
    !(Array.isArray(c.technology_templates) && c.technology_templates.length === 0),
  );
  const [autoScan, setAutoScan] = useState(initial?.automatic_vuln_scans ?? false);
  const [cloudIds, setCloudIds] = useState<string[]>(initial?.cloudlist_config_ids ?? []);
  const [subfinderIds, setSubfinderIds] = useState<string[]>(
    (c as { subfinder_config_ids?: string[] }).subfinder_config_ids ?? [],
  );
  // The team's cloud accounts and passive-source keys: named configs of those types (names only).
  const configs = useTeamConfigs();
  const ofType = (type: string) =>
    (configs.data ?? [])
      .filter((x) => x.config_type === type)
      .map((x) => ({ value: x.id, label: `${x.name}${x.provider_name ? ` (${x.provider_name})` : ''}` }));
  const [error, setError] = useState<{ message: string; param?: string }>();
  const [busy, setBusy] = useState(false);
  const editing = !!initial;

  const submit = async () => {
    // The server reads an empty list as "unchanged" (an edit) or "the default steps" (a new one): refused
    // here so that unticking every step never silently keeps other steps.
    if (steps.length === 0) {
      setError({ message: 'Pick at least one discovery step', param: 'steps' });
      return;
    }
    setBusy(true);
    setError(undefined);
    const n = (v: number | string) => (typeof v === 'number' ? v : undefined);
    // Stored keys the form does not show are sent back unchanged (an edit never drops them).
    const kept = Object.fromEntries(
      Object.entries(c).filter(([k]) => !FORM_KEYS.includes(k) && !NOT_CONFIG.includes(k)),
    );
    const customTemplates = c.technology_templates?.length ? c.technology_templates : undefined;
    try {
      await onSubmit({
        // A new one may leave the name to the server (its roots); a changed one sends what is typed.
        name: editing ? name.trim() : name.trim() || undefined,
        root_domains: lines(roots),
        steps,
        enumeration_ports: editing ? ports.trim() : ports.trim() || undefined,
        exclusions: lines(exclusions),
        automatic_vuln_scans: editing ? autoScan : autoScan || undefined,
        // An edit sends the lists as they are ([] removes them); a new one leaves empty lists out.
        cloudlist_config_ids: editing || cloudIds.length ? cloudIds : undefined,
        subfinder_config_ids: editing || subfinderIds.length ? subfinderIds : undefined,
        enumeration_config: {
          ...kept,
          'follow-redirect': followRedirects,
          resolvers: resolvers.trim() ? lines(resolvers) : undefined,
          wordlist: wordlist.trim() ? lines(wordlist) : undefined,
          concurrency: n(concurrency),
          rate_limit: n(rateLimit),
          timeout: n(timeout),
          technology_templates: fingerprint ? customTemplates : [],
        },
      });
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiFailure ? err.body?.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  // The field the server named gets the message too.
  const fieldError = (...params: string[]) =>
    error?.param &&
    params.some((p) => error.param === p || error.param!.startsWith(p + '[') || error.param!.startsWith(p + '.'))
      ? error.message
      : undefined;

  return (
    <Stack maw={900}>
      {error && (
        <Alert color="red" data-testid="enumeration-error">
          {error.message}
          {error.param ? ` (${error.param})` : ''}
        </Alert>
      )}
      <TextInput
        label="Name"
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        placeholder="defaults to the roots"
        error={fieldError('name')}
        name="enumeration-name"
      />
      <Textarea
        label="Roots (one per line: domains, IP addresses, CIDR ranges up to /16)"
        autosize
        minRows={3}
        required={cloudIds.length === 0}
        description={
          cloudIds.length ? 'optional with cloud accounts: their hosts and addresses are the roots' : undefined
        }
        value={roots}
        onChange={(e) => setRoots(e.currentTarget.value)}
        error={fieldError('root_domains')}
        name="roots"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <MultiSelect
          label="Cloud accounts (cloudlist configs)"
          placeholder={ofType('cloudlist').length ? 'none' : 'no cloudlist configs'}
          searchable
          clearable
          data={ofType('cloudlist')}
          value={cloudIds}
          onChange={setCloudIds}
          error={fieldError('cloudlist_config_ids')}
          data-testid="cloud-accounts"
        />
        <MultiSelect
          label="Passive source keys (subfinder configs)"
          placeholder={ofType('subfinder').length ? 'none' : 'no subfinder configs'}
          searchable
          clearable
          data={ofType('subfinder')}
          value={subfinderIds}
          onChange={setSubfinderIds}
          error={fieldError('subfinder_config_ids')}
        />
      </SimpleGrid>
      <Checkbox.Group
        label="Discovery steps"
        value={steps}
        error={fieldError('steps')}
        data-testid="steps"
        onChange={(v) => {
          setSteps(v);
          if (error?.param === 'steps') setError(undefined);
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
          {STEPS.map((s) => (
            <Checkbox key={s.value} value={s.value} label={`${s.value}: ${s.label}`} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <TextInput
        label="Ports"
        description='e.g. "80,443,8000-8100", "top-100" (the default) or "full"'
        value={ports}
        name="ports"
        onChange={(e) => setPorts(e.currentTarget.value)}
        error={fieldError('enumeration_ports', 'enumeration_config.ports')}
      />
      <Textarea
        label="Exclusions (one per line: names, *.wildcards, prefix-*, addresses, ranges; a leading + allows only matches)"
        autosize
        minRows={2}
        value={exclusions}
        onChange={(e) => setExclusions(e.currentTarget.value)}
        error={fieldError('exclusions', 'exclude_targets')}
      />
      <Fieldset legend="Discovery settings">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea
              label="DNS resolvers (host:port, one per line)"
              description="default: the system resolver"
              autosize
              minRows={2}
              value={resolvers}
              onChange={(e) => setResolvers(e.currentTarget.value)}
              error={fieldError('enumeration_config.resolvers')}
            />
            <Textarea
              label="Wordlist for dns_bruteforce"
              description="default: a short built-in list"
              autosize
              minRows={2}
              maxRows={12}
              value={wordlist}
              onChange={(e) => setWordlist(e.currentTarget.value)}
              error={fieldError('enumeration_config.wordlist')}
            />
          </SimpleGrid>
          <Group grow align="flex-start">
            <NumberInput
              label="Concurrency"
              placeholder="50"
              min={1}
              max={1000}
              value={concurrency}
              onChange={setConcurrency}
              error={fieldError('enumeration_config.concurrency')}
            />
            <NumberInput
              label="Rate limit (per second)"
              placeholder="no limit"
              min={0}
              value={rateLimit}
              onChange={setRateLimit}
              error={fieldError('enumeration_config.rate_limit')}
            />
            <NumberInput
              label="Timeout (seconds)"
              placeholder="3"
              min={1}
              max={120}
              value={timeout}
              onChange={setTimeoutS}
              error={fieldError('enumeration_config.timeout')}
            />
          </Group>
          <Switch
            label="Follow HTTP redirects"
            checked={followRedirects}
            onChange={(e) => setFollowRedirects(e.currentTarget.checked)}
          />
          <Switch
            label="Fingerprint technologies with templates (tech-detect)"
            checked={fingerprint}
            onChange={(e) => setFingerprint(e.currentTarget.checked)}
          />
          <Switch
            label="Scan new web assets for vulnerabilities after each run"
            checked={autoScan}
            onChange={(e) => setAutoScan(e.currentTarget.checked)}
          />
        </Stack>
      </Fieldset>
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
