// A scan's configuration record (GET /v1/scans/{scan_id}/config) as a list a person reads: its targets,
// its templates (catalogue ones open in the viewer), the named configs it uses with their types (each a
// link to its page), the enumerations it scans and its other options. The server already masks what the
// caller may not see (a proxy's password); this only lays the record out.
import { Badge, Code, Group, List, Stack, Table, Text } from '@mantine/core';
import type { paths } from '../api/schema';
import { AnchorLink } from './Links';

type ScanConfig = paths['/v1/scans/{scan_id}/config']['get']['responses'][200]['content']['application/json'];
type ConfigRef = ScanConfig['scan_config_ids'][number];

const SHOWN = 50;

export function ScanConfigView({ config: c }: { config: ScanConfig }) {
  const configs: [string, ConfigRef[]][] = [
    ['Scan configs', c.scan_config_ids],
    ['Alerting configs', c.alerting_config_ids],
    ['Reporting configs', c.report_config_ids],
  ];
  const filters = Object.entries(c.asset_filters).filter(
    ([, v]) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && !v.length),
  );
  const options: [string, string][] = [
    ['SOCKS5 proxy', c.socks5_proxy],
    ['Agent', c.agent_id],
    ['Agent tags', c.agent_tags.join(', ')],
    ['Agent networks', c.agent_networks.join(', ')],
    ['Agent behaviour', c.agent_tags.length || c.agent_networks.length || c.agent_id ? c.agent_behavior : ''],
    ['Every asset', c.scan_all_assets ? 'yes' : ''],
  ];
  const shownOptions = options.filter(([, v]) => v);
  return (
    <Table withRowBorders={false} maw={1100} data-testid="scan-config" verticalSpacing="xs">
      <Table.Tbody>
        <Row label={`Targets (${c.targets.length})`} testId="config-targets">
          <Items items={c.targets} render={(t) => <Code>{t}</Code>} empty="none (assets or enumerations only)" />
        </Row>
        {c.assets_lists.length > 0 && (
          <Row label="Asset lists">
            <Items items={c.assets_lists} render={(t) => <Code>{t}</Code>} />
          </Row>
        )}
        {c.enumeration_ids.length > 0 && (
          <Row label="Enumerations">
            <Stack gap={4}>
              {c.enumeration_ids.map((e) => (
                <Group key={e.id} gap="xs">
                  <AnchorLink size="sm" to="/assets/$enumerationId" params={{ enumerationId: e.id }}>
                    {e.name || e.id}
                  </AnchorLink>
                  <Badge size="sm" variant="light">
                    {e.enumeration_type}
                  </Badge>
                  {e.total_assets !== undefined && (
                    <Text size="xs" c="dimmed">
                      {e.total_assets} assets
                    </Text>
                  )}
                </Group>
              ))}
            </Stack>
          </Row>
        )}
        <Row label={`Templates (${c.template_ids.length})`} testId="config-templates">
          <Stack gap={4}>
            {c.public_templates.length > 0 && (
              <Items
                items={c.public_templates}
                render={(uri) => (
                  <AnchorLink size="sm" to="/templates" search={{ view: uri }}>
                    {uri}
                  </AnchorLink>
                )}
              />
            )}
            {c.template_urls.length > 0 && <Items items={c.template_urls} render={(u) => <Code>{u}</Code>} />}
            {c.early_templates.length > 0 && <Text size="sm">Run first: {c.early_templates.join(', ')}</Text>}
            <Text size="xs" c="dimmed">
              ids: {c.template_ids.slice(0, SHOWN).join(', ') || 'none'}
              {c.template_ids.length > SHOWN ? ` and ${c.template_ids.length - SHOWN} more` : ''}
            </Text>
          </Stack>
        </Row>
        {configs.map(([label, refs]) => (
          <Row key={label} label={label} testId={`config-refs-${label.split(' ')[0]!.toLowerCase()}`}>
            {refs.length === 0 ? (
              <Text size="sm" c="dimmed">
                none
              </Text>
            ) : (
              <Stack gap={4}>
                {refs.map((r) => (
                  <Group key={r.id} gap="xs">
                    <AnchorLink
                      size="sm"
                      to="/settings/configs/$configId"
                      params={{ configId: r.id }}
                      search={{ type: undefined }}
                    >
                      {r.name || r.id}
                    </AnchorLink>
                    <Badge size="sm" variant="light">
                      {r.config_type}
                    </Badge>
                    {r.provider_name && (
                      <Badge size="sm" variant="outline">
                        {r.provider_name}
                      </Badge>
                    )}
                  </Group>
                ))}
              </Stack>
            )}
          </Row>
        ))}
        {filters.length > 0 && (
          <Row label="Asset filters">
            <Items
              items={filters}
              render={([k, v]) => (
                <Text size="sm">
                  <b>{k}</b>: {Array.isArray(v) ? v.join(', ') : String(v)}
                </Text>
              )}
            />
          </Row>
        )}
        <Row label="Options" testId="config-options">
          {shownOptions.length === 0 ? (
            <Text size="sm" c="dimmed">
              defaults
            </Text>
          ) : (
            <Stack gap={2}>
              {shownOptions.map(([k, v]) => (
                <Text key={k} size="sm">
                  <b>{k}</b>: {v}
                </Text>
              ))}
            </Stack>
          )}
        </Row>
      </Table.Tbody>
    </Table>
  );
}

function Row({ label, testId, children }: { label: string; testId?: string; children: React.ReactNode }) {
  return (
    <Table.Tr data-testid={testId}>
      <Table.Td w={200} style={{ verticalAlign: 'top' }}>
        <Text size="sm" c="dimmed">
          {label}
        </Text>
      </Table.Td>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** A list that shows its first SHOWN items and says how many more there are. */
function Items<T>({ items, render, empty }: { items: T[]; render: (item: T) => React.ReactNode; empty?: string }) {
  if (items.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {empty ?? 'none'}
      </Text>
    );
  return (
    <List size="sm" listStyleType="none" spacing={2}>
      {items.slice(0, SHOWN).map((item, i) => (
        <List.Item key={i}>{render(item)}</List.Item>
      ))}
      {items.length > SHOWN && (
        <List.Item>
          <Text size="xs" c="dimmed">
            and {items.length - SHOWN} more
          </Text>
        </List.Item>
      )}
    </List>
  );
}
