// Create a scan: targets (typed, from inventory assets and asset groups, from an uploaded file), catalogue templates picked from a search, the team's private templates, named
// configurations, a schedule (checked with POST /v1/scans/schedule/check before anything is created, set once the scan exists), and whether it runs
// now or is only stored (to run later with Rescan or its schedule).
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  TagsInput,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ApiFailure, ok } from '../api/client';
import { ButtonLink } from '../components/Links';
import { ConfigPicker, configFields, NO_CONFIGS } from '../components/ConfigPicker';
import { NO_SCHEDULE, ScheduleFields, scheduleBody, scheduleFields } from '../components/ScheduleFields';
import { TemplatePicker } from '../components/TemplatePicker';
import { NO_SOURCES, TargetSources } from '../components/TargetSources';
import { ErrorState, fieldError } from '../components/States';
import { useMe } from '../session';
import { usePageTitle } from '../components/usePageTitle';

export default function NewScan() {
  usePageTitle('New scan');
  const me = useMe();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [targets, setTargets] = useState('');
  const [sources, setSources] = useState(NO_SOURCES);
  const [picked, setPicked] = useState<string[]>([]);
  const [privatePicked, setPrivatePicked] = useState<string[]>([]);
  const [storeOnly, setStoreOnly] = useState(false);
  const [error, setError] = useState<string>();
  const [configs, setConfigs] = useState(NO_CONFIGS);
  const [schedule, setSchedule] = useState(NO_SCHEDULE);
  /** Set once the scan exists but its schedule was refused: then only the schedule is sent again. */
  const [createdId, setCreatedId] = useState<string>();
  const [scheduleError, setScheduleError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // Where it runs: workers (no agent field), one agent, or agents having all the tags.
  const [agentId, setAgentId] = useState<string | null>(null);
  const [agentTags, setAgentTags] = useState<string[]>([]);
  const [agentBehavior, setAgentBehavior] = useState<'distribute' | 'mirror'>('distribute');

  const privates = useQuery({
    queryKey: ['private-templates'],
    queryFn: () => ok(api.GET('/v1/template', { params: { query: { limit: 200 } } })),
  });

  const agents = useQuery({ queryKey: ['agents'], queryFn: () => ok(api.GET('/v1/agents')) });
  const knownTags = [...new Set((agents.data?.agents ?? []).flatMap((a) => a.tags))];

  if (!me.canManage)
    return <ErrorState error={new Error(`role ${me.role} may not create scans`)} title="Not allowed" />;

  const typed = targets
    .split(/\s+/)
    .map((t) => t.trim())
    .filter(Boolean);
  const allTargets = [...new Set([...typed, ...(sources.file?.targets ?? [])])];
  const assetRefs = [...sources.assetIds, ...sources.groupIds];

  const submit = async () => {
    setError(undefined);
    setScheduleError(undefined);
    // Everything is checked before anything is created: a file with bad lines, or no target at all.
    if (!createdId && sources.file?.problems.length) {
      setError(`The targets file has ${sources.file.problems.length} problem(s): ${sources.file.problems[0]}`);
      return;
    }
    if (!createdId && !allTargets.length && !assetRefs.length) {
      setError('Add targets: type them, pick assets or asset groups, or upload a file.');
      return;
    }
    setBusy(true);
    try {
      let id = createdId;
      // A schedule the server would refuse creates nothing: it is checked before the scan exists.
      if (!id && schedule.frequency) {
        try {
          await ok(api.POST('/v1/scans/schedule/check', { body: scheduleFields(schedule) }));
        } catch (err) {
          setError(fieldError(err));
          return;
        }
      }
      if (!id) {
        const out = await ok(
          api.POST('/v1/scans', {
            body: {
              name: name || undefined,
              targets: allTargets.length ? allTargets : undefined,
              ...(assetRefs.length ? { assets: assetRefs } : {}),
              templates: [...picked, ...privatePicked],
              schedule_only: storeOnly || undefined,
              ...configFields(configs),
              ...(agentId ? { agent_id: agentId } : {}),
              ...(agentTags.length ? { agent_tags: agentTags } : {}),
              ...(agentId || agentTags.length ? { agent_behavior: agentBehavior } : {}),
            },
          }),
        );
        id = out.id;
      }
      if (schedule.frequency) {
        try {
          await ok(api.POST('/v1/scans/schedule', { body: scheduleBody(id, schedule) }));
        } catch (err) {
          setCreatedId(id);
          setScheduleError(fieldError(err));
          return;
        }
      }
      await navigate({ to: '/scans/$scanId', params: { scanId: id }, search: { tab: undefined } });
    } catch (err) {
      // A refused target is named by its index: say which one it is.
      const at = /^targets\[(\d+)\]$/.exec(err instanceof ApiFailure ? (err.body?.param ?? '') : '');
      const which = at ? allTargets[Number(at[1])] : undefined;
      setError(fieldError(err) + (which ? ` (the target "${which}")` : ''));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Stack maw={900}>
      <Title order={2}>New scan</Title>
      {error && (
        <Alert color="red" data-testid="scan-error">
          {error}
        </Alert>
      )}
      <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} name="scan-name" />
      <Textarea
        label="Targets (one per line: URLs, hosts, addresses, ranges)"
        autosize
        minRows={3}
        value={targets}
        onChange={(e) => setTargets(e.currentTarget.value)}
        name="targets"
      />
      <TargetSources value={sources} onChange={setSources} />
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Text fw={600}>Templates</Text>
          <TemplatePicker picked={picked} onChange={setPicked} />
          <Text fw={600} mt="sm">
            Private templates
          </Text>
          {privates.data?.results.length ? (
            privates.data.results.map((t) => (
              <Checkbox
                key={t.template_id}
                label={`${t.name} (${t.id})`}
                checked={privatePicked.includes(t.template_id!)}
                onChange={(e) =>
                  setPrivatePicked(
                    e.currentTarget.checked
                      ? [...privatePicked, t.template_id!]
                      : privatePicked.filter((x) => x !== t.template_id),
                  )
                }
              />
            ))
          ) : (
            <Text size="sm" c="dimmed">
              The team has no private templates.
            </Text>
          )}
        </Stack>
      </Paper>
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Text fw={600}>Configurations</Text>
          <ConfigPicker value={configs} onChange={setConfigs} />
        </Stack>
      </Paper>
      <Paper withBorder p="sm" data-testid="scan-agents">
        <Stack gap="xs">
          <Text fw={600}>Where it runs</Text>
          <Text size="sm" c="dimmed">
            On the platform&apos;s workers unless you pick an agent or agent tags (agents run inside other networks).
          </Text>
          <Group align="flex-end">
            <Select
              label="Agent"
              placeholder="any (by tags) or workers"
              clearable
              w={260}
              data={(agents.data?.agents ?? []).map((a) => ({
                value: a.id,
                label: `${a.name}${a.online ? '' : ' (offline)'}`,
              }))}
              value={agentId}
              onChange={setAgentId}
            />
            <TagsInput
              label="Agent tags (agents having all of them)"
              w={300}
              data={knownTags}
              value={agentTags}
              onChange={setAgentTags}
            />
            <SegmentedControl
              value={agentBehavior}
              onChange={(v) => setAgentBehavior(v as 'distribute' | 'mirror')}
              disabled={!agentId && agentTags.length === 0}
              data={[
                { value: 'distribute', label: 'Distribute' },
                { value: 'mirror', label: 'Mirror' },
              ]}
            />
          </Group>
        </Stack>
      </Paper>
      <Paper withBorder p="sm">
        <Stack gap="xs">
          <Text fw={600}>Schedule</Text>
          <ScheduleFields value={schedule} onChange={setSchedule} />
        </Stack>
      </Paper>
      <Checkbox
        label="Only store it (run it later with Rescan or a schedule)"
        checked={storeOnly}
        onChange={(e) => setStoreOnly(e.currentTarget.checked)}
      />
      {createdId && (
        <Alert color="orange" title="The scan was created; its schedule was refused" data-testid="schedule-error">
          <Text size="sm">{scheduleError}</Text>
          <Text size="sm" mt={4}>
            Change the schedule and set it again, or open the scan without one.
          </Text>
        </Alert>
      )}
      <Group>
        <Button onClick={submit} loading={busy} data-testid="create-scan">
          {createdId ? 'Set the schedule' : 'Create scan'}
        </Button>
        {createdId && (
          <ButtonLink variant="default" to="/scans/$scanId" params={{ scanId: createdId }} search={{ tab: undefined }}>
            Open the scan
          </ButtonLink>
        )}
      </Group>
    </Stack>
  );
}
