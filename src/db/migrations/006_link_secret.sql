-- Server-side secrets shared by every Vigil process on this database (e.g. the key that derives stable
-- download links for async exports). Created on first use.
CREATE TABLE platform_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
