-- Each template's API Template record kept as the JSON text the search answer sends (every field, written
-- by the route's own serializer; see src/platform/templates/record-json.ts): a search page splices these
-- texts into its answer instead of reading and parsing 32 columns per template. record_spans: where the
-- name and description values sit in that text (UTF-16 offsets: name start, end, description start, end;
-- -1 when absent; NULL when not found), so highlighted searches replace just those two.
-- A table of its own, so writing a record touches none of the templates table's indexes, triggers or
-- change counter (nothing a reader of the columns sees changes). No foreign key: TRUNCATE templates must
-- keep working; the triggers below drop a template's record with it.
CREATE TABLE template_records (
  template_pk BIGINT PRIMARY KEY,
  record_json TEXT NOT NULL,
  record_spans INT[]
);

-- Any UPDATE or DELETE of a template drops its record (a plain SQL UPDATE and a store write alike), in the
-- same transaction: a stored record is never older than the row a reader sees beside it. Searches read the
-- columns of rows without one; fillRecordJson writes the missing ones after the store's writes.
CREATE FUNCTION templates_drop_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM template_records WHERE template_pk IN (SELECT pk FROM old_rows);
  RETURN NULL;
END
$$;
CREATE TRIGGER templates_records_update AFTER UPDATE ON templates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION templates_drop_records();
CREATE TRIGGER templates_records_delete AFTER DELETE ON templates
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION templates_drop_records();

CREATE FUNCTION templates_drop_all_records() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE template_records;
  RETURN NULL;
END
$$;
CREATE TRIGGER templates_records_truncate AFTER TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION templates_drop_all_records();
