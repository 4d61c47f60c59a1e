-- Per-grid metadata (task F), kept apart from the value blobs so reading a grid's version
-- (every tile request) never walks a blob's overflow pages.
CREATE TABLE grid_meta (
  id TEXT PRIMARY KEY,
  version TEXT NOT NULL,
  hours INTEGER NOT NULL,
  source TEXT NOT NULL
) WITHOUT ROWID;
INSERT INTO grid_meta (id, version, hours, source)
  SELECT id, MAX(version), COUNT(*), MAX(source) FROM grids GROUP BY id;
