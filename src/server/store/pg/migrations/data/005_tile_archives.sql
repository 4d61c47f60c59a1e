-- The shared tile archives of PostgreSQL mode (#34; docs/adr/0003-shared-tile-archives.md): one
-- pre-rendered pyramid per source and dataset version, rendered once by the leader and read by
-- every server. A set is served only once `complete`; the previous complete set keeps serving
-- until then, and is deleted when the one after it completes.
CREATE TABLE tile_archive_sets (
  source text NOT NULL,
  dataset text NOT NULL,
  version bigint NOT NULL,
  -- The ArchiveStamp (version, count, bbox, content rules) as JSON: the ETag tag is its hash.
  stamp text NOT NULL,
  min_zoom smallint NOT NULL,
  max_zoom smallint NOT NULL,
  complete boolean NOT NULL DEFAULT false,
  tiles integer NOT NULL DEFAULT 0,
  bytes bigint NOT NULL DEFAULT 0,
  render_ms integer,
  rendered_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  PRIMARY KEY (source, version)
);

-- One row per rendered tile (gzip MVT; empty bytes = an empty tile that was visited). The
-- primary key is the lookup of every tile request (an index-only descent, then the heap row).
CREATE TABLE tile_archive_tiles (
  source text NOT NULL,
  version bigint NOT NULL,
  z smallint NOT NULL,
  x integer NOT NULL,
  y integer NOT NULL,
  features integer NOT NULL,
  mode smallint NOT NULL,
  gz bytea NOT NULL,
  PRIMARY KEY (source, version, z, x, y)
);
-- The tiles are written once and read often: keep gzip bytes out of TOAST compression (they do not shrink).
ALTER TABLE tile_archive_tiles ALTER COLUMN gz SET STORAGE EXTERNAL;
