// Create an enumeration: roots, discovery steps, ports, exclusions and the discovery settings the API
// takes. The server checks everything; its 400 (naming the field) is shown as it is.
import { Alert, Button, Checkbox, Fieldset, Group, NumberInput, SimpleGrid, Stack, Switch, TextInput, Textarea, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../../api/client';
import { ErrorState, errorMessage } from '../../components/States';
import { useMe } from '../../session';
import { lines, STEPS } from './common';

export default function NewEnumeration() {
  const me = useMe();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [roots, setRoots] = useState('');
  const [steps, setSteps] = useState<string[]>(['dns_resolve', 'port_scan', 'http_probe']);
  const [ports, setPorts] = useState('');
  const [exclusions, setExclusions] = useState('');
  const [resolvers, setResolvers] = useState('');
  const [wordlist, setWordlist] = useState('');
  const [concurrency, setConcurrency] = useState<number | string>('');
  const [rateLimit, setRateLimit] = useState<number | string>('');
  const [timeout, setTimeoutS] = useState<number | string>('');
  const [followRedirects, setFollowRedirects] = useState(true);
  const [fingerprint, setFingerprint] = useState(true);
  const [autoScan, setAutoScan] = useState(false);
  const [error, setError] = useState<{ message: string; param?: string }>();
  const [busy, setBusy] = useState(false);

  if (!me.canManage) return <ErrorState error={new Error(`role ${me.role} may not create enumerations`)} title="Not allowed" />;

  const submit = async () => {
    setBusy(true);
    setError(undefined);
    const n = (v: number | string) => (typeof v === 'number' ? v : undefined);
    try {
      const out = await ok(api.POST('/v1/asset/enumerate', {
        body: {
          name: name.trim() || undefined,
          root_domains: lines(roots),
          steps,
          enumeration_ports: ports.trim() || undefined,
          exclusions: lines(exclusions),
          automatic_vuln_scans: autoScan || undefined,
          enumeration_config: {
            'follow-redirect': followRedirects,
            resolvers: resolvers.trim() ? lines(resolvers) : undefined,
            wordlist: wordlist.trim() ? lines(wordlist) : undefined,
            concurrency: n(concurrency), rate_limit: n(rateLimit), timeout: n(timeout),
            technology_templates: fingerprint ? undefined : [],
          },
        },
      }));
      await navigate({ to: '/assets/$enumerationId', params: { enumerationId: out.id } });
    } catch (err) {
      setError({ message: errorMessage(err), param: err instanceof ApiFailure ? err.body?.param : undefined });
    } finally {
      setBusy(false);
    }
  };
  // The field the server named gets the message too.
  const fieldError = (...params: string[]) => (error?.param && params.some((p) => error.param === p || error.param!.startsWith(p + '[')) ? error.message : undefined);

  return (
    <Stack maw={900}>
      <Title order={2}>New enumeration</Title>
      {error && <Alert color="red" data-testid="enumeration-error">{error.message}{error.param ? ` (${error.param})` : ''}</Alert>}
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} placeholder="defaults to the roots" />
      <Textarea
        label="Roots (one per line: domains, IP addresses, CIDR ranges up to /16)" autosize minRows={3} required
        value={roots} onChange={(e) => setRoots(e.currentTarget.value)} error={fieldError('root_domains')} name="roots"
      />
      <Checkbox.Group label="Discovery steps" value={steps} onChange={setSteps} error={fieldError('steps')}>
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs">
          {STEPS.map((s) => <Checkbox key={s.value} value={s.value} label={`${s.value}: ${s.label}`} />)}
        </SimpleGrid>
      </Checkbox.Group>
      <TextInput
        label="Ports" description='e.g. "80,443,8000-8100", "top-100" (the default) or "full"' value={ports}
        onChange={(e) => setPorts(e.currentTarget.value)} error={fieldError('enumeration_ports', 'enumeration_config.ports')}
      />
      <Textarea
        label="Exclusions (one per line: names, *.wildcards, prefix-*, addresses, ranges; a leading + allows only matches)" autosize minRows={2}
        value={exclusions} onChange={(e) => setExclusions(e.currentTarget.value)} error={fieldError('exclusions')}
      />
      <Fieldset legend="Discovery settings">
        <Stack>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Textarea
              label="DNS resolvers (host:port, one per line)" description="default: the system resolver" autosize minRows={2}
              value={resolvers} onChange={(e) => setResolvers(e.currentTarget.value)} error={fieldError('enumeration_config.resolvers')}
            />
            <Textarea
              label="Wordlist for dns_bruteforce" description="default: a short built-in list" autosize minRows={2}
              value={wordlist} onChange={(e) => setWordlist(e.currentTarget.value)} error={fieldError('enumeration_config.wordlist')}
            />
          </SimpleGrid>
          <Group grow>
            <NumberInput label="Concurrency" placeholder="50" min={1} max={1000} value={concurrency} onChange={setConcurrency} />
            <NumberInput label="Rate limit (per second)" placeholder="no limit" min={0} value={rateLimit} onChange={setRateLimit} />
            <NumberInput label="Timeout (seconds)" placeholder="3" min={1} max={120} value={timeout} onChange={setTimeoutS} />
          </Group>
          <Switch label="Follow HTTP redirects" checked={followRedirects} onChange={(e) => setFollowRedirects(e.currentTarget.checked)} />
          <Switch label="Fingerprint technologies with templates (tech-detect)" checked={fingerprint} onChange={(e) => setFingerprint(e.currentTarget.checked)} />
          <Switch label="Scan new web assets for vulnerabilities after each run" checked={autoScan} onChange={(e) => setAutoScan(e.currentTarget.checked)} />
        </Stack>
      </Fieldset>
      <Group>
        <Button onClick={() => void submit()} loading={busy} data-testid="create-enumeration">Create and run</Button>
      </Group>
    </Stack>
  );
}
