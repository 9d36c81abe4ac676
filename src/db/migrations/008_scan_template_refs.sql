-- Catalogue and private templates of a scan are referenced (template store row and digest) instead of
-- copied: a scan of the whole catalogue no longer stores 10,000 template texts per scan. Inline
-- templates keep their text in raw; referenced ones have raw = ''.
ALTER TABLE scan_templates ADD COLUMN ref_pk BIGINT;
ALTER TABLE scan_templates ADD COLUMN digest TEXT;
