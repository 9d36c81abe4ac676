// Asset groups (/assets/groups): the team's saved sets of assets that scans can target. A group by filter
// holds what its filters match when a scan uses it; a static group keeps the assets its filters matched when
// it was saved. Admins and the Owner create, edit (the whole group: update_type=replace), delete and scan a
// group (POST /v1/scans with the group's id in `assets`); the others read the list.
import { Badge, Button, Checkbox, Group, Modal, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api, ok } from '../../api/client';
import { TemplatePicker } from '../../components/TemplatePicker';
import { when } from '../../components/Severity';
import { EmptyState, ErrorState, LoadingState, fieldError } from '../../components/States';
import { usePageTitle } from '../../components/usePageTitle';
import { useMe } from '../../session';
import { AssetsTabs, lines } from './common';

type AssetGroup = {
  id: string;
  name: string;
  filters: Record<string, unknown>;
  static: boolean;
  total_assets?: number;
  created_at: string;
};

/** The filter fields the form offers (AssetFilters); lists are typed comma or line separated. */
const FIELDS = [
  { key: 'host', label: 'Host contains' },
  { key: 'labels', label: 'Labels (any of them)' },
  { key: 'technologies', label: 'Technologies' },
  { key: 'domain', label: 'Domains', list: true },
  { key: 'search', label: 'Text' },
] as const;
type FieldKey = (typeof FIELDS)[number]['key'];
type Form = { name: string; static: boolean } & Record<FieldKey, string>;
const EMPTY: Form = { name: '', static: false, host: '', labels: '', technologies: '', domain: '', search: '' };

function toForm(g: AssetGroup): Form {
  const f = g.filters;
  const text = (v: unknown) => (Array.isArray(v) ? v.join(', ') : typeof v === 'string' ? v : '');
  return {
    name: g.name,
    static: g.static,
    host: text(f.host),
    labels: text(f.labels),
    technologies: text(f.technologies),
    domain: text(f.domain),
    search: text(f.search),
  };
}

function filtersOf(form: Form): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of FIELDS) {
    const v = form[f.key].trim();
    if (!v) continue;
    out[f.key] = 'list' in f ? lines(v) : v;
  }
  return out;
}

/** "host: shop, labels: prod" */
export function filterSummary(filters: Record<string, unknown>): string {
  const parts = Object.entries(filters)
    .filter(([, v]) => v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0))
    .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
  return parts.join('; ') || 'every asset';
}

function GroupForm({ group, onClose }: { group?: AssetGroup; onClose(): void }) {
  const qc = useQueryClient();
  const [form, setForm] = useState<Form>(group ? toForm(group) : EMPTY);
  const save = useMutation({
    mutationFn: async () => {
      const body = { name: form.name, filters: filtersOf(form) as never, static: form.static };
      if (group)
        await ok(
          api.PATCH('/v1/asset/enumerate/group/{group_id}', {
            params: { path: { group_id: group.id }, query: { update_type: 'replace' } },
            body,
          }),
        );
      else await ok(api.POST('/v1/asset/enumerate/group', { body }));
    },
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['asset-groups'] });
      onClose();
    },
  });
  const set = (k: keyof Form, v: string | boolean) => setForm((f) => ({ ...f, [k]: v }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <TextInput label="Name" required value={form.name} onChange={(e) => set('name', e.currentTarget.value)} />
        <Text size="sm" c="dimmed">
          The group holds the team&apos;s assets matching every filter below (none: every asset).
        </Text>
        {FIELDS.map((f) => (
          <TextInput
            key={f.key}
            label={f.label}
            value={form[f.key]}
            onChange={(e) => set(f.key, e.currentTarget.value)}
          />
        ))}
        <Checkbox
          label="Static: keep the assets these filters match now (otherwise the group is what they match when a scan uses it)"
          checked={form.static}
          onChange={(e) => set('static', e.currentTarget.checked)}
        />
        {save.error && (
          <Text c="red" size="sm" data-testid="group-error">
            {fieldError(save.error)}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            {group ? 'Save group' : 'Create group'}
          </Button>
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ScanGroup({ group, onClose }: { group: AssetGroup; onClose(): void }) {
  const navigate = useNavigate();
  const [picked, setPicked] = useState<string[]>([]);
  const start = useMutation({
    mutationFn: () =>
      ok(api.POST('/v1/scans', { body: { name: `Group ${group.name}`, assets: [group.id], templates: picked } })),
    onSuccess: (out) => void navigate({ to: '/scans/$scanId', params: { scanId: out.id }, search: { tab: undefined } }),
  });
  return (
    <Stack>
      <Text size="sm">
        Scans the web assets of <b>{group.name}</b> ({filterSummary(group.filters)}) with the templates picked here.
      </Text>
      <TemplatePicker picked={picked} onChange={setPicked} />
      {start.error && (
        <Text c="red" size="sm" data-testid="group-scan-error">
          {fieldError(start.error)}
        </Text>
      )}
      <Group>
        <Button onClick={() => start.mutate()} loading={start.isPending} disabled={picked.length === 0}>
          Start scan
        </Button>
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
      </Group>
    </Stack>
  );
}

/** Mantine's modal close button is an icon: it needs a name of its own (axe button-name). */
const CLOSE = { 'aria-label': 'Close' };

export default function Groups() {
  usePageTitle('Asset groups');
  const me = useMe();
  const qc = useQueryClient();
  const [editing, setEditing] = useState<AssetGroup | 'new'>();
  const [scanning, setScanning] = useState<AssetGroup>();
  const [deleting, setDeleting] = useState<AssetGroup>();
  const groups = useQuery({
    queryKey: ['asset-groups'],
    queryFn: () => ok(api.GET('/v1/asset/enumerate/group', { params: { query: { limit: 1000 } } })),
  });
  const remove = useMutation({
    mutationFn: (id: string) =>
      ok(api.DELETE('/v1/asset/enumerate/group/{group_id}', { params: { path: { group_id: id } } })),
    onSuccess: () => {
      setDeleting(undefined);
      void qc.invalidateQueries({ queryKey: ['asset-groups'] });
    },
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Asset groups</Title>
        {me.canManage && <Button onClick={() => setEditing('new')}>New group</Button>}
      </Group>
      <AssetsTabs />
      {groups.isPending ? (
        <LoadingState />
      ) : groups.error ? (
        <ErrorState error={groups.error} />
      ) : groups.data.data.length === 0 ? (
        <EmptyState>No asset groups yet</EmptyState>
      ) : (
        <Table striped data-testid="groups-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Kind</Table.Th>
              <Table.Th>Filters</Table.Th>
              <Table.Th>Assets</Table.Th>
              <Table.Th>Created</Table.Th>
              {me.canManage && <Table.Th>Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(groups.data.data as AssetGroup[]).map((g) => (
              <Table.Tr key={g.id}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {g.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {g.id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge variant="light" color={g.static ? 'grape' : 'blue'}>
                    {g.static ? 'static' : 'by filter'}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{filterSummary(g.filters)}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{g.static ? (g.total_assets ?? 0) : 'as matched'}</Text>
                </Table.Td>
                <Table.Td>
                  <Text size="xs">{when(g.created_at)}</Text>
                </Table.Td>
                {me.canManage && (
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      <Button size="xs" variant="light" onClick={() => setScanning(g)} aria-label={`Scan ${g.name}`}>
                        Scan
                      </Button>
                      <Button size="xs" variant="default" onClick={() => setEditing(g)} aria-label={`Edit ${g.name}`}>
                        Edit
                      </Button>
                      <Button
                        size="xs"
                        variant="subtle"
                        color="red"
                        onClick={() => setDeleting(g)}
                        aria-label={`Delete ${g.name}`}
                      >
                        Delete
                      </Button>
                    </Group>
                  </Table.Td>
                )}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Modal
        closeButtonProps={CLOSE}
        opened={!!editing}
        onClose={() => setEditing(undefined)}
        title={editing === 'new' ? 'New asset group' : 'Edit asset group'}
        size="lg"
      >
        {editing && <GroupForm group={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />}
      </Modal>
      <Modal
        closeButtonProps={CLOSE}
        opened={!!scanning}
        onClose={() => setScanning(undefined)}
        title="Scan a group"
        size="xl"
      >
        {scanning && <ScanGroup group={scanning} onClose={() => setScanning(undefined)} />}
      </Modal>
      <Modal
        closeButtonProps={CLOSE}
        opened={!!deleting}
        onClose={() => setDeleting(undefined)}
        title="Delete asset group"
      >
        <Stack>
          <Text size="sm">The group “{deleting?.name}” is deleted; its assets stay.</Text>
          {remove.error && <ErrorState error={remove.error} />}
          <Group>
            <Button color="red" loading={remove.isPending} onClick={() => deleting && remove.mutate(deleting.id)}>
              Delete
            </Button>
            <Button variant="default" onClick={() => setDeleting(undefined)}>
              Cancel
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
