-- Findings text search (result-filter.ts): one trigram index per searched field instead of one on the four
-- fields joined (026). The search is an OR of the four fields' ILIKEs, which the planner answers as a bitmap
-- OR of these four index scans: each field's index returns only rows whose own field holds every trigram of
-- the term, so far fewer candidates are rechecked against their rows than with the joined text, whose
-- trigrams can come from different fields (a term's "bench" from the template id, its "7" from a host).
DROP INDEX scan_results_search_trgm;
CREATE INDEX scan_results_template_id_trgm ON scan_results USING gin (template_id public.gin_trgm_ops);
CREATE INDEX scan_results_name_trgm ON scan_results USING gin (name public.gin_trgm_ops);
CREATE INDEX scan_results_host_trgm ON scan_results USING gin (host public.gin_trgm_ops);
CREATE INDEX scan_results_matched_at_trgm ON scan_results USING gin (matched_at public.gin_trgm_ops);
