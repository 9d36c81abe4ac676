-- Status changes without rewriting every index of a finding (PATCH /v1/scans/vulns, retests, scans marking
-- findings fixed). scan_results is a wide row (its event inline) under sixteen indexes; while vuln_status
-- was in one of them (scan_results_team_status), every status change was a non-HOT update: a new row
-- version and an entry in all sixteen indexes, four of them trigram GINs (500 findings: about 2.5 MB of WAL
-- and 40 ms of backend CPU, three quarters of it index insertion). With no index on vuln_status and room
-- left in each page, PostgreSQL updates the row in place (HOT): no index is touched.
--
-- The status filter still needs an index: scan_result_statuses holds each finding's status beside its id,
-- kept by statement triggers (one set-based statement per change, over the changed rows only), so it is
-- the same as scan_results.vuln_status inside every transaction: result-filter.ts takes the ids of a status
-- filter from it, and a count of statuses alone is an index-only count of it.
CREATE TABLE scan_result_statuses (
  result_id BIGINT PRIMARY KEY,
  team_id TEXT NOT NULL,
  vuln_status TEXT NOT NULL
);
INSERT INTO scan_result_statuses (result_id, team_id, vuln_status) SELECT id, team_id, vuln_status FROM scan_results;
CREATE INDEX scan_result_statuses_team ON scan_result_statuses (team_id, vuln_status, result_id);
DROP INDEX scan_results_team_status;

CREATE FUNCTION scan_result_statuses_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO scan_result_statuses (result_id, team_id, vuln_status) SELECT id, team_id, vuln_status FROM new_rows;
  RETURN NULL;
END $$;
CREATE FUNCTION scan_result_statuses_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE scan_result_statuses s SET vuln_status = n.vuln_status, team_id = n.team_id
    FROM new_rows n WHERE s.result_id = n.id AND (s.vuln_status <> n.vuln_status OR s.team_id <> n.team_id);
  RETURN NULL;
END $$;
CREATE FUNCTION scan_result_statuses_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM scan_result_statuses s USING old_rows o WHERE s.result_id = o.id;
  RETURN NULL;
END $$;
CREATE TRIGGER scan_result_statuses_insert AFTER INSERT ON scan_results
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION scan_result_statuses_insert();
CREATE TRIGGER scan_result_statuses_update AFTER UPDATE ON scan_results
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION scan_result_statuses_update();
CREATE TRIGGER scan_result_statuses_delete AFTER DELETE ON scan_results
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION scan_result_statuses_delete();
CREATE FUNCTION scan_result_statuses_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE scan_result_statuses;
  RETURN NULL;
END $$;
CREATE TRIGGER scan_result_statuses_truncate AFTER TRUNCATE ON scan_results
  FOR EACH STATEMENT EXECUTE FUNCTION scan_result_statuses_truncate();

-- Room for the new version of an updated row in its own page (a HOT update needs it there): 15 % of each
-- page (1.2 kB) is kept free by inserts. Pages written before this keep their rows packed; a row's first
-- change moves it to a page with room, later ones stay in place.
ALTER TABLE scan_results SET (fillfactor = 85);
