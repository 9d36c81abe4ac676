-- One-time invites: an Admin or Owner adds a member and gets a token; the member redeems it once for an
-- API key (only the token's hash is stored).
CREATE TABLE team_invites (
  token_hash TEXT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_by BIGINT,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);
CREATE INDEX team_invites_user ON team_invites (user_id);
