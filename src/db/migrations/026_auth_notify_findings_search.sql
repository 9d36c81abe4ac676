-- Every process keeps who an API key's caller is in memory (src/platform/auth/caller-cache.ts). Any change
-- of what that answer is read from sends NOTIFY vigil_auth, whichever process (or a person at psql) made
-- it, and every process forgets all it had: a rotated or revoked key, a changed role, a removed member, a
-- deleted team or a changed default team count from the next request. last_sign_in (touched once a
-- minute by requests) and the other columns of users change nothing the answer holds.
CREATE FUNCTION vigil_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_auth', '');
  RETURN NULL;
END $$;
CREATE TRIGGER api_keys_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON api_keys
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER team_members_auth_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON team_members
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER users_auth_changed AFTER UPDATE OF email, default_team_id OR DELETE OR TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
CREATE TRIGGER teams_auth_changed AFTER DELETE OR TRUNCATE ON teams
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_auth_changed();
