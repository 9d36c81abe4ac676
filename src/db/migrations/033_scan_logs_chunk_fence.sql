-- A worker chunk's scan-log records are kept exactly once by the chunk, not by a per-row check
-- (src/platform/scans/store.ts insertLogs). Each record a chunk writes carries the chunk's index; a write
-- of the chunk's records happens only while the chunk row still counts the writing attempt (a share lock
-- on that row, once per batch), and an attempt that claims the chunk again deletes the earlier attempts'
-- records first. The per-row unique index and foreign key cost PostgreSQL about 9 of every 14 us of CPU
-- per record (bench:scans, docs/performance.md), for a guarantee the chunk row now gives once per batch.
ALTER TABLE scan_logs ADD COLUMN chunk_idx INTEGER;

-- Records not written by a worker chunk (notices, imports, agents) keep the per-row exactly-once key.
DROP INDEX scan_logs_attempt;
CREATE UNIQUE INDEX scan_logs_attempt ON scan_logs (scan_id, run, target, template_id, mirror_of)
  WHERE chunk_idx IS NULL;

-- No per-row foreign key: every write locks its scan's row (or its chunk's row, which belongs to the scan)
-- once per statement, and a deleted scan takes its records with it here.
ALTER TABLE scan_logs DROP CONSTRAINT scan_logs_scan_id_fkey;
CREATE FUNCTION vigil_scan_logs_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM scan_logs WHERE scan_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER scans_delete_logs AFTER DELETE ON scans FOR EACH ROW EXECUTE FUNCTION vigil_scan_logs_cascade();
