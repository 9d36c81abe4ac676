// The team's asset inventory: every enumeration's assets in one filtered list.
import { Group, Stack, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { AssetList } from './AssetList';
import { AssetsTabs } from './common';
import { inventoryRoute, type AssetListSearch } from './routes';
import { usePageTitle } from '../../components/usePageTitle';

export default function Inventory() {
  usePageTitle('Asset inventory');
  const search = inventoryRoute.useSearch();
  const navigate = useNavigate({ from: '/assets/inventory' });
  const setSearch = (patch: Partial<AssetListSearch>) =>
    void navigate({ search: (s) => ({ ...s, ...patch }), replace: true });
  return (
    <Stack>
      <Group>
        <Title order={2}>Assets</Title>
        <AssetsTabs />
      </Group>
      <AssetList search={search} setSearch={setSearch} />
    </Stack>
  );
}
