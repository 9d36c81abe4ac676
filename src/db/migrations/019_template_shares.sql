-- Links that share a team's private template read-only. The link's token is its credential: only its
-- SHA-256 hash is stored (as for API keys), so the token is shown once, when the share is made. One share
-- per template: sharing again replaces the token; deleting the share (or the template) revokes the link.
CREATE TABLE template_shares (
  -- No foreign key to templates: TRUNCATE templates (which the facet counts support) must keep working.
  -- The triggers below remove a template's share with it.
  template_pk BIGINT PRIMARY KEY,
  team_id TEXT NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  token_hash TEXT NOT NULL UNIQUE,
  share_type TEXT NOT NULL DEFAULT 'unlisted',
  ttl TEXT NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX template_shares_team ON template_shares (team_id, created_at DESC);

CREATE FUNCTION template_shares_forget() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM template_shares WHERE template_pk = OLD.pk;
  RETURN NULL;
END $$;
-- Only private templates are shared, so deleting catalogue rows (imports) costs nothing here.
CREATE TRIGGER templates_unshare AFTER DELETE ON templates
  FOR EACH ROW WHEN (OLD.team_id IS NOT NULL) EXECUTE FUNCTION template_shares_forget();

CREATE FUNCTION template_shares_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM template_shares;
  RETURN NULL;
END $$;
CREATE TRIGGER templates_unshare_all AFTER TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION template_shares_clear();
