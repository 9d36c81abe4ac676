-- Monitoring: scan schedules, named configurations (scan, template, alerting, reporting, ...), the scan
-- events that alerts and tickets follow, alert deliveries and the tickets opened in issue trackers.

-- One schedule per scan. Times are UTC. `anchor` is the first moment the schedule may fire (start_time
-- on the day the schedule was set, or the date-time given); the next slot is computed from it by
-- src/platform/monitor/schedule-math.ts and stored so that due schedules are found with an index.
CREATE TABLE scan_schedules (
  scan_id TEXT PRIMARY KEY REFERENCES scans(id) ON DELETE CASCADE,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  scan_frequency TEXT NOT NULL, -- hourly, daily, weekly, monthly, custom
  start_time TEXT NOT NULL,
  hourly_frequency INTEGER,
  custom_weekdays INTEGER[],
  anchor TIMESTAMPTZ NOT NULL,
  schedule_next_run TIMESTAMPTZ NOT NULL,
  schedule_last_run TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX scan_schedules_due ON scan_schedules (schedule_next_run);
CREATE INDEX scan_schedules_team ON scan_schedules (team_id, created_at DESC);

-- Named configurations of a team. `config` is the YAML text as sent (checked against its type's schema).
CREATE TABLE configs (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  config_type TEXT NOT NULL,
  config TEXT NOT NULL,
  provider_name TEXT NOT NULL DEFAULT '',
  is_global BOOLEAN NOT NULL DEFAULT false,
  read_only BOOLEAN NOT NULL DEFAULT false,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX configs_team_type ON configs (team_id, config_type, created_at DESC);

-- Scan events (an outbox): a trigger writes one row when a scan starts running, finishes or fails, in the
-- same transaction as the status change. Any serve process takes a row with a lease and turns it into
-- alert deliveries and tickets; `done_at` marks it handled.
CREATE TABLE scan_events (
  id BIGSERIAL PRIMARY KEY,
  scan_id TEXT NOT NULL,
  team_id TEXT NOT NULL,
  run INTEGER NOT NULL,
  event TEXT NOT NULL, -- scan_running, scan_finished, scan_failed, scan_stopped
  reason TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  lease_until TIMESTAMPTZ,
  done_at TIMESTAMPTZ
);
CREATE INDEX scan_events_pending ON scan_events (id) WHERE done_at IS NULL;

CREATE FUNCTION scan_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IS DISTINCT FROM OLD.status AND NEW.status IN ('running', 'finished', 'failed') THEN
    INSERT INTO scan_events (scan_id, team_id, run, event, reason)
    VALUES (NEW.id, NEW.team_id, NEW.rescan_count,
      CASE NEW.status WHEN 'running' THEN 'scan_running' WHEN 'finished' THEN 'scan_finished'
        ELSE CASE WHEN NEW.failure_reason = 'stopped' THEN 'scan_stopped' ELSE 'scan_failed' END END,
      NEW.failure_reason);
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER scans_status_event AFTER UPDATE OF status ON scans
  FOR EACH ROW EXECUTE FUNCTION scan_status_event();

-- Outgoing work: one alert to one alerting config, or one finding to one reporting config (a ticket).
-- Attempts are retried with back-off until max; the row is the record users list.
CREATE TABLE deliveries (
  id BIGSERIAL PRIMARY KEY,
  config_id TEXT NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
  team_id TEXT NOT NULL,
  kind TEXT NOT NULL, -- alert, ticket
  event TEXT NOT NULL, -- scan_running, ..., new_finding, ticket
  scan_id TEXT,
  run INTEGER,
  vuln_hash TEXT,
  payload JSONB NOT NULL DEFAULT '{}'::jsonb,
  status TEXT NOT NULL DEFAULT 'pending', -- pending, delivered, failed
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_error TEXT,
  response_status INTEGER,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  delivered_at TIMESTAMPTZ
);
CREATE INDEX deliveries_due ON deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX deliveries_config ON deliveries (config_id, id DESC);
-- One delivery per (config, scan run, event, finding): an event handled twice adds nothing.
CREATE UNIQUE INDEX deliveries_once ON deliveries (config_id, kind, event, COALESCE(scan_id, ''), COALESCE(run, -1), COALESCE(vuln_hash, ''));

-- Tickets opened in an issue tracker, one per reporting config and finding (vuln_hash).
CREATE TABLE report_tickets (
  config_id TEXT NOT NULL REFERENCES configs(id) ON DELETE CASCADE,
  vuln_hash TEXT NOT NULL,
  tracker TEXT NOT NULL,
  external_id TEXT NOT NULL,
  url TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (config_id, vuln_hash)
);

-- Finding state across runs of a scan: open, fixed (a later finished run did not see it), regression
-- (seen again after it was fixed). original_severity keeps the engine's severity when a vuln_score rule
-- changed it.
ALTER TABLE scan_results ADD COLUMN vuln_status TEXT NOT NULL DEFAULT 'open';
ALTER TABLE scan_results ADD COLUMN original_severity TEXT;

-- Remediation retests: when each scan was last retested by a remediation config (claimed by one process).
CREATE TABLE remediation_runs (
  scan_id TEXT PRIMARY KEY REFERENCES scans(id) ON DELETE CASCADE,
  config_id TEXT NOT NULL,
  last_retest_at TIMESTAMPTZ NOT NULL
);
