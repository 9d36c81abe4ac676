// TypeBox schemas of the assets endpoints (they validate input and document the API).
import { Type } from '@sinclair/typebox';
export { Page } from '../shared/paging.ts';
import { AssetFilters } from '../scans/schemas.ts';
import { STEPS } from '../../discovery/index.ts';

const Str = Type.String({ maxLength: 4096 });
const StrList = Type.Array(Type.String({ maxLength: 4096 }), { maxItems: 10_000 });
const Opt = Type.Optional;
const Time = Type.String({
  description: 'last_day, last_week, last_month, last_3_months, last_6_months, last_12_months, all_time',
});

export { AssetFilters };

export const EnumerationConfig = Type.Object(
  {
    'follow-redirect': Opt(Type.Boolean()),
    ports: Opt(Type.String({ maxLength: 4096 })),
    resolvers: Opt(
      Type.Array(Type.String({ maxLength: 100 }), {
        maxItems: 100,
        description: 'DNS resolvers as host:port (default: the system resolver)',
      }),
    ),
    wordlist: Opt(
      Type.Array(Type.String({ maxLength: 253 }), { maxItems: 100_000, description: 'words for dns_bruteforce' }),
    ),
    concurrency: Opt(Type.Integer({ minimum: 1, maximum: 1000 })),
    rate_limit: Opt(Type.Integer({ minimum: 0, maximum: 100_000, description: 'operations per second, 0: no limit' })),
    timeout: Opt(Type.Integer({ minimum: 1, maximum: 120, description: 'seconds per connection or query' })),
    provider_config: Opt(
      Type.String({
        maxLength: 65_536,
        description: 'subfinder provider-config.yaml text with dns_passive keys (never shown back)',
      }),
    ),
    technology_templates: Opt(
      Type.Array(Type.String({ maxLength: 500 }), {
        maxItems: 1000,
        description:
          'fingerprint templates run on web assets (catalogue paths, folders, ids, private templates); default http/technologies/tech-detect.yaml; [] turns it off',
      }),
    ),
  },
  { additionalProperties: false },
);

export const CreateEnumerationBody = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 500 })),
    root_domains: Opt(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 1000,
        description:
          'domains, IP addresses or CIDR ranges (largest /16, IPv6 /112); may be left out when cloudlist_config_ids is given',
      }),
    ),
    steps: Opt(Type.Array(Type.String({ maxLength: 100, description: STEPS.join(', ') }), { maxItems: 20 })),
    enumeration_ports: Opt(
      Type.String({
        maxLength: 4096,
        description:
          'e.g. "80,443,8000-8100" or "top-100" (default); addresses x ports at most VIGIL_MAX_ENUMERATION_PROBES (default 16,777,216)',
      }),
    ),
    enumeration_config: Opt(EnumerationConfig),
    exclusions: Opt(
      Type.Array(Type.String({ maxLength: 300 }), {
        maxItems: 10_000,
        description: 'exclusion patterns; a leading + makes an allow-list pattern',
      }),
    ),
    exclude_targets: Opt(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 10_000 })),
    alerting_config_ids: Opt(StrList),
    disable_global_alert_config: Opt(Type.Boolean()),
    automatic_vuln_scans: Opt(Type.Boolean()),
    subfinder_config_ids: Opt(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 100,
        description: 'subfinder configs (configs of type subfinder) whose keys dns_passive uses',
      }),
    ),
    cloudlist_config_ids: Opt(
      Type.Array(Type.String({ maxLength: 200 }), {
        maxItems: 100,
        description:
          "cloudlist configs (configs of type cloudlist) whose accounts' hosts and public addresses are added to the run",
      }),
    ),
    enrichment_inputs: Opt(Type.Array(Str, { maxItems: 0, description: 'not supported' })),
  },
  { additionalProperties: false },
);

export const UpdateEnumerationBody = Type.Partial(CreateEnumerationBody, { additionalProperties: false });

export const CreateEnumerationResponse = Type.Object({ id: Str, 'truncated-scan-targets': Type.Integer() });

export const EnumerateData = Type.Object({
  id: Str,
  name: Str,
  status: Str,
  failure_reason: Str,
  progress: Type.Integer(),
  created_at: Str,
  updated_at: Str,
  completed_at: Opt(Str),
  enumeration_time: Str,
  enumeration_time_elapsed: Str,
  enumeration_type: Str,
  root_domains: StrList,
  domain_names: StrList,
  exclusions: StrList,
  steps: StrList,
  enumeration_ports: Str,
  enumeration_config: Type.Record(Type.String(), Type.Unknown()),
  alerting_config_ids: StrList,
  automatic_vuln_scans: Type.Boolean(),
  is_rescan: Type.Boolean(),
  rescan_count: Type.Integer(),
  total_assets: Type.Integer(),
  new_assets: Type.Integer(),
  notices: StrList,
  is_internal: Type.Boolean(),
  cloudlist_config_ids: Opt(StrList),
  cloudlist_provider_name: Opt(Str),
});

export const EnumerationContent = Type.Object({
  id: Type.Integer(),
  enumeration_id: Str,
  enumeration_name: Opt(Str),
  name: Str,
  type: Str,
  host: Str,
  port: Opt(Type.Integer()),
  ip: StrList,
  cname: StrList,
  status_code: Opt(Type.Integer()),
  content_length: Opt(Type.Integer()),
  title: Opt(Str),
  webserver: Opt(Str),
  technologies: StrList,
  favicon: Opt(Str),
  chain_status_codes: StrList,
  redirect_location: Opt(Str),
  labels: StrList,
  is_new: Type.Boolean(),
  asset_hash: Str,
  domain_name: Str,
  source: Type.Array(Type.Object({ source: Str, metadata: Type.Record(Type.String(), Type.String()) })),
  is_screenshot: Type.Boolean(),
  tls_subject_cn: Opt(Str),
  tls_subject_org: Opt(Str),
  tls_subject_an: Opt(StrList),
  tls_issuer_org: Opt(Str),
  tls_serial_number: Opt(Str),
  tls_not_before: Opt(Str),
  tls_not_after: Opt(Str),
  tls_expired: Opt(Type.Boolean()),
  tls_self_signed: Opt(Type.Boolean()),
  tls_mismatched: Opt(Type.Boolean()),
  tls_version: Opt(Str),
  tls_versions: Opt(StrList),
  created_at: Str,
  updated_at: Str,
  last_seen_at: Str,
  is_internal: Type.Boolean(),
});

export const EnumerationListQuery = Type.Object({
  offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
  limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  search: Opt(Str),
  enum_type: Opt(Str),
  sort_asc: Opt(Str),
  sort_desc: Opt(Str),
  status: Opt(Str),
  time: Opt(Time),
  start_date: Opt(Type.String({ format: 'date' })),
  end_date: Opt(Type.String({ format: 'date' })),
  custom_filter: Opt(Str),
  is_internal: Opt(Type.Boolean()),
});

/** AssetFilters as query parameters (lists comma separated), with paging and the time range. */
export const ContentsQuery = Type.Object(
  {
    offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    is_tech: Opt(Type.Boolean()),
    is_favicon: Opt(Type.Boolean()),
    is_new: Opt(Type.Boolean()),
    is_screenshot: Opt(Type.Boolean()),
    only_dns: Opt(Type.Boolean()),
    only_ip: Opt(Type.Boolean()),
    labels: Opt(Str),
    host: Opt(Str),
    port: Opt(Str),
    status_code: Opt(Str),
    content_length: Opt(Str),
    title: Opt(Str),
    cname: Opt(Str),
    technologies: Opt(Str),
    ip: Opt(Str),
    domain: Opt(StrList),
    time: Opt(Time),
    start_date: Opt(Type.String({ format: 'date' })),
    end_date: Opt(Type.String({ format: 'date' })),
    custom_filter: Opt(Str),
    search: Opt(Str),
    enumeration_ids: Opt(StrList),
    // At most a century: a larger count of days put the cut-off before the earliest date SQL can hold.
    not_seen_for_days: Opt(Type.Integer({ minimum: 1, maximum: 36_500 })),
  },
  { additionalProperties: false },
);

export const EnumerateIdParams = Type.Object({ enumerate_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const AssetIdParams = Type.Object({ asset_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const PolicyIdParams = Type.Object({ policy_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const ChangelogQuery = Type.Object({
  time: Opt(Time),
  event_type: Opt(Str),
  sort_asc: Opt(Str),
  sort_desc: Opt(Str),
  limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
  offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
});

export const ChangelogRecord = Type.Object({
  id: Type.Integer(),
  enumeration_id: Str,
  name: Str,
  event_type: Str,
  run: Type.Integer(),
  host: Opt(Str),
  port: Opt(Type.Integer()),
  ip: Opt(Str),
  status_code: Opt(Type.Integer()),
  content_length: Opt(Type.Integer()),
  title: Opt(Str),
  webserver: Opt(Str),
  technologies: StrList,
  cname: StrList,
  labels: StrList,
  is_new: Type.Boolean(),
  change_event: Type.Array(Type.Object({ name: Str, from: Type.Unknown(), to: Type.Unknown() })),
  created_at: Str,
  updated_at: Str,
});

export const EnumerationChangelogQuery = Type.Object(
  {
    run: Opt(Type.Integer({ minimum: 1, description: 'only this run (1 = the first); default: every run' })),
    event_type: Opt(Str),
    sort_asc: Opt(Str),
    sort_desc: Opt(Str),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
  },
  { additionalProperties: false },
);

/** A changelog record with the asset it belongs to (the enumeration-wide history spans many assets). */
export const EnumerationChangelogRecord = Type.Composite([ChangelogRecord, Type.Object({ asset_id: Str })]);

export const PolicyBody = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 500 })),
    policy_type: Opt(Type.String({ maxLength: 50, description: 'alert, delete, set_label, remove_label' })),
    policies: AssetFilters,
    alerting_config_ids: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    labels: Opt(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 100 })),
    enumeration_ids: Opt(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 1000 })),
    apply_to_existing: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const UpdatePolicyBody = Type.Partial(PolicyBody, { additionalProperties: false });

export const AssetPolicy = Type.Object({
  id: Str,
  name: Str,
  policy_type: Str,
  policies: Type.Record(Type.String(), Type.Unknown()),
  alerting_config_ids: StrList,
  labels: StrList,
  enumeration_ids: StrList,
  metadata: Type.Record(Type.String(), Type.Unknown()),
  apply_to_existing: Type.Boolean(),
  created_at: Str,
  updated_at: Str,
  last_executed_at: Opt(Str),
});

export const ActivityEvent = Type.Object({
  id: Str,
  event_type: Str,
  subject_type: Str,
  subject_id: Str,
  subject_name: Str,
  asset_policy_id: Str,
  status: Str,
  error_message: Opt(Str),
  message_payload: Type.Record(Type.String(), Type.Unknown()),
  created_at: Str,
  updated_at: Str,
});

export const PagingQuery = Type.Object({
  limit: Opt(Type.Integer({ minimum: 1, maximum: 1000 })),
  offset: Opt(Type.Integer({ minimum: 0 })),
});

const LabelList = Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 });

export const LabelsByFilterBody = Type.Object(
  { filters: AssetFilters, labels: LabelList },
  { additionalProperties: false },
);
export const AssetLabelsBody = Type.Object({ labels: LabelList }, { additionalProperties: false });
export const LabelUpdateQuery = Type.Object(
  { update_type: Opt(Type.Union([Type.Literal('append'), Type.Literal('replace'), Type.Literal('delete')])) },
  { additionalProperties: false },
);
export const LabelsByFilterResponse = Type.Object({
  message: Type.String(),
  asset_count: Type.Integer(),
  async: Type.Boolean(),
});

export const GroupBody = Type.Object(
  {
    filters: AssetFilters,
    name: Opt(Type.String({ maxLength: 500 })),
    static: Opt(
      Type.Boolean({
        description:
          'Vigil: keep the assets the filters match now (default: the group holds what the filters match when a scan uses it)',
      }),
    ),
  },
  { additionalProperties: false },
);
export const GroupIdParams = Type.Object({ group_id: Type.String({ minLength: 1, maxLength: 100 }) });
export const GroupUpdateQuery = Type.Object(
  { update_type: Opt(Type.Union([Type.Literal('append'), Type.Literal('replace')])) },
  { additionalProperties: false },
);
export const AssetGroup = Type.Object({
  id: Str,
  name: Str,
  filters: Type.Record(Type.String(), Type.Unknown()),
  static: Type.Boolean(),
  total_assets: Opt(Type.Integer()),
  created_at: Str,
  updated_at: Str,
});

export const BulkDeleteBody = Type.Object(
  {
    asset_ids: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 10_000,
      description: 'enumeration ids, and asset ids (whole numbers) of single assets',
    }),
  },
  { additionalProperties: false },
);

/** The platform's EnumerationConfig (GET and PATCH /v1/asset/enumerate/{enumerate_id}/config). */
export const EnumerationConfigDoc = Type.Object(
  {
    name: Opt(Type.String({ maxLength: 500 })),
    root_domains: Opt(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 1000 })),
    enrichment_inputs: Opt(Type.Array(Str, { maxItems: 0, description: 'not supported' })),
    steps: Opt(Type.Array(Type.String({ maxLength: 100 }), { maxItems: 20 })),
    enum_ports: Opt(Type.String({ maxLength: 4096 })),
    enumeration_config: Opt(EnumerationConfig),
    alerting_config_ids: Opt(StrList),
    subfinder_config_ids: Opt(Type.Array(Type.String({ maxLength: 200 }), { maxItems: 100 })),
    exclusions: Opt(Type.Array(Type.String({ maxLength: 300 }), { maxItems: 10_000 })),
    automatic_vuln_scans: Opt(Type.Boolean()),
  },
  { additionalProperties: false },
);
export const EnumerationConfigShown = Type.Object({
  name: Str,
  root_domains: StrList,
  enrichment_inputs: StrList,
  steps: StrList,
  enum_ports: Str,
  enumeration_config: Type.Record(Type.String(), Type.Unknown()),
  alerting_config_ids: StrList,
  subfinder_config_ids: StrList,
  exclusions: StrList,
  automatic_vuln_scans: Type.Boolean(),
});
export const ConfigUpdateQuery = Type.Object(
  { update_type: Opt(Type.Union([Type.Literal('append'), Type.Literal('replace')])) },
  { additionalProperties: false },
);

export const HistoryQuery = Type.Object(
  {
    offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    start_date: Opt(Type.String({ format: 'date' })),
    end_date: Opt(Type.String({ format: 'date' })),
    time_range: Opt(
      Type.String({
        maxLength: 30,
        description: 'all_time (default), current_month, last_month, last_3_months, last_6_months, last_12_months',
      }),
    ),
  },
  { additionalProperties: false },
);
export const HistoryRecord = Type.Object({
  enum_id: Str,
  name: Str,
  enum_type: Str,
  run: Type.Integer({ description: 'Vigil: the run (1 = the first)' }),
  enum_started_at: Str,
  enum_finished_at: Str,
  enumeration_time: Str,
  status: Str,
  new_assets_discovered: Type.Integer(),
  total_targets_processed: Type.Integer(),
  error_details: Opt(Str),
});
export const HistoryPage = Type.Object({
  message: Type.String(),
  current_page: Type.Integer(),
  result_count: Type.Integer(),
  total_results: Type.Integer(),
  total_pages: Type.Integer(),
  total_enumeration: Type.Integer(),
  total_unique_enumeration: Type.Integer(),
  data: Type.Array(HistoryRecord),
});

const { offset: _offset, limit: _limit, ...filterQuery } = ContentsQuery.properties;
void _offset;
void _limit;

/** The contents list's filters, with the export's format (and `domains`, the reference's other spelling). */
export const ExportQuery = Type.Object(
  {
    ...filterQuery,
    format: Opt(Type.String({ maxLength: 10, description: 'raw, json (default) or csv' })),
    domains: Opt(Str),
    async: Opt(Type.Boolean({ description: 'accepted; Vigil always streams the file in the answer' })),
  },
  { additionalProperties: false },
);
export const DomainsExportQuery = Type.Object(
  {
    search: Opt(Str),
    format: Opt(Type.String({ maxLength: 10, description: 'raw, json (default) or csv' })),
  },
  { additionalProperties: false },
);

export const MisconfigurationQuery = Type.Object(
  {
    limit: Opt(Type.Integer({ minimum: 1, maximum: 1000, default: 100 })),
    offset: Opt(Type.Integer({ minimum: 0, default: 0 })),
    search: Opt(Str),
    finding_type: Opt(
      Type.String({
        maxLength: 50,
        description:
          'expired_certificate, mismatched_certificate, self_signed_certificate, directory_listing, exposed_panel, open_database_port',
      }),
    ),
  },
  { additionalProperties: false },
);
export const Misconfiguration = Type.Object({
  id: Str,
  enumeration_id: Str,
  finding_type: Str,
  host: Str,
  severity: Str,
  status: Str,
  event: Type.Record(Type.String(), Type.Unknown()),
  created_at: Str,
  updated_at: Str,
});
export const SuggestionQuery = Type.Object(
  {
    enumeration_id: Opt(Type.String({ maxLength: 100 })),
    limit: Opt(Type.Integer({ minimum: 1, maximum: 100, default: 5, description: 'suggestions per category' })),
    threshold: Opt(
      Type.Number({
        minimum: 0,
        maximum: 100,
        default: 10,
        description: 'smallest share of assets (%) a pattern needs',
      }),
    ),
  },
  { additionalProperties: false },
);
export const PolicySuggestion = Type.Object({
  id: Str,
  category: Str,
  title: Str,
  reason: Str,
  severity: Str,
  suggested_policy: Type.Object({
    name: Str,
    policy_type: Str,
    policies: Type.Record(Type.String(), Type.Unknown()),
    labels: Opt(StrList),
  }),
  affected_count: Type.Integer(),
  affected_percentage: Type.Number(),
  sample_assets: Type.Array(Type.Record(Type.String(), Type.Unknown())),
});
