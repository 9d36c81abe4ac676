// The team's named configs (names, types, providers; every role may list them), loaded once and shared
// by the pages that pick configs or show the ones a record names.
import { Group, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api, ok } from '../api/client';
import { AnchorLink } from './Links';

export function useTeamConfigs(enabled = true) {
  return useQuery({
    queryKey: ['configs', 'all'],
    enabled,
    queryFn: () => ok(api.GET('/v1/scans/config', { params: { query: { limit: 1000 } } })),
  });
}

/** Configs named by id, each shown by its name and linked to its page (the id while loading or when gone). */
export function ConfigLinks({ ids, testId }: { ids: string[]; testId?: string }) {
  const configs = useTeamConfigs();
  const byId = new Map((configs.data ?? []).map((c) => [c.id, c]));
  return (
    <Group gap="xs" data-testid={testId}>
      {ids.map((id) => {
        const c = byId.get(id);
        if (!c && configs.isSuccess)
          return (
            <Text key={id} size="sm" c="dimmed" title={id}>
              {id} (not found)
            </Text>
          );
        return (
          <AnchorLink key={id} size="sm" to="/settings/configs/$configId" params={{ configId: id }}>
            {c ? `${c.name}${c.provider_name ? ` (${c.provider_name})` : ''}` : id}
          </AnchorLink>
        );
      })}
    </Group>
  );
}
