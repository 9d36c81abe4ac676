// Named configurations for a new scan (the create body's scan_config_ids, alerting_config_ids,
// reporting_config_ids and disable_global_* flags), picked from the team's configs by kind.
import { Checkbox, Group, MultiSelect, Stack, Text } from '@mantine/core';
import { ErrorState } from './States';
import { useTeamConfigs } from './TeamConfigs';

export interface ConfigChoice {
  scan: string[];
  alerting: string[];
  reporting: string[];
  noGlobalScan: boolean;
  noGlobalAlert: boolean;
  noGlobalReport: boolean;
}

export const NO_CONFIGS: ConfigChoice = {
  scan: [],
  alerting: [],
  reporting: [],
  noGlobalScan: false,
  noGlobalAlert: false,
  noGlobalReport: false,
};

/** The fields of the scan create body. */
export function configFields(c: ConfigChoice) {
  return {
    scan_config_ids: c.scan.length ? c.scan : undefined,
    alerting_config_ids: c.alerting.length ? c.alerting : undefined,
    reporting_config_ids: c.reporting.length ? c.reporting : undefined,
    disable_global_scan_config: c.noGlobalScan || undefined,
    disable_global_alert_config: c.noGlobalAlert || undefined,
    disable_global_report_config: c.noGlobalReport || undefined,
  };
}

// Which config types each field takes (the server refuses others, naming the id).
const KINDS = [
  {
    key: 'scan',
    label: 'Scan, template, remediation and scoring configs',
    types: ['scan', 'template', 'remediation', 'vuln_score'],
    global: 'noGlobalScan',
  },
  { key: 'alerting', label: 'Alerting configs', types: ['alerting'], global: 'noGlobalAlert' },
  { key: 'reporting', label: 'Reporting (ticket) configs', types: ['reporting'], global: 'noGlobalReport' },
] as const;

export function ConfigPicker({ value, onChange }: { value: ConfigChoice; onChange(v: ConfigChoice): void }) {
  const configs = useTeamConfigs();
  if (configs.error) return <ErrorState error={configs.error} />;
  const all = configs.data ?? [];
  return (
    <Stack gap="xs" data-testid="config-picker">
      {all.length === 0 && !configs.isPending && (
        <Text size="sm" c="dimmed">
          The team has no named configurations (Settings › Configurations).
        </Text>
      )}
      {KINDS.map((k) => {
        const mine = all.filter((c) => (k.types as readonly string[]).includes(c.config_type));
        const globals = mine.filter((c) => c.global);
        if (!mine.length) return null;
        return (
          <Stack key={k.key} gap={4}>
            <MultiSelect
              label={k.label}
              searchable
              clearable
              placeholder="none"
              data={mine
                .filter((c) => !c.global)
                .map((c) => ({
                  value: c.id,
                  label: `${c.name} (${c.config_type}${c.provider_name ? `, ${c.provider_name}` : ''})`,
                }))}
              value={value[k.key]}
              onChange={(ids) => onChange({ ...value, [k.key]: ids })}
            />
            {globals.length > 0 && (
              <Group gap="xs">
                <Text size="xs" c="dimmed">
                  Applied to every scan: {globals.map((g) => g.name).join(', ')}
                </Text>
                <Checkbox
                  size="xs"
                  label="not to this one"
                  checked={value[k.global]}
                  onChange={(e) => onChange({ ...value, [k.global]: e.currentTarget.checked })}
                />
              </Group>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
