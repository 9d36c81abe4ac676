-- Every process keeps who an API key's caller is in memory (src/platform/auth/caller-cache.ts). Any change
-- of what that answer is read from sends NOTIFY vigil_auth, whichever process (or a person at psql) made
-- it, and every process forgets all it had: a rotated or revoked key, a changed role, a removed member, a
-- deleted team or a changed default team count from the next request. last_sign_in (touched once a
-- minute by requests) and the other columns of users change nothing the answer holds.
CREATE FUNCTION vigil_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_auth', '');
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER team_members_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON team_members
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER users_auth_changed AFTER UPDATE OF email, default_team_id OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER teams_auth_changed AFTER DELETE OR TRUNCATE ON teams
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();

-- Findings at 100,000 (bench/findings.ts): the filters of the findings list, and its counts, by index
-- instead of reading the whole table (its rows are wide: each carries the event).
-- Text search: a trigram index on the searched fields as one text, the exact expression of result-filter.ts
-- (SEARCH_TEXT), which checks each field after it.
CREATE INDEX scan_results_search_trgm ON scan_results
  USING gin ((template_id || ' ' || COALESCE(name, '') || ' ' || host || ' ' || matched_at) public.gin_trgm_ops);
-- tags (the tags filter), severity (its filter and the Overview's counts, index-only), host or matched_at
-- and template id or path (each an OR of two indexes).
CREATE INDEX scan_results_tags ON scan_results USING gin (tags);
CREATE INDEX scan_results_team_severity ON scan_results (team_id, severity, created_at DESC, id DESC);
-- host and matched_at are free text of any length (a fuzzed URL, an imported line): a B-tree entry cannot
-- exceed about 2.7 kB, so one long value would fail its whole result batch. Hash indexes hold only the
-- value's hash and serve the filter's equality (= ANY) just as well.
CREATE INDEX scan_results_host ON scan_results USING hash (host);
CREATE INDEX scan_results_matched_at ON scan_results USING hash (matched_at);
CREATE INDEX scan_results_team_template_path ON scan_results (team_id, template_path);
