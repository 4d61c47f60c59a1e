-- Grid provenance (#32), as the SQLite store's 042: the model run (reference) time and the valid
-- time of each stored hour, ISO 8601 text; valid_times a JSON array ('[]' when the file gave none).
ALTER TABLE grid_meta ADD COLUMN ref_time text;
ALTER TABLE grid_meta ADD COLUMN valid_times text NOT NULL DEFAULT '[]';
