-- Events of the asset inventory, as scan_events are for scans: the assets area writes a row when a policy
-- matched or an enumeration run found new assets, and the monitor loop claims it and turns it into alert
-- deliveries. The assets area never calls the monitor; the monitor reads these rows.
CREATE TABLE asset_events (
  id BIGSERIAL PRIMARY KEY,
  team_id TEXT NOT NULL,
  event TEXT NOT NULL, -- asset_policy_match, new_asset
  data JSONB NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  lease_until TIMESTAMPTZ,
  done_at TIMESTAMPTZ
);
CREATE INDEX asset_events_pending ON asset_events (id) WHERE done_at IS NULL;
