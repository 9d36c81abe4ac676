-- What one attempt of an enumeration run has found, before the run's final transaction stores it in the
-- inventory: discovery hands its assets over in batches, so neither the discovery thread nor the API
-- process holds a whole run. The inventory (assets, their history, policies) still changes only in that
-- final transaction, which reads its attempt's rows in pages and deletes the run's rows. Keyed by asset
-- within an attempt, so an asset sent twice is kept once.
CREATE TABLE enumeration_found (
  enumeration_id TEXT NOT NULL REFERENCES asset_enumerations(id) ON DELETE CASCADE,
  run INTEGER NOT NULL,
  attempt TEXT NOT NULL,
  asset_key TEXT NOT NULL,
  facts JSONB NOT NULL,
  screenshot BYTEA,
  PRIMARY KEY (enumeration_id, attempt, asset_key)
);
