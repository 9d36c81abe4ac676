-- Attempts (target x template) finished in the current run: progress moves as they finish, not only
-- when a whole chunk is done (a scan of one target stayed at 0 until it ended).
ALTER TABLE scans ADD COLUMN attempts_done BIGINT NOT NULL DEFAULT 0;
