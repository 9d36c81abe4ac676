-- Console accounts: a password per user (scrypt, see src/platform/auth/passwords.ts) and browser sessions.
-- Only the session token's hash is stored; the CSRF token is not a credential on its own (it is useless
-- without the HttpOnly cookie), so it is kept as is and handed back to the signed-in console.
ALTER TABLE users ADD COLUMN password_hash TEXT;

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,
  user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  last_seen_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);
CREATE INDEX sessions_expiry ON sessions (expires_at);
