-- Asset groups, enumeration schedules, the history of enumeration runs and the instance's default team
-- members (issue 27).

-- A saved set of assets that scans can target (their `assets` / `assets_lists`). A group by filter
-- (asset_ids NULL) holds whatever its filters match when it is used; a static group holds the asset ids
-- its filters matched when it was made or last changed.
CREATE TABLE asset_groups (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  filters JSONB NOT NULL DEFAULT '{}'::jsonb,
  asset_ids JSONB,
  created_by BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX asset_groups_team ON asset_groups (team_id, created_at DESC);

-- One record per run of an enumeration, written when the run ends (finished or failed): what
-- GET /v1/asset/enumerate/{id}/history lists.
CREATE TABLE asset_enumeration_runs (
  enumeration_id TEXT NOT NULL REFERENCES asset_enumerations(id) ON DELETE CASCADE,
  run INTEGER NOT NULL,
  team_id TEXT NOT NULL,
  status TEXT NOT NULL,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ NOT NULL,
  new_assets INTEGER NOT NULL DEFAULT 0,
  total_targets INTEGER NOT NULL DEFAULT 0,
  error_details TEXT,
  PRIMARY KEY (enumeration_id, run)
);
CREATE INDEX asset_enumeration_runs_team ON asset_enumeration_runs (team_id, finished_at DESC);

-- Rescan schedules of enumerations, the twin of scan_schedules (same arithmetic, same claim of a slot by
-- one process): owned by the monitor area, which runs them.
CREATE TABLE enumeration_schedules (
  enumeration_id TEXT PRIMARY KEY REFERENCES asset_enumerations(id) ON DELETE CASCADE,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  scan_frequency TEXT NOT NULL,
  start_time TEXT NOT NULL,
  hourly_frequency INTEGER,
  custom_weekdays INTEGER[],
  anchor TIMESTAMPTZ NOT NULL,
  schedule_next_run TIMESTAMPTZ NOT NULL,
  schedule_last_run TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX enumeration_schedules_due ON enumeration_schedules (schedule_next_run);
CREATE INDEX enumeration_schedules_team ON enumeration_schedules (team_id, created_at DESC);

-- People added to every team made on this instance from now on (by email, with a role).
CREATE TABLE team_default_members (
  email TEXT PRIMARY KEY,
  role TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
