-- Working findings: triage (status set by a person), labels, retests, and a changelog of every status,
-- label and retest change; and the team's audit log of every change a person or key makes.

-- A rescan does not overwrite a person's false_positive, accepted_risk or duplicate (only people set
-- those). is_regression: a fixed finding that a later run or retest saw again.
ALTER TABLE scan_results ADD COLUMN labels TEXT[] NOT NULL DEFAULT '{}';
ALTER TABLE scan_results ADD COLUMN is_regression BOOLEAN NOT NULL DEFAULT false;
-- Later scans find the team's earlier triage of the same finding by its hash.
CREATE INDEX scan_results_team_hash ON scan_results (team_id, vuln_hash);
CREATE INDEX scan_results_team_status ON scan_results (team_id, vuln_status);
-- The labels filter (labels && '{...}') without reading every finding of the team.
CREATE INDEX scan_results_labels ON scan_results USING gin (labels);
-- Findings that were 'regression' (the state before this migration) are open regressions.
UPDATE scan_results SET vuln_status = 'open', is_regression = true WHERE vuln_status = 'regression';

-- One row per change of a finding: status, labels or a retest's outcome. actor: the person's email, or
-- 'system' for scans and retests.
CREATE TABLE scan_result_changes (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL,
  result_id BIGINT NOT NULL REFERENCES scan_results(id) ON DELETE CASCADE,
  event_type TEXT NOT NULL, -- vuln_status, labels, retest
  change_event JSONB NOT NULL, -- [{name, from, to}, ...]
  actor TEXT NOT NULL,
  source TEXT NOT NULL, -- api, platform, scan, retest
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX scan_result_changes_result ON scan_result_changes (result_id, id DESC);
CREATE INDEX scan_result_changes_team ON scan_result_changes (team_id, created_at DESC, id DESC);

-- Retests: one small scan of one template against one target for a finding; the latest per finding is shown.
CREATE TABLE scan_retests (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL,
  result_id BIGINT NOT NULL REFERENCES scan_results(id) ON DELETE CASCADE,
  retest_scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  status TEXT NOT NULL DEFAULT 'running', -- running, matched, not_matched, failed
  requested_by TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ
);
CREATE INDEX scan_retests_result ON scan_retests (result_id, id DESC);
CREATE INDEX scan_retests_scan ON scan_retests (retest_scan_id);

-- The audit log: append-only. No foreign keys (a deleted user or team keeps its history); the trigger
-- refuses UPDATE, DELETE and TRUNCATE, so no code path (or mistake) can rewrite it. Never holds request
-- bodies, query strings or secret path segments.
CREATE TABLE team_audit_log (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL,
  user_id BIGINT,
  email TEXT NOT NULL,
  action TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  status INTEGER NOT NULL,
  ip TEXT NOT NULL,
  source TEXT NOT NULL, -- api (API key), platform (console session), unknown
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX team_audit_log_team ON team_audit_log (team_id, created_at DESC, id DESC);

CREATE FUNCTION team_audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'team_audit_log is append-only: % is not allowed', TG_OP;
END $$;
CREATE TRIGGER team_audit_log_no_change BEFORE UPDATE OR DELETE ON team_audit_log
  FOR EACH ROW EXECUTE FUNCTION team_audit_log_append_only();
CREATE TRIGGER team_audit_log_no_truncate BEFORE TRUNCATE ON team_audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION team_audit_log_append_only();
