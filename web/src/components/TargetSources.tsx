// Where a new scan's targets come from, besides those typed: assets of the inventory (picked by name from
// a search), asset groups (by name), and an uploaded text or CSV file (csv-parse, loaded only when a file
// is read). A file's lines are checked here before anything is sent: each problem names its line, and the
// scan cannot be created while there is one. Assets and groups go to the API's `assets` field (asset ids
// and grp_ ids; docs/scans.md), file targets join the typed ones in `targets`.
import { Alert, Badge, FileInput, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, ok } from '../api/client';
import { MAX_FILE_BYTES, parseTargetsFile, type FileTargets } from './targetsFile';

export interface TargetSourcesValue {
  assetIds: string[];
  groupIds: string[];
  file?: FileTargets;
}

export const NO_SOURCES: TargetSourcesValue = { assetIds: [], groupIds: [] };

export function TargetSources({
  value,
  onChange,
}: {
  value: TargetSourcesValue;
  onChange: (v: TargetSourcesValue) => void;
}) {
  const [assetSearch, setAssetSearch] = useState('');
  const [fileError, setFileError] = useState<string>();
  const assets = useQuery({
    queryKey: ['scan-target-assets', assetSearch],
    queryFn: () =>
      ok(
        api.GET('/v1/asset/enumerate/contents', {
          params: { query: { limit: 50, ...(assetSearch.trim() ? { search: assetSearch.trim() } : {}) } },
        }),
      ),
  });
  const groups = useQuery({
    queryKey: ['scan-target-groups'],
    queryFn: () => ok(api.GET('/v1/asset/enumerate/group', { params: { query: { limit: 1000 } } })),
  });
  // Picked assets keep their labels while a new search shows other ones.
  const [assetLabels, setAssetLabels] = useState<Record<string, string>>({});
  const assetLabel = (a: { id: number; name: string; host: string; port?: number }) =>
    a.name || (a.port ? `${a.host}:${a.port}` : a.host);
  const assetData = [
    ...value.assetIds.map((id) => ({ value: id, label: assetLabels[id] ?? id })),
    ...(assets.data?.data ?? [])
      .filter((a) => !value.assetIds.includes(String(a.id)))
      .map((a) => ({ value: String(a.id), label: assetLabel(a) })),
  ];

  const readFile = async (f: File | null) => {
    setFileError(undefined);
    if (!f) return onChange({ ...value, file: undefined });
    if (f.size > MAX_FILE_BYTES) {
      setFileError(`the file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB`);
      return onChange({ ...value, file: undefined });
    }
    onChange({ ...value, file: await parseTargetsFile(f.name, await f.text()) });
  };

  return (
    <Stack gap="xs" data-testid="target-sources">
      <Group align="flex-start" grow>
        <MultiSelect
          label="Assets"
          description="web assets of your enumerations, by name"
          placeholder={value.assetIds.length ? undefined : 'search the inventory'}
          searchable
          searchValue={assetSearch}
          onSearchChange={setAssetSearch}
          filter={({ options }) => options}
          data={assetData}
          value={value.assetIds}
          onChange={(ids) => {
            const labels = { ...assetLabels };
            for (const o of assetData) if (ids.includes(o.value)) labels[o.value] = o.label;
            setAssetLabels(labels);
            onChange({ ...value, assetIds: ids });
          }}
          nothingFoundMessage={assets.isPending ? 'Loading…' : 'No asset matches'}
          data-testid="target-assets"
        />
        <MultiSelect
          label="Asset groups"
          description="every asset a group holds when the scan runs"
          placeholder={value.groupIds.length ? undefined : 'pick groups'}
          searchable
          data={(groups.data?.data ?? []).map((g) => ({
            value: g.id,
            label: `${g.name}${g.total_assets !== undefined ? ` (${g.total_assets})` : ''}`,
          }))}
          value={value.groupIds}
          onChange={(ids) => onChange({ ...value, groupIds: ids })}
          nothingFoundMessage={groups.isPending ? 'Loading…' : 'The team has no asset groups'}
          data-testid="target-groups"
        />
      </Group>
      <FileInput
        label="Upload a file of targets"
        description="text (one per line) or CSV (a target, host, url or ip column, else the first); # starts a comment"
        placeholder="choose a .txt or .csv file"
        accept=".txt,.csv,.lst,text/plain,text/csv"
        clearable
        clearButtonProps={{ 'aria-label': 'Remove the file' }}
        onChange={(f) => void readFile(f)}
        error={fileError}
        data-testid="target-file"
      />
      {value.file && (
        <Stack gap={4} data-testid="target-file-summary">
          <Group gap="xs">
            <Badge variant="light">{value.file.targets.length} targets</Badge>
            <Text size="sm">
              from {value.file.name}
              {value.file.targets.length > 0 &&
                `: ${value.file.targets.slice(0, 3).join(', ')}${value.file.targets.length > 3 ? ', …' : ''}`}
            </Text>
          </Group>
          {value.file.problems.length > 0 && (
            <Alert color="red" title="The file has entries that are not targets" data-testid="target-file-problems">
              {value.file.problems.slice(0, 10).map((p) => (
                <Text size="sm" key={p}>
                  {p}
                </Text>
              ))}
              {value.file.problems.length > 10 && <Text size="sm">and {value.file.problems.length - 10} more</Text>}
            </Alert>
          )}
        </Stack>
      )}
    </Stack>
  );
}
