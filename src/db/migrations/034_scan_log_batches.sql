-- A worker chunk's scan-log records stored as one row per write instead of one row per attempt
-- (src/platform/scans/store.ts insertChunkLogRows). A row per attempt cost PostgreSQL about 5 to 6 us of CPU
-- per record (heap, id sequence, two btree indexes, reading the JSON; docs/performance.md): a batch row
-- keeps the JSON text the worker already builds, unparsed, and the readers expand it (json_to_recordset).
-- Every other record (notices, imports, agents) stays a row of scan_logs.
CREATE TABLE scan_log_batches (
  -- Taken from scan_logs' id sequence, so records of both tables keep one insertion order: (seq, ordinal
  -- of the record in the batch) for a batch's records, (id, 0) for a row of scan_logs.
  seq BIGINT NOT NULL,
  scan_id TEXT NOT NULL,
  team_id TEXT NOT NULL,
  run INTEGER NOT NULL,
  chunk_idx INTEGER NOT NULL,
  -- Records in the batch, of them with an error, matched; their earliest and latest time: the readers skip
  -- batches none of whose records can pass a filter without expanding them.
  n INTEGER NOT NULL,
  n_error INTEGER NOT NULL,
  n_matched INTEGER NOT NULL,
  first_at TIMESTAMPTZ NOT NULL,
  last_at TIMESTAMPTZ NOT NULL,
  -- The findings' hashes the records carry (a finding's history finds its scans by them), NULL when none.
  hashes TEXT[],
  -- JSON array of {t: target, id: template, m: matched, s: severity, e: error, ev: event, h: hash,
  -- at: epoch ms}, stored as text: nothing parses it on the write.
  records TEXT NOT NULL
);
CREATE UNIQUE INDEX scan_log_batches_scan ON scan_log_batches (scan_id, seq);
CREATE INDEX scan_log_batches_hashes ON scan_log_batches USING gin (hashes) WHERE hashes IS NOT NULL;

-- A deleted scan (and so a deleted team's scans) takes its batches with it, as its scan_logs rows.
CREATE OR REPLACE FUNCTION vigil_scan_logs_cascade() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM scan_logs WHERE scan_id = OLD.id;
  DELETE FROM scan_log_batches WHERE scan_id = OLD.id;
  RETURN NULL;
END $$;

-- Every record of both tables, one row each, in the columns of scan_logs (seq, ord: the insertion order).
-- For tests and small readers; the log export and the history read the tables with their own keysets.
CREATE VIEW scan_log_records AS
  SELECT l.id AS seq, 0::bigint AS ord, l.scan_id, l.team_id, l.run, l.target, l.template_id, l.matched,
    l.severity, l.error, l.event, l.vuln_hash, l.created_at, l.agent_id, l.mirror_of, l.chunk_idx
  FROM scan_logs l
  UNION ALL
  SELECT b.seq, x.ord, b.scan_id, b.team_id, b.run, x.t, x.id, x.m, x.s, x.e, x.ev, x.h,
    to_timestamp(x.at / 1000.0), NULL::text, ''::text, b.chunk_idx
  FROM scan_log_batches b,
    ROWS FROM (json_to_recordset(b.records::json) AS (t text, id text, m boolean, s text, e text, ev text, h text,
      at float8)) WITH ORDINALITY AS x(t, id, m, s, e, ev, h, at, ord);
