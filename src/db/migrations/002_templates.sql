-- Template store: the public catalogue (team_id NULL) and each team's private templates in one table, so
-- search, facets and scan selection read one place. Column names follow the API's Template record.
CREATE TABLE templates (
  pk BIGSERIAL PRIMARY KEY,
  team_id TEXT REFERENCES teams(id) ON DELETE CASCADE,
  template_type TEXT NOT NULL DEFAULT 'public' CHECK (template_type IN ('public', 'user', 'shared')),
  -- Public: the template's id. Private: a generated id (several private templates may share a YAML id).
  template_id TEXT NOT NULL,
  id TEXT NOT NULL,
  -- Public: path inside the catalogue. Private: template_id.
  uri TEXT NOT NULL,
  name TEXT NOT NULL DEFAULT '',
  author TEXT[] NOT NULL DEFAULT '{}',
  -- Lower case, so the tags: filter and facet need no per-row lower().
  tags TEXT[] NOT NULL DEFAULT '{}',
  severity TEXT NOT NULL DEFAULT 'unknown',
  type TEXT NOT NULL DEFAULT '',
  dir TEXT,
  vendor TEXT,
  product TEXT,
  classification JSONB,
  metadata JSONB,
  cve_ids TEXT[] NOT NULL DEFAULT '{}',
  digest TEXT NOT NULL,
  raw TEXT NOT NULL,
  description TEXT,
  impact TEXT,
  remediation TEXT,
  refs TEXT[] NOT NULL DEFAULT '{}',
  filename TEXT,
  release_tag TEXT,
  ref TEXT,
  ai_meta JSONB,
  is_draft BOOLEAN NOT NULL DEFAULT false,
  is_github BOOLEAN NOT NULL DEFAULT false,
  is_new BOOLEAN NOT NULL DEFAULT false,
  is_early BOOLEAN NOT NULL DEFAULT false,
  is_svcteam BOOLEAN NOT NULL DEFAULT false,
  -- Weighted document for free-text search: id and name (A), tags, author, vendor, product (B),
  -- description (C). Built by the store with to_tsvector('simple', ...) at write time.
  search TSVECTOR NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Move the template text (raw, often 1-3 kB) out of the main table: search and facets scan every matching
-- row, and narrow rows make those scans several times cheaper.
-- Columns that search and facets read for every matching row stay in the row (MAIN: compressed at most,
-- never moved out), so only raw, description and the other large texts leave it.
ALTER TABLE templates SET (toast_tuple_target = 128);
ALTER TABLE templates
  ALTER COLUMN search SET STORAGE MAIN, ALTER COLUMN tags SET STORAGE MAIN, ALTER COLUMN author SET STORAGE MAIN,
  ALTER COLUMN cve_ids SET STORAGE MAIN, ALTER COLUMN id SET STORAGE MAIN, ALTER COLUMN name SET STORAGE MAIN,
  ALTER COLUMN uri SET STORAGE MAIN, ALTER COLUMN template_id SET STORAGE MAIN, ALTER COLUMN severity SET STORAGE MAIN,
  ALTER COLUMN type SET STORAGE MAIN, ALTER COLUMN dir SET STORAGE MAIN, ALTER COLUMN vendor SET STORAGE MAIN,
  ALTER COLUMN product SET STORAGE MAIN, ALTER COLUMN team_id SET STORAGE MAIN;

CREATE UNIQUE INDEX templates_public_uri ON templates (uri) WHERE team_id IS NULL;
CREATE UNIQUE INDEX templates_private_id ON templates (team_id, template_id) WHERE team_id IS NOT NULL;
CREATE INDEX templates_public_id ON templates (id) WHERE team_id IS NULL;
CREATE INDEX templates_search ON templates USING GIN (search);
CREATE INDEX templates_tags ON templates USING GIN (tags);
CREATE INDEX templates_cve_ids ON templates USING GIN (cve_ids);
-- Substring and fuzzy matches on ids and names (q words that the word index cannot split well).
CREATE INDEX templates_id_trgm ON templates USING GIN (id public.gin_trgm_ops);
CREATE INDEX templates_name_trgm ON templates USING GIN (name public.gin_trgm_ops);
CREATE INDEX templates_uri_prefix ON templates (uri text_pattern_ops);
-- The default order of search results (newest first).
CREATE INDEX templates_created ON templates (created_at DESC, id);

-- A change counter for the whole table, bumped by every writing statement. Search keeps facet counts in
-- memory keyed by it, so any process's write (an import, a private template) invalidates them at once.
CREATE TABLE template_changes (
  id INT PRIMARY KEY CHECK (id = 1),
  version BIGINT NOT NULL DEFAULT 0
);
INSERT INTO template_changes (id, version) VALUES (1, 0);

CREATE FUNCTION templates_bump_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE template_changes SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER templates_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION templates_bump_version();
