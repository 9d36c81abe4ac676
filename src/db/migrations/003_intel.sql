-- Vulnerability intelligence. Importers store what each feed says about a CVE in intel_facts (one row per
-- CVE and feed); the served record is computed from all facts of a CVE and kept in intel_vulns, so a
-- lookup is one indexed read. Intel is public reference data shared by every team.

CREATE TABLE intel_facts (
  cve_id TEXT NOT NULL,
  feed TEXT NOT NULL,
  data JSONB NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  PRIMARY KEY (cve_id, feed)
);
CREATE INDEX intel_facts_feed ON intel_facts (feed);

-- CWE id -> name (MITRE list); names feed the records' weaknesses[].
CREATE TABLE intel_cwe (
  cwe_id TEXT PRIMARY KEY,
  name TEXT NOT NULL
);

CREATE TABLE intel_vulns (
  cve_id TEXT PRIMARY KEY,
  doc_id TEXT NOT NULL UNIQUE,
  -- the computed record as compact JSON text (without the read-time fields): a lookup sends it as it is,
  -- with no parsing or re-serialising of what are often 10 kB records carrying the template source
  doc TEXT NOT NULL,
  -- typed copies of record fields for search, sort and facets
  cve_created_at TIMESTAMPTZ,
  cve_updated_at TIMESTAMPTZ,
  severity TEXT,
  cvss_score DOUBLE PRECISION,
  epss_score DOUBLE PRECISION,
  epss_percentile DOUBLE PRECISION,
  poc_count INTEGER NOT NULL DEFAULT 0,
  ntps INTEGER,
  is_kev BOOLEAN NOT NULL DEFAULT false,
  is_vkev BOOLEAN NOT NULL DEFAULT false,
  is_poc BOOLEAN NOT NULL DEFAULT false,
  is_template BOOLEAN NOT NULL DEFAULT false,
  is_exploit_seen BOOLEAN NOT NULL DEFAULT false,
  is_patch_available BOOLEAN NOT NULL DEFAULT false,
  is_oss BOOLEAN NOT NULL DEFAULT false,
  is_remote BOOLEAN,
  is_auth BOOLEAN,
  vendor TEXT,
  product TEXT,
  assignee TEXT,
  vuln_status TEXT,
  template_coverage TEXT,
  cwe TEXT[] NOT NULL DEFAULT '{}',
  search_text TEXT NOT NULL DEFAULT '',
  created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX intel_vulns_created ON intel_vulns (cve_created_at);
CREATE INDEX intel_vulns_cvss ON intel_vulns (cvss_score);
CREATE INDEX intel_vulns_epss ON intel_vulns (epss_score);
CREATE INDEX intel_vulns_ntps ON intel_vulns (ntps);
CREATE INDEX intel_vulns_vendor ON intel_vulns (lower(vendor));
CREATE INDEX intel_vulns_product ON intel_vulns (lower(product));
CREATE INDEX intel_vulns_cwe ON intel_vulns USING gin (cwe);
CREATE INDEX intel_vulns_text ON intel_vulns USING gin (search_text public.gin_trgm_ops);

-- One row per import run: what was read, changed and skipped (with reasons).
CREATE TABLE intel_imports (
  id BIGSERIAL PRIMARY KEY,
  feed TEXT NOT NULL,
  source TEXT NOT NULL,
  started_at TIMESTAMPTZ NOT NULL DEFAULT now(),
  finished_at TIMESTAMPTZ,
  read_count INTEGER NOT NULL DEFAULT 0,
  changed_count INTEGER NOT NULL DEFAULT 0,
  skipped_count INTEGER NOT NULL DEFAULT 0,
  skipped JSONB NOT NULL DEFAULT '[]'
);
