-- Payload word lists of catalogue templates, resolved at import (file name as written -> values): scan
-- workers run these templates from the database and never read a file for them.
ALTER TABLE templates ADD COLUMN payload_files JSONB;
