-- Every run of `vigil templates update` / `vigil intel update` (by hand or VIGIL_AUTO_UPDATE): what was
-- fetched, from where, and how it ended. A failed run leaves the data it would have replaced untouched.
CREATE TABLE update_runs (
  id          bigserial PRIMARY KEY,
  kind        text NOT NULL,            -- 'templates' or 'intel:<feed>'
  source      text NOT NULL,            -- URL fetched (never with credentials)
  status      text NOT NULL,            -- 'running', 'done', 'unchanged', 'failed'
  version     text,                     -- release tag of a template release
  detail      jsonb,
  error       text,
  started_at  timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX update_runs_kind ON update_runs (kind, started_at DESC);
