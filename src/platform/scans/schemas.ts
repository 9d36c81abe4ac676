// TypeBox schemas of the scans endpoints (they validate input and document the API).
import { Type } from '@sinclair/typebox';
export { Page } from '../shared/paging.ts';

// Bounds on every list and string: a request can never make the server hold or store unbounded input.
const Str = Type.String({ maxLength: 4096 });
const StrList = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10_000 });

export const AssetFilters = Type.Object(
  {
    is_tech: Type.Optional(Type.Boolean()),
    is_favicon: Type.Optional(Type.Boolean()),
    is_new: Type.Optional(Type.Boolean()),
    is_screenshot: Type.Optional(Type.Boolean()),
    only_dns: Type.Optional(Type.Boolean()),
    only_ip: Type.Optional(Type.Boolean()),
    labels: Type.Optional(Str),
    host: Type.Optional(Str),
    port: Type.Optional(Str),
    status_code: Type.Optional(Str),
    content_length: Type.Optional(Str),
    title: Type.Optional(Str),
    cname: Type.Optional(Str),
    technologies: Type.Optional(Str),
    ip: Type.Optional(Str),
    domain: Type.Optional(StrList),
    start_date: Type.Optional(Type.String({ format: 'date' })),
    end_date: Type.Optional(Type.String({ format: 'date' })),
    custom_filter: Type.Optional(Str),
    search: Type.Optional(Str),
    enumeration_ids: Type.Optional(StrList),
    // At most a century: a larger count of days put the cut-off before the earliest date SQL can hold.
    not_seen_for_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500 })),
  },
  { additionalProperties: false },
);

export const CreateScanBody = Type.Object(
  {
    targets: Type.Optional(Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 100_000 })),
    templates: Type.Optional(StrList),
    assets: Type.Optional(StrList),
    early_templates: Type.Optional(StrList),
    exclude_targets: Type.Optional(StrList),
    exclusions: Type.Optional(
      Type.Array(Type.String({ maxLength: 4096 }), {
        maxItems: 10_000,
        description: 'exclusion patterns; a leading + makes an allow-list pattern',
      }),
    ),
    private_templates: Type.Optional(
      Type.Array(
        Type.Object({
          name: Type.String({ minLength: 1, maxLength: 255 }),
          contents: Type.String({ minLength: 1, maxLength: 1024 * 1024 }),
        }),
        { maxItems: 1000 },
      ),
    ),
    name: Type.Optional(Type.String({ maxLength: 500 })),
    recommended: Type.Optional(Type.Boolean()),
    all: Type.Optional(Type.Boolean()),
    schedule_only: Type.Optional(Type.Boolean()),
    automatic_scan: Type.Optional(Type.Boolean()),
    scan_all_assets: Type.Optional(Type.Boolean()),
    disable_global_alert_config: Type.Optional(Type.Boolean()),
    disable_global_report_config: Type.Optional(Type.Boolean()),
    disable_global_scan_config: Type.Optional(Type.Boolean()),
    alerting_config_ids: Type.Optional(StrList),
    scan_config_ids: Type.Optional(StrList),
    reporting_config_ids: Type.Optional(StrList),
    enumeration_ids: Type.Optional(Type.Array(Type.Object({ id: Str }), { maxItems: 1000 })),
    socks5_proxy: Type.Optional(Str),
    agent_id: Type.Optional(Str),
    agent_tags: Type.Optional(StrList),
    agent_networks: Type.Optional(StrList),
    agent_behavior: Type.Optional(Type.Union([Type.Literal('distribute'), Type.Literal('mirror')])),
    asset_filters: Type.Optional(AssetFilters),
  },
  { additionalProperties: false },
);

export const CreateScanResponse = Type.Object({
  message: Str,
  id: Str,
  'truncated-scan-targets': Type.Integer(),
});

export const Schedule = Type.Object({
  scan_frequency: Str,
  scan_id: Str,
  schedule_last_run: Str,
  schedule_next_run: Str,
  start_time: Type.Optional(Str),
  hourly_frequency: Type.Optional(Type.Integer()),
  custom_weekdays: Type.Optional(Type.Array(Type.Integer())),
});

export const ScanListItem = Type.Object({
  scan_id: Str,
  name: Str,
  status: Str,
  failure_reason: Str,
  progress: Type.Integer(),
  scan_time_elapsed: Str,
  created_at: Str,
  updated_at: Str,
  completed_at: Str,
  total_target: Type.Integer(),
  total_template: Type.Integer(),
  total_scan: Type.Integer(),
  total_result: Type.Integer(),
  rescan_count: Type.Integer(),
  is_rescan: Type.Boolean(),
  is_oss: Type.Boolean(),
  is_cloud: Type.Boolean(),
  is_automatic: Type.Boolean(),
  is_internal: Type.Boolean(),
  severity: Type.Record(Type.String(), Type.Integer()),
  asset_ids: StrList,
  public_templates: StrList,
  template_ids: StrList,
  template_urls: StrList,
  scan_config_ids: StrList,
  report_config_ids: StrList,
  schedule: Type.Optional(Schedule),
  agent_id: Type.Optional(Str),
  agent_tags: Type.Optional(StrList),
  agent_networks: Type.Optional(StrList),
  agent_behavior: Type.Optional(Type.Union([Type.Literal('distribute'), Type.Literal('mirror')])),
});

export const ListQuery = Type.Object({
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  search: Type.Optional(Str),
  status: Type.Optional(
    Type.String({ description: 'failed, finished, queued, running, starting, uploaded, scheduled (comma-separated)' }),
  ),
  sort_asc: Type.Optional(Str),
  sort_desc: Type.Optional(Str),
  is_internal: Type.Optional(Type.Boolean()),
});

export const ScanIdParams = Type.Object({ scan_id: Type.String({ minLength: 1, maxLength: 100 }) });

const ConfigRef = Type.Object({ id: Str, name: Str, config_type: Str, provider_name: Type.Optional(Str) });

export const ScanConfig = Type.Object({
  targets: StrList,
  assets_lists: StrList,
  public_templates: StrList,
  early_templates: StrList,
  template_urls: StrList,
  template_ids: StrList,
  scan_config_ids: Type.Array(ConfigRef),
  report_config_ids: Type.Array(ConfigRef),
  alerting_config_ids: Type.Array(ConfigRef),
  enumeration_ids: Type.Array(
    Type.Object({
      id: Str,
      name: Str,
      enumeration_type: Str,
      types: StrList,
      total_assets: Type.Optional(Type.Integer()),
      cloudlist_provider_name: Type.Optional(Str),
    }),
  ),
  socks5_proxy: Str,
  agent_id: Str,
  agent_tags: StrList,
  agent_networks: StrList,
  agent_behavior: Type.Union([Type.Literal('distribute'), Type.Literal('mirror')]),
  scan_all_assets: Type.Boolean(),
  asset_filters: Type.Record(Type.String(), Type.Unknown()),
});

export const ResultsQuery = Type.Object({
  scan_id: Type.Optional(Str),
  offset: Type.Optional(Type.Integer({ minimum: 0, default: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  severity: Type.Optional(Type.String({ description: 'comma-separated, e.g. info,high' })),
  search: Type.Optional(Str),
  host: Type.Optional(Type.String({ description: 'comma-separated hosts or matched URLs' })),
  domain: Type.Optional(Type.String({ description: 'comma-separated domain names (subdomains match)' })),
  port: Type.Optional(Type.String({ description: 'comma-separated ports' })),
  templates: Type.Optional(Type.String({ description: 'comma-separated template ids or paths' })),
  tags: Type.Optional(Type.String({ description: 'comma-separated tags' })),
  time: Type.Optional(
    Type.String({ description: 'last_day, last_week, last_month, last_3_months, last_6_months, last_12_months' }),
  ),
  vuln_status: Type.Optional(
    Type.String({
      description:
        'comma-separated statuses: open, false_positive, fixed, duplicate, fix_in_progress, accepted_risk, triaged',
    }),
  ),
  labels: Type.Optional(Type.String({ description: 'comma-separated labels (any of them)' })),
  is_regression: Type.Optional(Type.Boolean({ description: 'only findings that came back after being fixed' })),
  sort_asc: Type.Optional(Str),
  sort_desc: Type.Optional(Str),
});

export const ResultItem = Type.Object({
  vuln_id: Str,
  vuln_hash: Str,
  scan_id: Str,
  agent_id: Type.Optional(Type.String({ description: 'the agent that produced the finding (absent: a worker)' })),
  target: Str,
  matched_at: Str,
  template_id: Str,
  template_url: Type.Optional(Str),
  template_path: Type.Optional(Str),
  template_name: Type.Optional(Str),
  severity: Str,
  tags: StrList,
  port: Type.Optional(Type.Integer()),
  result_type: Str,
  matcher_status: Type.Boolean(),
  vuln_status: Str,
  labels: StrList,
  is_regression: Type.Boolean({ description: 'a fixed finding that a later scan or retest saw again' }),
  description: Type.Optional(Str),
  impact: Type.Optional(Str),
  remediation: Type.Optional(Str),
  reference: Type.Optional(StrList),
  created_at: Str,
  updated_at: Str,
  event: Type.Record(Type.String(), Type.Unknown(), {
    description: "the engine's result in nuclei's JSON field names",
  }),
});

/** A finding in the results list (and GET /v1/scans/results/{vuln_id}): `event` as a list of one event. */
export const ResultListFields = Type.Omit(ResultItem, ['event']);
export const ResultListItem = Type.Composite([
  ResultListFields,
  Type.Object({
    event: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
      description: "the engine's result in nuclei's JSON field names (one event per finding)",
    }),
  }),
]);

export const ResultStatsQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 366, default: 30, description: 'days of new/fixed per day' }),
  ),
  status: Type.Optional(
    Type.String({ description: 'open (default: open, triaged, fix_in_progress) or all', maxLength: 10 }),
  ),
  scan_id: Type.Optional(Str),
});

const Count = Type.Integer({ minimum: 0 });
export const ResultStats = Type.Object({
  message: Type.String(),
  status: Type.String(),
  days: Type.Integer(),
  total: Count,
  severity: Type.Record(Type.String(), Count, { description: 'findings per severity' }),
  per_day: Type.Array(Type.Object({ day: Type.String({ description: 'YYYY-MM-DD (UTC)' }), new: Count, fixed: Count })),
  top_hosts: Type.Array(Type.Object({ host: Type.String(), count: Count })),
  top_templates: Type.Array(
    Type.Object({ template_id: Type.String(), name: Type.String(), severity: Type.String(), count: Count }),
  ),
});

export const LogExportQuery = Type.Object({
  rescan_count: Type.Optional(Type.Integer({ minimum: 0 })),
  host: Type.Optional(Type.String({ description: 'target to search in the log' })),
  template: Type.Optional(Type.String({ description: 'template to search in the log' })),
  matched: Type.Optional(Type.String({ description: 'true or false' })),
  time: Type.Optional(Type.String({ description: 'records at or after this date-time (or last_day, last_week, ...)' })),
  search: Type.Optional(Type.String({ description: 'searched in error, target and template' })),
  error: Type.Optional(Str),
  format: Type.Optional(
    Type.Union([Type.Literal('raw'), Type.Literal('json'), Type.Literal('csv')], { default: 'json' }),
  ),
  async: Type.Optional(Type.Boolean()),
  alert_email: Type.Optional(Str),
  severity: Type.Optional(
    Type.Union([Type.Literal('error'), Type.Literal('info'), Type.Literal('all_logs')], { default: 'all_logs' }),
  ),
});

export const ExportStatus = Type.Object({
  export_id: Str,
  scan_id: Str,
  status: Type.String({ description: 'pending, building, ready or failed' }),
  format: Str,
  created_at: Str,
  url: Type.Optional(Str),
  expires_at: Type.Optional(Str),
  row_count: Type.Optional(Type.Integer()),
  error: Type.Optional(Str),
});

export const HistoryQuery = Type.Object({
  vuln_hash: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 100 }),
  history_limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 5 })),
});

const HistoryEntry = Type.Object({
  severity: Str,
  target: Str,
  template_id: Str,
  matched: Type.Boolean(),
  timestamp: Str,
  vuln_hash: Str,
  event: Str,
});
export const HistoryResponse = Type.Record(
  Type.String(),
  Type.Object({ history_count: Type.Integer(), history: Type.Array(HistoryEntry) }),
);
