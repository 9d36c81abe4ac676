-- Template signatures (nuclei's `# digest:` line). signed_by: the common name of the trusted certificate
-- whose key verified the template when it was written (NULL: no trusted key did, or no digest at all);
-- signature_keys: which set of trusted certificates that was, so a changed set (VIGIL_TEMPLATE_CERTIFICATES)
-- has the rows carrying a digest checked again when the platform starts.
ALTER TABLE templates ADD COLUMN signed_by TEXT;
ALTER TABLE templates ADD COLUMN signature_keys TEXT;

-- Whether the team's scans run code and javascript templates no trusted key signed. Off by default; only
-- the team's Owner changes it (PATCH /v1/user/team/settings).
ALTER TABLE teams ADD COLUMN allow_unsigned_templates BOOLEAN NOT NULL DEFAULT false;
