-- Agents: `vigil agent` processes that run a team's scans from inside other networks and machines. They
-- talk to the server only through the public API with their own credential (only its hash is stored).
CREATE TABLE agents (
  id TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  tags TEXT[] NOT NULL DEFAULT '{}',
  -- CIDR ranges (and host names / *.domain patterns) the agent can reach; routing by agent_networks.
  networks TEXT[] NOT NULL DEFAULT '{}',
  version TEXT NOT NULL DEFAULT '',
  key_hash TEXT NOT NULL UNIQUE,
  key_prefix TEXT NOT NULL,
  created_by BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_seen TIMESTAMPTZ,
  UNIQUE (team_id, name)
);

-- Chunks of scans addressed to agents: agent_ids lists the agents that may lease the chunk (NULL: a
-- worker chunk, run through the job queue as before). A leased chunk holds a lease (token and expiry,
-- renewed by the agent's heartbeat); an expired lease returns the chunk to the agents listed.
-- batch_seq is the last result batch stored for the current lease: batches carry a sequence number, so
-- a batch sent twice (a lost answer, a reconnect) is stored once.
-- mirror_of: the agent a mirrored copy of the scan belongs to ('' when the scan is not mirrored); results
-- and log lines of different mirrors are kept apart by it.
ALTER TABLE scan_chunks ADD COLUMN agent_ids TEXT[];
ALTER TABLE scan_chunks ADD COLUMN agent_id TEXT;
ALTER TABLE scan_chunks ADD COLUMN lease_token TEXT;
ALTER TABLE scan_chunks ADD COLUMN lease_expires_at TIMESTAMPTZ;
ALTER TABLE scan_chunks ADD COLUMN batch_seq INTEGER NOT NULL DEFAULT 0;
ALTER TABLE scan_chunks ADD COLUMN mirror_of TEXT NOT NULL DEFAULT '';
CREATE INDEX scan_chunks_agent_work ON scan_chunks USING gin (agent_ids)
  WHERE agent_ids IS NOT NULL AND status IN ('pending', 'running');

-- The agent that produced each finding and log line (NULL: a worker).
ALTER TABLE scan_results ADD COLUMN agent_id TEXT;
ALTER TABLE scan_results ADD COLUMN mirror_of TEXT NOT NULL DEFAULT '';
DROP INDEX scan_results_hash;
CREATE UNIQUE INDEX scan_results_hash ON scan_results (scan_id, vuln_hash, mirror_of);

ALTER TABLE scan_logs ADD COLUMN agent_id TEXT;
ALTER TABLE scan_logs ADD COLUMN mirror_of TEXT NOT NULL DEFAULT '';
DROP INDEX scan_logs_attempt;
CREATE UNIQUE INDEX scan_logs_attempt ON scan_logs (scan_id, run, target, template_id, mirror_of);
