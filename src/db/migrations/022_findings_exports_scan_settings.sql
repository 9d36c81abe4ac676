-- Findings exports, team-wide scan exclusions and severity overrides (issue 26).

-- Exports hold scan logs (kind 'log') or findings (kind 'results'); a findings export of the whole team
-- spans scans, so it names none.
ALTER TABLE scan_exports ADD COLUMN kind TEXT NOT NULL DEFAULT 'log';
ALTER TABLE scan_exports ALTER COLUMN scan_id DROP NOT NULL;

-- Templates and targets every scan of the team skips (exclude_type scan_target, template or
-- enumeration_target), or only the scan / enumeration a rule names.
CREATE TABLE scan_excludes (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  exclude_type TEXT NOT NULL,
  value TEXT NOT NULL,
  scan_id TEXT REFERENCES scans(id) ON DELETE CASCADE,
  enumeration_id TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scan_excludes_rule
  ON scan_excludes (team_id, exclude_type, value, COALESCE(scan_id, ''), COALESCE(enumeration_id, ''));

-- Severity overrides: every finding of a template (vuln_id NULL), or one finding, gets custom_severity.
-- Findings keep the engine's severity in scan_results.original_severity while an override applies.
CREATE TABLE scan_severity_overrides (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  template_id TEXT NOT NULL,
  vuln_id BIGINT,
  original_severity TEXT NOT NULL,
  custom_severity TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scan_severity_overrides_rule ON scan_severity_overrides (team_id, template_id, COALESCE(vuln_id, 0));
