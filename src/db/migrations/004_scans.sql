-- Scans, their work chunks, findings, per-attempt scan logs and log exports.

CREATE TABLE scans (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- queued, starting, running, finished, failed, uploaded, scheduled
  status TEXT NOT NULL,
  failure_reason TEXT,
  progress INTEGER NOT NULL DEFAULT 0,
  created_by BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  started_at TIMESTAMPTZ,
  completed_at TIMESTAMPTZ,
  -- The current run: 0 for the first one, +1 for each rescan. Chunks, logs and findings carry it.
  rescan_count INTEGER NOT NULL DEFAULT 0,
  total_target INTEGER NOT NULL DEFAULT 0,
  total_template INTEGER NOT NULL DEFAULT 0,
  total_scan BIGINT NOT NULL DEFAULT 0,
  total_result INTEGER NOT NULL DEFAULT 0,
  severity JSONB NOT NULL DEFAULT '{}'::jsonb,
  chunks_total INTEGER NOT NULL DEFAULT 0,
  chunks_done INTEGER NOT NULL DEFAULT 0,
  is_internal BOOLEAN NOT NULL DEFAULT false,
  is_automatic BOOLEAN NOT NULL DEFAULT false,
  is_oss BOOLEAN NOT NULL DEFAULT false,
  -- The resolved target list (after exclusions and truncation) and the create request as sent.
  targets JSONB NOT NULL DEFAULT '[]'::jsonb,
  request JSONB NOT NULL DEFAULT '{}'::jsonb,
  -- Engine settings of this scan (rate limit, concurrency, ...), from its scan configs.
  engine_options JSONB NOT NULL DEFAULT '{}'::jsonb
);
CREATE INDEX scans_team_created ON scans (team_id, created_at DESC, id DESC);
CREATE INDEX scans_team_status ON scans (team_id, status, created_at DESC, id DESC);
CREATE INDEX scans_team_results ON scans (team_id, total_result DESC, created_at DESC, id DESC);
CREATE INDEX scans_name_trgm ON scans USING gin (name public.gin_trgm_ops);

-- The templates a scan runs, snapshotted at creation (rescans re-resolve the selectors).
CREATE TABLE scan_templates (
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  ord INTEGER NOT NULL,
  template_id TEXT NOT NULL,
  uri TEXT NOT NULL,
  source TEXT NOT NULL, -- public, private, early, inline
  raw TEXT NOT NULL,
  PRIMARY KEY (scan_id, ord)
);

-- One batch of targets (with all the scan's templates) per row and run; a pg-boss job runs it.
CREATE TABLE scan_chunks (
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  run INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  targets JSONB NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending', -- pending, running, done, cancelled
  attempts INTEGER NOT NULL DEFAULT 0,
  worker TEXT, -- host:pid of the process that last took the chunk
  started_at TIMESTAMPTZ,
  finished_at TIMESTAMPTZ,
  PRIMARY KEY (scan_id, run, idx)
);

-- Chunk slots: at most `parallelism` chunks of one scan run at once across all workers, each with the
-- scan's rate limit / parallelism, so the scan stays within its limit however many workers it has. A
-- running chunk holds a slot's lease and renews it; a lease that expired (its worker died), belongs to
-- an older run, or is held by an earlier attempt of the same chunk is taken over.
CREATE TABLE scan_slots (
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  slot INTEGER NOT NULL,
  run INTEGER NOT NULL,
  chunk_idx INTEGER,
  holder TEXT, -- random token of the chunk attempt holding the slot; NULL when free
  worker TEXT, -- host:pid, for people reading the table
  expires_at TIMESTAMPTZ NOT NULL,
  -- When the last holder let go: the next chunk starts a rate-limit burst later (see slots.ts).
  released_at TIMESTAMPTZ,
  PRIMARY KEY (scan_id, slot)
);

-- Findings. vuln_hash (template, matcher, host, matched location) is stable, so a retried chunk or a
-- rescan finds the existing row instead of adding a second one.
CREATE TABLE scan_results (
  id BIGSERIAL PRIMARY KEY,
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  team_id TEXT NOT NULL,
  vuln_hash TEXT NOT NULL,
  template_id TEXT NOT NULL,
  template_url TEXT,
  template_path TEXT,
  host TEXT NOT NULL,
  matched_at TEXT NOT NULL,
  port INTEGER,
  severity TEXT NOT NULL,
  name TEXT,
  tags TEXT[] NOT NULL DEFAULT '{}',
  result_type TEXT,
  event JSONB NOT NULL,
  first_run INTEGER NOT NULL,
  last_run INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scan_results_hash ON scan_results (scan_id, vuln_hash);
CREATE INDEX scan_results_team_created ON scan_results (team_id, created_at DESC, id DESC);
CREATE INDEX scan_results_team_template ON scan_results (team_id, template_id);

-- Scan log: one record per target x template attempt, per run.
CREATE TABLE scan_logs (
  id BIGSERIAL PRIMARY KEY,
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  team_id TEXT NOT NULL,
  run INTEGER NOT NULL,
  target TEXT NOT NULL,
  template_id TEXT NOT NULL,
  matched BOOLEAN NOT NULL,
  severity TEXT,
  error TEXT,
  event TEXT,
  vuln_hash TEXT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX scan_logs_attempt ON scan_logs (scan_id, run, target, template_id);
CREATE INDEX scan_logs_scan_id ON scan_logs (scan_id, id);
CREATE INDEX scan_logs_hash ON scan_logs (team_id, vuln_hash) WHERE vuln_hash IS NOT NULL;

-- Log exports. The download link carries a random token; only its hash is stored.
CREATE TABLE scan_exports (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL,
  scan_id TEXT NOT NULL REFERENCES scans(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  params JSONB NOT NULL,
  format TEXT NOT NULL,
  -- sync exports are built while downloading (status ready, built false); async ones by a job.
  status TEXT NOT NULL, -- pending, building, ready, failed
  built BOOLEAN NOT NULL DEFAULT false,
  error TEXT,
  row_count INTEGER,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL
);

-- The bytes of a file built by an async export job, in order.
CREATE TABLE scan_export_parts (
  export_id TEXT NOT NULL REFERENCES scan_exports(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BYTEA NOT NULL,
  PRIMARY KEY (export_id, seq)
);

-- Scan counts per team, status and is_internal, kept by triggers: the scan list's total_results without
-- counting a large team's rows on every page.
CREATE TABLE scan_counts (
  team_id TEXT NOT NULL,
  status TEXT NOT NULL,
  is_internal BOOLEAN NOT NULL,
  n BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (team_id, status, is_internal)
);

CREATE FUNCTION scan_counts_bump(p_team TEXT, p_status TEXT, p_internal BOOLEAN, p_delta BIGINT) RETURNS void AS $$
BEGIN
  INSERT INTO scan_counts (team_id, status, is_internal, n) VALUES (p_team, p_status, p_internal, p_delta)
  ON CONFLICT (team_id, status, is_internal) DO UPDATE SET n = scan_counts.n + EXCLUDED.n;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION scan_counts_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM scan_counts_bump(team_id, status, is_internal, count(*)) FROM new_rows GROUP BY team_id, status, is_internal;
  ELSE
    PERFORM scan_counts_bump(team_id, status, is_internal, -count(*)) FROM old_rows GROUP BY team_id, status, is_internal;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE FUNCTION scan_counts_update() RETURNS trigger AS $$
BEGIN
  PERFORM scan_counts_bump(OLD.team_id, OLD.status, OLD.is_internal, -1);
  PERFORM scan_counts_bump(NEW.team_id, NEW.status, NEW.is_internal, 1);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER scans_count_insert AFTER INSERT ON scans REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION scan_counts_rows();
CREATE TRIGGER scans_count_delete AFTER DELETE ON scans REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION scan_counts_rows();
CREATE TRIGGER scans_count_update AFTER UPDATE OF status, is_internal, team_id ON scans FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.is_internal IS DISTINCT FROM NEW.is_internal OR OLD.team_id IS DISTINCT FROM NEW.team_id)
  EXECUTE FUNCTION scan_counts_update();
