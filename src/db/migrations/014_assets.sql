-- Assets: enumerations (discovery runs over root domains / IPs / CIDRs), the inventory they keep, the
-- change history of every asset, and asset policies with their events.

CREATE TABLE asset_enumerations (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- queued, running, finished, failed
  status TEXT NOT NULL,
  failure_reason TEXT,
  progress INTEGER NOT NULL DEFAULT 0,
  created_by BIGINT,
  root_domains JSONB NOT NULL,
  steps JSONB NOT NULL,
  enumeration_ports TEXT,
  enumeration_config JSONB NOT NULL DEFAULT '{}'::jsonb,
  exclusions JSONB NOT NULL DEFAULT '[]'::jsonb,
  alerting_config_ids JSONB NOT NULL DEFAULT '[]'::jsonb,
  automatic_vuln_scans BOOLEAN NOT NULL DEFAULT false,
  -- The current run: 1 for the first, +1 for each rescan; done_run is the last run whose results are
  -- stored (a retried job whose run is already stored does not store it again).
  run INTEGER NOT NULL DEFAULT 1,
  done_run INTEGER NOT NULL DEFAULT 0,
  -- The last run whose new assets were handed to an automatic scan.
  auto_scan_run INTEGER NOT NULL DEFAULT 0,
  total_assets INTEGER NOT NULL DEFAULT 0,
  new_assets INTEGER NOT NULL DEFAULT 0,
  notices JSONB NOT NULL DEFAULT '[]'::jsonb,
  -- The process (host:pid) that last started the current run, and how many times it was started.
  worker TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at TIMESTAMPTZ,
  completed_at TIMESTAMPTZ
);
CREATE INDEX asset_enumerations_team ON asset_enumerations (team_id, created_at DESC);

-- One row per asset an enumeration found: a DNS name (port NULL) or a service (host:port). Assets that a
-- later run does not find again stay with disappeared_at set, so their history is kept.
CREATE TABLE assets (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  enumeration_id TEXT NOT NULL REFERENCES asset_enumerations(id) ON DELETE CASCADE,
  asset_key TEXT NOT NULL,
  host TEXT NOT NULL,
  port INTEGER,
  url TEXT,
  ip JSONB NOT NULL DEFAULT '[]'::jsonb,
  cname JSONB NOT NULL DEFAULT '[]'::jsonb,
  status_code INTEGER,
  title TEXT,
  webserver TEXT,
  content_length INTEGER,
  technologies JSONB NOT NULL DEFAULT '[]'::jsonb,
  favicon TEXT,
  chain_status_codes JSONB NOT NULL DEFAULT '[]'::jsonb,
  redirect_location TEXT,
  tls JSONB,
  screenshot BYTEA,
  sources JSONB NOT NULL DEFAULT '[]'::jsonb,
  labels JSONB NOT NULL DEFAULT '[]'::jsonb,
  first_seen_run INTEGER NOT NULL,
  last_seen_run INTEGER NOT NULL,
  last_changed_run INTEGER NOT NULL,
  disappeared_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (enumeration_id, asset_key)
);
CREATE INDEX assets_team ON assets (team_id, id);

-- What changed between runs: appeared, changed (change_event lists {name, from, to}) or disappeared.
-- One record per asset, run and kind, so a retried run cannot write one twice.
CREATE TABLE asset_changelogs (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  asset_id BIGINT NOT NULL REFERENCES assets(id) ON DELETE CASCADE,
  enumeration_id TEXT NOT NULL,
  run INTEGER NOT NULL,
  event_type TEXT NOT NULL,
  change_event JSONB NOT NULL,
  -- The asset as it was after the change (the record's fields).
  snapshot JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (asset_id, run, event_type)
);
CREATE INDEX asset_changelogs_asset ON asset_changelogs (asset_id, created_at DESC);

CREATE TABLE asset_policies (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- alert, delete, set_label, remove_label
  policy_type TEXT NOT NULL,
  policies JSONB NOT NULL,
  alerting_config_ids JSONB NOT NULL DEFAULT '[]'::jsonb,
  labels JSONB NOT NULL DEFAULT '[]'::jsonb,
  enumeration_ids JSONB NOT NULL DEFAULT '[]'::jsonb,
  metadata JSONB NOT NULL DEFAULT '{}'::jsonb,
  apply_to_existing BOOLEAN NOT NULL DEFAULT false,
  -- Set when apply_to_existing has been applied to the assets stored before the policy.
  existing_applied BOOLEAN NOT NULL DEFAULT false,
  created_by BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_executed_at TIMESTAMPTZ
);
CREATE INDEX asset_policies_team ON asset_policies (team_id, created_at DESC);

-- One record per action a policy took (and per alert queued). dedup_key makes a retried run idempotent.
CREATE TABLE asset_policy_events (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  policy_id TEXT NOT NULL REFERENCES asset_policies(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL,
  status TEXT NOT NULL,
  asset_id BIGINT,
  enumeration_id TEXT,
  run INTEGER,
  dedup_key TEXT NOT NULL,
  error_message TEXT,
  message_payload JSONB NOT NULL DEFAULT '{}'::jsonb,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  UNIQUE (policy_id, dedup_key)
);
CREATE INDEX asset_policy_events_policy ON asset_policy_events (policy_id, id DESC);
