-- Gridded fields (mirrors the SQLite store's 040/041): one row per grid and forecast hour,
-- little-endian Float32 values (row 0 = northern row, NaN = no data), lon/lat cell edges, and
-- the per-grid metadata apart from the value blobs (every grid tile request reads the version).
CREATE TABLE grids (
  id text NOT NULL,
  hour integer NOT NULL,
  nx integer NOT NULL,
  ny integer NOT NULL,
  west double precision NOT NULL,
  south double precision NOT NULL,
  east double precision NOT NULL,
  north double precision NOT NULL,
  data bytea NOT NULL,
  version text NOT NULL,
  source text NOT NULL,
  PRIMARY KEY (id, hour)
);

CREATE TABLE grid_meta (
  id text PRIMARY KEY,
  version text NOT NULL,
  hours integer NOT NULL,
  source text NOT NULL
);
