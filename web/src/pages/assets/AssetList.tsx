// A filtered, paginated list of assets (one enumeration's, or the whole inventory) and a drawer with one
// asset's facts, screenshot and history. Filters live in the URL of the page that shows it.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Drawer,
  Group,
  Image,
  Stack,
  Switch,
  Table,
  TagsInput,
  Text,
  TextInput,
  Timeline,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useMe } from '../../session';
import { useUrlSearchText } from '../../components/useUrlSearchText';
import { api, currentTeam, ok } from '../../api/client';
import { AnchorLink } from '../../components/Links';
import { when } from '../../components/Severity';
import { EmptyState, ErrorState, LoadingState, fieldError } from '../../components/States';
import { type Asset, ChangeFields, ChangeKind } from './common';
import type { AssetListSearch } from './routes';
import { ListFooter } from '../../components/ListFooter';

const PAGE = 50;

export function AssetList({
  enumerationId,
  search,
  setSearch,
  refreshKey,
}: {
  enumerationId?: string;
  search: AssetListSearch;
  setSearch: (patch: Partial<AssetListSearch>) => void;
  /** Changes when a run ends, so the list is read again. */
  refreshKey?: unknown;
}) {
  const [q, setQ] = useUrlSearchText(search.q, (text) => setSearch({ q: text, page: undefined }));
  const [tech, setTech] = useUrlSearchText(search.tech, (text) => setSearch({ tech: text, page: undefined }));
  const [labels, setLabels] = useUrlSearchText(search.labels, (text) => setSearch({ labels: text, page: undefined }));
  const page = search.page ?? 1;
  const filters = {
    limit: PAGE,
    offset: (page - 1) * PAGE,
    search: search.q,
    technologies: search.tech,
    labels: search.labels,
    is_new: search.only_new || undefined,
    only_dns: search.only_dns || undefined,
  };
  const list = useQuery({
    queryKey: ['assets', enumerationId ?? 'all', filters, refreshKey],
    queryFn: () =>
      ok(
        enumerationId
          ? api.GET('/v1/asset/enumerate/{enumerate_id}/contents', {
              params: { path: { enumerate_id: enumerationId }, query: filters },
            })
          : api.GET('/v1/asset/enumerate/contents', { params: { query: filters } }),
      ),
    placeholderData: keepPreviousData,
  });
  const open = list.data?.data.find((a) => a.id === search.asset);

  return (
    <Stack>
      <Group>
        <TextInput
          placeholder="Search host, title, server, URL"
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          aria-label="search assets"
          w={260}
        />
        <TextInput
          placeholder="Technology"
          value={tech}
          onChange={(e) => setTech(e.currentTarget.value)}
          aria-label="technology"
          w={160}
        />
        <TextInput
          placeholder="Labels (a,b)"
          value={labels}
          onChange={(e) => setLabels(e.currentTarget.value)}
          aria-label="labels"
          w={160}
        />
        <Switch
          label="New in the latest run"
          checked={!!search.only_new}
          onChange={(e) => setSearch({ only_new: e.currentTarget.checked || undefined, page: undefined })}
        />
        <Switch
          label="DNS names only"
          checked={!!search.only_dns}
          onChange={(e) => setSearch({ only_dns: e.currentTarget.checked || undefined, page: undefined })}
        />
      </Group>
      {list.isPending ? (
        <LoadingState label="Loading assets" />
      ) : list.error ? (
        <ErrorState error={list.error} />
      ) : list.data.data.length === 0 ? (
        <EmptyState>
          {search.q || search.tech || search.labels || search.only_new || search.only_dns
            ? 'No asset matches'
            : 'No assets yet'}
        </EmptyState>
      ) : (
        <>
          <Table striped highlightOnHover data-testid="assets-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Asset</Table.Th>
                <Table.Th>Type</Table.Th>
                <Table.Th>IP</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Title</Table.Th>
                <Table.Th>Web server</Table.Th>
                <Table.Th>Technologies</Table.Th>
                {!enumerationId && <Table.Th>Enumeration</Table.Th>}
                <Table.Th>Last seen</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((a) => (
                <Table.Tr key={a.id} data-asset={a.name}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <Anchor component="button" size="sm" onClick={() => setSearch({ asset: a.id })}>
                        {a.name}
                      </Anchor>
                      {a.is_new && (
                        <Badge size="xs" color="green">
                          new
                        </Badge>
                      )}
                      {a.labels.map((l) => (
                        <Badge key={l} size="xs" variant="outline">
                          {l}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.type}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.ip.join(', ')}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.status_code ?? ''}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" lineClamp={1} maw={220}>
                      {a.title ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{a.webserver ?? ''}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4}>
                      {a.technologies.map((t) => (
                        <Badge key={t} size="xs" variant="light">
                          {t}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                  {!enumerationId && (
                    <Table.Td>
                      <AnchorLink size="sm" to="/assets/$enumerationId" params={{ enumerationId: a.enumeration_id }}>
                        {a.enumeration_name ?? a.enumeration_id}
                      </AnchorLink>
                    </Table.Td>
                  )}
                  <Table.Td>
                    <Text size="xs">{when(a.last_seen_at)}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <ListFooter
            total={list.data.total_results}
            noun="assets"
            testId="assets-total"
            pages={list.data.total_pages}
            page={page}
            onPage={(p) => setSearch({ page: p })}
          />
        </>
      )}
      <Drawer
        opened={!!search.asset}
        onClose={() => setSearch({ asset: undefined })}
        position="right"
        size="xl"
        title={open?.name ?? 'Asset'}
      >
        {search.asset &&
          (open ? (
            <AssetDetail asset={open} />
          ) : list.isPending ? (
            <LoadingState />
          ) : (
            <EmptyState>This asset is not on this page of the list</EmptyState>
          ))}
      </Drawer>
    </Stack>
  );
}

const FACTS: [keyof Asset, string][] = [
  ['type', 'Type'],
  ['host', 'Host'],
  ['port', 'Port'],
  ['ip', 'IP'],
  ['cname', 'CNAME'],
  ['status_code', 'Status'],
  ['title', 'Title'],
  ['webserver', 'Web server'],
  ['content_length', 'Content length'],
  ['technologies', 'Technologies'],
  ['favicon', 'Favicon hash'],
  ['chain_status_codes', 'Redirect chain'],
  ['redirect_location', 'Redirects to'],
  ['labels', 'Labels'],
  ['tls_subject_cn', 'TLS subject CN'],
  ['tls_subject_org', 'TLS subject O'],
  ['tls_subject_an', 'TLS names'],
  ['tls_issuer_org', 'TLS issuer'],
  ['tls_not_after', 'Certificate expires'],
  ['tls_expired', 'Expired'],
  ['tls_self_signed', 'Self-signed'],
  ['tls_mismatched', 'Name mismatch'],
  ['tls_version', 'TLS version'],
  ['tls_versions', 'TLS versions accepted'],
  ['created_at', 'First found'],
  ['last_seen_at', 'Last seen'],
];

function AssetDetail({ asset }: { asset: Asset }) {
  const history = useQuery({
    queryKey: ['asset-changelog', asset.id, asset.updated_at],
    queryFn: () =>
      ok(
        api.GET('/v1/asset/{asset_id}/changelogs', {
          params: { path: { asset_id: String(asset.id) }, query: { limit: 100 } },
        }),
      ),
  });
  return (
    <Stack data-testid="asset-detail">
      <Table withRowBorders={false}>
        <Table.Tbody>
          {FACTS.filter(
            ([k]) =>
              asset[k] !== undefined &&
              asset[k] !== null &&
              !(Array.isArray(asset[k]) && (asset[k] as unknown[]).length === 0),
          ).map(([k, label]) => (
            <Table.Tr key={k}>
              <Table.Td w={180}>
                <Text size="sm" c="dimmed">
                  {label}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {Array.isArray(asset[k])
                    ? (asset[k] as unknown[]).join(', ')
                    : k.endsWith('_at')
                      ? when(String(asset[k]))
                      : String(asset[k])}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <LabelEditor asset={asset} />
      {asset.type === 'http' && <Code>{asset.name}</Code>}
      {asset.is_screenshot && <Screenshot id={asset.id} />}
      <Text fw={600}>History</Text>
      {history.isPending ? (
        <LoadingState />
      ) : history.error ? (
        <ErrorState error={history.error} />
      ) : history.data.data.length === 0 ? (
        <EmptyState>No history</EmptyState>
      ) : (
        <Timeline active={history.data.data.length} bulletSize={14} data-testid="asset-history">
          {history.data.data.map((c) => (
            <Timeline.Item
              key={c.id}
              title={
                <Group gap="xs">
                  <ChangeKind kind={c.event_type} />
                  <Text size="xs" c="dimmed">
                    run {c.run} · {when(c.created_at)}
                  </Text>
                </Group>
              }
            >
              <ChangeFields record={c} />
            </Timeline.Item>
          ))}
        </Timeline>
      )}
    </Stack>
  );
}

/** The PNG comes through fetch (it carries the team header) and is shown as a data: URL (the CSP allows no blob:). */
function Screenshot({ id }: { id: number }) {
  const png = useQuery({
    queryKey: ['asset-screenshot', id],
    queryFn: async () => {
      const team = currentTeam();
      const res = await fetch(`/v1/asset/${id}/screenshot`, {
        credentials: 'same-origin',
        headers: team ? { 'X-Team-Id': team } : {},
      });
      if (!res.ok) throw new Error(`the screenshot answered ${res.status}`);
      const blob = await res.blob();
      return new Promise<string>((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(String(reader.result));
        reader.onerror = () => reject(reader.error);
        reader.readAsDataURL(blob);
      });
    },
    staleTime: Infinity,
  });
  if (png.isPending) return <LoadingState label="Loading the screenshot" />;
  if (png.error) return <ErrorState error={png.error} />;
  return <Image src={png.data} alt="screenshot" radius="sm" />;
}

/** An asset's labels, set by hand (PATCH /v1/asset/{asset_id}/labels?update_type=replace) by those who may. */
function LabelEditor({ asset }: { asset: Asset }) {
  const me = useMe();
  const qc = useQueryClient();
  const [labels, setLabels] = useState<string[]>(asset.labels);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH('/v1/asset/{asset_id}/labels', {
          params: { path: { asset_id: String(asset.id) }, query: { update_type: 'replace' } },
          body: { labels },
        }),
      ),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['assets'] }),
  });
  if (!me.canManage) return null;
  const changed = labels.join('\n') !== asset.labels.join('\n');
  return (
    <Stack gap={4} data-testid="asset-labels">
      <Group align="flex-end">
        <TagsInput label="Labels" value={labels} onChange={setLabels} w={360} data-testid="asset-labels-input" />
        <Button
          size="xs"
          onClick={() => save.mutate()}
          disabled={!changed}
          loading={save.isPending}
          data-testid="save-asset-labels"
        >
          Save labels
        </Button>
      </Group>
      {save.error && (
        <Alert color="red" data-testid="asset-labels-error">
          {fieldError(save.error)}
        </Alert>
      )}
    </Stack>
  );
}
