-- Grid provenance (#32): the model run (reference) time and the valid time of each stored hour,
-- as ISO 8601 text; valid_times is a JSON array (hour n = element n), '[]' when the file gave none.
ALTER TABLE grid_meta ADD COLUMN ref_time TEXT;
ALTER TABLE grid_meta ADD COLUMN valid_times TEXT NOT NULL DEFAULT '[]';
