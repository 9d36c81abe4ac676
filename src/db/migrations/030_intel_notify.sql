-- Every process keeps recently read vulnerability records in memory (src/platform/intel/record-cache.ts).
-- Any statement that changes intel_vulns sends NOTIFY vigil_intel, whichever process (or a person at psql)
-- made it, and every process forgets all it had: an import's changes are answered from the next request.
CREATE FUNCTION vigil_intel_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('vigil_intel', '');
  RETURN NULL;
END $$;
CREATE TRIGGER intel_vulns_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON intel_vulns
  FOR EACH STATEMENT EXECUTE FUNCTION vigil_intel_changed();
