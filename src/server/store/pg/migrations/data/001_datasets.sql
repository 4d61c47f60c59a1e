-- Core tables of the PostgreSQL feature store (mirrors the SQLite store's 001–003). Feature
-- tables ds_<dataset> are created from the catalog at open (pg/pgDatasetTables.ts), so a dataset
-- added in YAML needs no migration.
CREATE TABLE datasets (
  id text PRIMARY KEY,
  version integer NOT NULL DEFAULT 0,
  feature_count integer NOT NULL DEFAULT 0,
  minx double precision,
  miny double precision,
  maxx double precision,
  maxy double precision,
  agg_levels text NOT NULL DEFAULT '',
  -- ISO 8601 text, as the SQLite store writes it (the shift briefing shows it as stored).
  updated_at text
);

-- Per-cell feature counts for aggregated low-zoom tiles: cell (cx, cy) at `level` = zoom + 6.
CREATE TABLE agg_cells (
  dataset text NOT NULL,
  level integer NOT NULL,
  cx integer NOT NULL,
  cy integer NOT NULL,
  n integer NOT NULL,
  PRIMARY KEY (dataset, level, cx, cy)
);

CREATE TABLE meta (
  key text PRIMARY KEY,
  value text NOT NULL
);

-- Time series served as parallel lists (e.g. the PSPS risk score).
CREATE TABLE series_points (
  series text NOT NULL,
  seq integer NOT NULL,
  t text NOT NULL,
  value double precision NOT NULL,
  PRIMARY KEY (series, seq)
);

-- The records column index persisted with the data (written by replaceDataset in the same
-- transaction; same layout as SQLite's column_index: '' holds the row ids).
CREATE TABLE column_index (
  dataset text NOT NULL,
  field text NOT NULL,
  version integer NOT NULL,
  kind text NOT NULL,
  data bytea NOT NULL,
  dict text,
  PRIMARY KEY (dataset, field)
);
