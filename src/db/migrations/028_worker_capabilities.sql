-- Worker processes (`vigil worker`, the in-process worker of `vigil serve`) and what they can run. A
-- worker adds its row when it starts, renews seen_at while it runs and removes the row when it stops; a
-- row not renewed for a minute belongs to a worker that died. headless: Chromium was found at its start,
-- so it takes the chunks of scans with headless templates (their own job queue).
CREATE TABLE workers (
  id TEXT PRIMARY KEY, -- host:pid:random
  headless BOOLEAN NOT NULL DEFAULT false,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Agents say the same in their heartbeat: chunks of scans with headless templates go to those that can.
ALTER TABLE agents ADD COLUMN headless BOOLEAN NOT NULL DEFAULT false;
