-- Core tables of the data server. Feature tables (ds_<dataset>, rt_<dataset>) are created
-- from the catalog at open (see datasetTables.ts), so a dataset added in YAML needs no migration.
CREATE TABLE datasets (
  id TEXT PRIMARY KEY,
  version INTEGER NOT NULL DEFAULT 0,
  feature_count INTEGER NOT NULL DEFAULT 0,
  minx REAL,
  miny REAL,
  maxx REAL,
  maxy REAL,
  agg_levels TEXT NOT NULL DEFAULT '',
  updated_at TEXT
);

-- Per-cell feature counts for aggregated low-zoom tiles: cell (cx, cy) at `level` = zoom + 6.
CREATE TABLE agg_cells (
  dataset TEXT NOT NULL,
  level INTEGER NOT NULL,
  cx INTEGER NOT NULL,
  cy INTEGER NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (dataset, level, cx, cy)
) WITHOUT ROWID;

CREATE TABLE meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
