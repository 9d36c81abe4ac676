// The configs a scan uses, read in one query and parsed once when the scan is created (or run again), then
// passed as data to whatever applies them: the scans area turns them into engine settings and template
// selections. Also the ConfigRef records a scan's view lists, and configs by id for the assets area.
import yaml from 'js-yaml';
import type { Db } from '../../db/connection.ts';
import { badRequest } from '../shared/errors.ts';
import { CONFIG_TYPES } from './documents.ts';
import { configsFor, type ConfigRow } from './store.ts';

/** The config fields of a scan request. */
export interface ConfigSelection {
  scan_config_ids?: string[];
  reporting_config_ids?: string[];
  alerting_config_ids?: string[];
  disable_global_scan_config?: boolean;
}

/** A stored config with its YAML parsed. */
export interface ParsedConfig {
  row: ConfigRow;
  doc: Record<string, unknown>;
}

/** The configs of one scan request, resolved. */
export interface ScanConfigs {
  /** Scan configs that apply: the team's global ones (unless disabled) first, then the scan's own in the order it lists them. */
  scan: ParsedConfig[];
  /** Template configs named in scan_config_ids, in stored order. */
  template: ParsedConfig[];
  /** Every row read (the request's ids of any type, and global scan configs), for checkConfigRefs. */
  rows: ConfigRow[];
}

// What each field may reference: `scan_config_ids` takes scan and template configs, the others their own type.
const REF_TYPES: [keyof ConfigSelection, string[]][] = [
  ['scan_config_ids', ['scan', 'template', 'remediation', 'vuln_score']],
  ['reporting_config_ids', ['reporting']],
  ['alerting_config_ids', ['alerting']],
];

function parse(c: ConfigRow): Record<string, unknown> {
  try {
    const doc = yaml.load(c.config, { schema: yaml.CORE_SCHEMA });
    return doc && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  } catch {
    return {}; // stored configs were checked when written
  }
}

/** Reads and parses the configs of a scan request in one query. */
export async function resolveScanConfigs(db: Db, teamId: string, sel: ConfigSelection): Promise<ScanConfigs> {
  const own = sel.scan_config_ids ?? [];
  const ids = [...own, ...(sel.reporting_config_ids ?? []), ...(sel.alerting_config_ids ?? [])];
  const withGlobal = !sel.disable_global_scan_config;
  const types = [...new Set(REF_TYPES.flatMap(([, t]) => t))];
  const rows = await configsFor(db, teamId, ids, types, withGlobal);
  // Global configs of other types are not applied here (they were never read for a scan's settings).
  const scanRows = rows.filter((r) => r.config_type === 'scan' && (own.includes(r.id) || (withGlobal && r.is_global)));
  // Globals first, then the scan's own in the order it lists them, so the scan's own settings win.
  const ordered = [
    ...scanRows.filter((r) => !own.includes(r.id)),
    ...own.flatMap((id) => scanRows.filter((r) => r.id === id)),
  ];
  const template = rows.filter((r) => r.config_type === 'template' && own.includes(r.id));
  return {
    scan: ordered.map((row) => ({ row, doc: parse(row) })),
    template: template.map((row) => ({ row, doc: parse(row) })),
    rows,
  };
}

/**
 * Every referenced config id must be a config of the team of the right type (see REF_TYPES). A wrong one
 * is a 400 naming it.
 */
export function checkConfigRefs(configs: ScanConfigs, sel: ConfigSelection): void {
  for (const [field, types] of REF_TYPES) {
    const ids = (sel[field] as string[] | undefined) ?? [];
    if (!ids.length) continue;
    const found = new Set(
      configs.rows.filter((c) => types.includes(c.config_type) && ids.includes(c.id)).map((c) => c.id),
    );
    const bad = ids.findIndex((id) => !found.has(id));
    if (bad >= 0)
      throw badRequest(
        `${field}[${bad}]: no ${types.join(' or ')} config "${ids[bad]}" in this team`,
        `${field}[${bad}]`,
      );
  }
}

/**
 * ConfigRef records ({id, name, config_type, provider_name}): the referenced ids in request order, then the
 * team's global configs of the type that apply too (unless the scan disabled them).
 */
export async function configRefs(db: Db, teamId: string, ids: string[], type: string, withGlobal = false) {
  const types = [type, ...(type === 'scan' ? ['template', 'remediation', 'vuln_score'] : [])];
  const rows = ids.length || withGlobal ? await configsFor(db, teamId, ids, types, withGlobal) : [];
  const found = new Map(rows.map((c) => [c.id, c]));
  const ref = (c: ConfigRow | undefined, id: string) => ({
    id,
    name: c?.name ?? id,
    config_type: c?.config_type ?? type,
    provider_name: c?.provider_name ?? '',
  });
  // Global configs that apply through the same flag: scan, remediation and vuln_score ones for scans.
  const globalTypes = type === 'scan' ? ['scan', 'remediation', 'vuln_score'] : [type];
  const globals = rows.filter((c) => c.is_global && globalTypes.includes(c.config_type) && !ids.includes(c.id));
  return [...ids.map((id) => ref(found.get(id), id)), ...globals.map((c) => ref(c, c.id))];
}

/** The team's configs of the given ids, any type (the assets area reads subfinder credentials with it). */
export async function loadConfigs(db: Db, teamId: string, ids: string[]): Promise<ConfigRow[]> {
  if (ids.length === 0) return [];
  return configsFor(db, teamId, ids, [...CONFIG_TYPES], false);
}
