-- GET /v1/asset/enumerate/{id}/changelogs reads one enumeration's changes (optionally one run), newest
-- run first: without this index it read every change of the team.
CREATE INDEX asset_changelogs_enumeration ON asset_changelogs (enumeration_id, run DESC, id);
