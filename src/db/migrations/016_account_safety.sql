-- Invites and team creation without account takeover (src/platform/team/invites.ts, team-creation.ts).
--
-- What redeeming an invite may do depends on the account it is for, decided when the invite is made:
--   'account'        the invite made the account (or found it without password, key or other team): its
--                    redeemer sets the first password and gets the first key;
--   'join'           the account existed: it joins only by accepting while signed in as itself; the
--                    invite never sets a password or hands out a key;
--   'first_password' the first start's link for the owner: sets the owner's password once, no key.
ALTER TABLE team_invites ADD COLUMN kind TEXT NOT NULL DEFAULT 'join'
  CHECK (kind IN ('account', 'join', 'first_password'));

-- Invites still open at the upgrade: the owner's first-start link keeps working; an invite is for a new
-- account only when that account still has no password, no key and no other team. Everything else now
-- needs the invited account's own sign-in.
UPDATE team_invites i SET kind = 'first_password'
 WHERE i.used_at IS NULL AND i.created_by = i.user_id
   AND EXISTS (SELECT 1 FROM team_members m WHERE m.team_id = i.team_id AND m.user_id = i.user_id AND m.role = 'OWNER');
UPDATE team_invites i SET kind = 'account'
 WHERE i.used_at IS NULL AND i.kind = 'join'
   AND NOT EXISTS (SELECT 1 FROM users u WHERE u.id = i.user_id AND u.password_hash IS NOT NULL)
   AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.user_id = i.user_id)
   AND NOT EXISTS (SELECT 1 FROM team_members m WHERE m.user_id = i.user_id AND m.team_id <> i.team_id);

-- Who may create teams: the instance owner (the first account) and the users it allowed
-- (VIGIL_TEAM_CREATION decides whether grants count, or whether everyone may).
ALTER TABLE users ADD COLUMN is_instance_owner BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE users ADD COLUMN may_create_teams BOOLEAN NOT NULL DEFAULT false;
UPDATE users SET is_instance_owner = true WHERE id = (SELECT min(id) FROM users);
CREATE UNIQUE INDEX users_one_instance_owner ON users (is_instance_owner) WHERE is_instance_owner;
