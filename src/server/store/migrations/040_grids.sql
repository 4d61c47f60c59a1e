-- Gridded fields (task F): one row per grid and forecast hour (static grids use hour 0).
-- Values are little-endian Float32, row 0 = northern row, NaN = no data; the extent is
-- longitude/latitude (EPSG:4326) cell edges. `version` is a content hash (ETags, caches).
CREATE TABLE grids (
  id TEXT NOT NULL,
  hour INTEGER NOT NULL,
  nx INTEGER NOT NULL,
  ny INTEGER NOT NULL,
  west REAL NOT NULL,
  south REAL NOT NULL,
  east REAL NOT NULL,
  north REAL NOT NULL,
  data BLOB NOT NULL,
  version TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY (id, hour)
) WITHOUT ROWID;
