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
-- author keeps its case for display; the author: filter compares lower case through this index.
CREATE FUNCTION templates_lower(arr TEXT[]) RETURNS TEXT[] LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT COALESCE(array_agg(lower(x)), '{}') FROM unnest(arr) AS x $$;
CREATE INDEX templates_author_lower ON templates USING GIN (templates_lower(author));
-- Substring and fuzzy matches on ids and names (q words that the word index cannot split well).
CREATE INDEX templates_id_trgm ON templates USING GIN (id public.gin_trgm_ops);
CREATE INDEX templates_name_trgm ON templates USING GIN (name public.gin_trgm_ops);
CREATE INDEX templates_uri_prefix ON templates (uri text_pattern_ops);
-- Equality filters of q (severity:, type:, dir:, vendor:, product:) on a few hundred rows.
CREATE INDEX templates_severity ON templates (severity);
CREATE INDEX templates_type ON templates (type);
CREATE INDEX templates_dir ON templates (dir);
CREATE INDEX templates_vendor ON templates (vendor);
CREATE INDEX templates_product ON templates (product);
-- The default order of search results (newest first), with the tie-breakers search adds.
CREATE INDEX templates_created ON templates (created_at DESC, id, uri, pk);
-- sort_desc=severity; search sorts by this function (inlined to the same CASE, so the index matches).
CREATE FUNCTION templates_severity_rank(severity TEXT) RETURNS INT LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE severity WHEN 'critical' THEN 5 WHEN 'high' THEN 4 WHEN 'medium' THEN 3 WHEN 'low' THEN 2 WHEN 'info' THEN 1 ELSE 0 END $$;
CREATE INDEX templates_severity_rank ON templates (templates_severity_rank(severity) DESC NULLS LAST, uri, pk);

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

-- Facet counts of the whole public catalogue (owner '') and of each team's private templates (owner =
-- team id), kept exact by the statement triggers below in the same transaction as every write. A search
-- without q reads its facets here (a few index probes) instead of aggregating every template.
--   facet = severity | type | dir | vendor | product | tags | author | is_new | is_early: count per value
--   facet = missing, value = a facet name: templates without a value (tags/author: empty array)
--   facet = valued, value = tags | author: number of values (a template counts once per value)
--   facet = total, value = '': templates;  facet = created_at, value = epoch seconds: templates per instant
-- Rows whose count fell to 0 are pruned opportunistically, so readers also filter n > 0.
CREATE TABLE template_facet_counts (
  owner TEXT NOT NULL,
  facet TEXT NOT NULL,
  value TEXT NOT NULL,
  n BIGINT NOT NULL,
  PRIMARY KEY (owner, facet, value)
);
-- Top values of one facet by an index scan with LIMIT; ties by value in C collation like filtered facets.
CREATE INDEX template_facet_counts_top ON template_facet_counts (owner, facet, n DESC, value COLLATE "C");
CREATE INDEX template_facet_counts_zero ON template_facet_counts (owner) WHERE n = 0;

-- The facet entries of one template: what it adds to each count. (Search counts the templates outside a
-- large match set in the same form with grouped scans, see entriesSql in facet-counts.ts; tests compare.)
CREATE FUNCTION templates_facet_entries(
  severity TEXT, type TEXT, dir TEXT, vendor TEXT, product TEXT, tags TEXT[], author TEXT[],
  is_new BOOLEAN, is_early BOOLEAN, created_at TIMESTAMPTZ
) RETURNS TABLE (facet TEXT, value TEXT, k BIGINT) LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT e.facet, e.value, e.k::bigint FROM (VALUES
    ('total', '', 1),
    ('severity', severity, 1),
    (CASE WHEN NULLIF(type, '') IS NULL THEN 'missing' ELSE 'type' END, COALESCE(NULLIF(type, ''), 'type'), 1),
    (CASE WHEN dir IS NULL THEN 'missing' ELSE 'dir' END, COALESCE(dir, 'dir'), 1),
    (CASE WHEN vendor IS NULL THEN 'missing' ELSE 'vendor' END, COALESCE(vendor, 'vendor'), 1),
    (CASE WHEN product IS NULL THEN 'missing' ELSE 'product' END, COALESCE(product, 'product'), 1),
    ('missing', 'tags', (cardinality(tags) = 0)::int),
    ('valued', 'tags', cardinality(tags)),
    ('missing', 'author', (cardinality(author) = 0)::int),
    ('valued', 'author', cardinality(author)),
    ('is_new', is_new::text, 1),
    ('is_early', is_early::text, 1),
    ('created_at', extract(epoch FROM created_at)::text, 1)
  ) AS e(facet, value, k)
  WHERE e.k <> 0
  UNION ALL
  SELECT 'tags', v, 1 FROM unnest(tags) AS v WHERE v IS NOT NULL
  UNION ALL
  SELECT 'author', v, 1 FROM unnest(author) AS v WHERE v IS NOT NULL
$$;

CREATE FUNCTION templates_count_facets() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- The changed rows with +1 (new version) or -1 (old version); transition tables depend on the event.
  cols TEXT := 'team_id, severity, type, dir, vendor, product, tags, author, is_new, is_early, created_at';
  delta TEXT := CASE TG_OP
    WHEN 'INSERT' THEN format('SELECT 1 AS d, %s FROM new_rows', cols)
    WHEN 'DELETE' THEN format('SELECT -1 AS d, %s FROM old_rows', cols)
    ELSE format('SELECT 1 AS d, %s FROM new_rows UNION ALL SELECT -1 AS d, %s FROM old_rows', cols, cols) END;
BEGIN
  -- Keys in sorted order, so concurrent writers lock count rows in the same order (no deadlock).
  EXECUTE format($sql$
    INSERT INTO template_facet_counts AS c (owner, facet, value, n)
    SELECT COALESCE(t.team_id, ''), e.facet, e.value, sum(t.d * e.k)
    FROM (%s) AS t
    CROSS JOIN LATERAL templates_facet_entries(t.severity, t.type, t.dir, t.vendor, t.product, t.tags, t.author,
      t.is_new, t.is_early, t.created_at) AS e
    GROUP BY 1, 2, 3
    HAVING sum(t.d * e.k) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (owner, facet, value) DO UPDATE SET n = c.n + EXCLUDED.n
  $sql$, delta);
  -- Drop rows counted down to 0; rows another writer holds are left for a later statement (no waiting).
  DELETE FROM template_facet_counts WHERE (owner, facet, value) IN (
    SELECT owner, facet, value FROM template_facet_counts WHERE n = 0 FOR UPDATE SKIP LOCKED);
  RETURN NULL;
END
$$;

CREATE TRIGGER templates_counts_insert AFTER INSERT ON templates
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION templates_count_facets();
CREATE TRIGGER templates_counts_update AFTER UPDATE ON templates
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION templates_count_facets();
CREATE TRIGGER templates_counts_delete AFTER DELETE ON templates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION templates_count_facets();

CREATE FUNCTION templates_reset_facets() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM template_facet_counts;
  RETURN NULL;
END
$$;
CREATE TRIGGER templates_counts_truncate AFTER TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION templates_reset_facets();
