-- Links that share a team's private template read-only. The link's token is its credential: only its
-- SHA-256 hash is stored (as for API keys), so the token is shown once, when the share is made. One share
-- per template: sharing again replaces the token; deleting the share (or the template) revokes the link.
CREATE TABLE template_shares (
  template_pk BIGINT PRIMARY KEY REFERENCES templates(pk) ON DELETE CASCADE,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  share_type TEXT NOT NULL DEFAULT 'unlisted',
  ttl TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX template_shares_team ON template_shares (team_id, created_at DESC);
