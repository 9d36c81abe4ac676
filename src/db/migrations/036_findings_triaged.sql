-- A new finding takes the team's triage of the same finding (same hash) in other scans: the status and
-- labels of the latest changed copy that has a status other than open or fixed, or labels (insertFindings
-- in scans/store.ts). That look-up read every earlier copy of the hash through scan_results_team_hash and
-- dropped the untriaged ones, so a target scanned every day made each of its findings read one more row
-- per earlier scan: after 20 scans of the same targets, storing their findings cost half as much again.
--
-- scan_result_triaged holds only the copies the look-up can take, kept by the statement triggers of 032
-- (one set-based statement per change, over the changed rows only), so it is exact inside every
-- transaction. The look-up reads it by (team_id, vuln_hash): usually nothing, never the untriaged copies.
-- No index of scan_results gains vuln_status or labels, so a status change stays a HOT update (032).
CREATE TABLE scan_result_triaged (
  result_id BIGINT PRIMARY KEY,
  team_id TEXT NOT NULL,
  vuln_hash TEXT NOT NULL
);
CREATE INDEX scan_result_triaged_hash ON scan_result_triaged (team_id, vuln_hash);

-- The copies a new finding may take its triage from (the same test as insertFindings' look-up).
CREATE FUNCTION scan_result_is_triaged(status TEXT, labels TEXT[]) RETURNS BOOLEAN LANGUAGE sql IMMUTABLE AS $$
  SELECT status IN ('false_positive', 'accepted_risk', 'duplicate', 'triaged', 'fix_in_progress') OR labels <> '{}'
$$;

INSERT INTO scan_result_triaged (result_id, team_id, vuln_hash)
  SELECT id, team_id, vuln_hash FROM scan_results WHERE scan_result_is_triaged(vuln_status, labels);

CREATE OR REPLACE FUNCTION scan_result_statuses_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scan_result_statuses (result_id, team_id, vuln_status) SELECT id, team_id, vuln_status FROM new_rows;
  INSERT INTO scan_result_triaged (result_id, team_id, vuln_hash)
    SELECT id, team_id, vuln_hash FROM new_rows WHERE scan_result_is_triaged(vuln_status, labels);
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION scan_result_statuses_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scan_result_statuses s SET vuln_status = n.vuln_status, team_id = n.team_id
    FROM new_rows n WHERE s.result_id = n.id AND (s.vuln_status <> n.vuln_status OR s.team_id <> n.team_id);
  DELETE FROM scan_result_triaged t USING new_rows n
    WHERE t.result_id = n.id AND NOT scan_result_is_triaged(n.vuln_status, n.labels);
  INSERT INTO scan_result_triaged (result_id, team_id, vuln_hash)
    SELECT id, team_id, vuln_hash FROM new_rows WHERE scan_result_is_triaged(vuln_status, labels)
    ON CONFLICT (result_id) DO UPDATE SET team_id = EXCLUDED.team_id, vuln_hash = EXCLUDED.vuln_hash
    WHERE scan_result_triaged.team_id <> EXCLUDED.team_id OR scan_result_triaged.vuln_hash <> EXCLUDED.vuln_hash;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION scan_result_statuses_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM scan_result_statuses s USING old_rows o WHERE s.result_id = o.id;
  DELETE FROM scan_result_triaged t USING old_rows o WHERE t.result_id = o.id;
  RETURN NULL;
END $$;
CREATE OR REPLACE FUNCTION scan_result_statuses_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE scan_result_statuses, scan_result_triaged;
  RETURN NULL;
END $$;
