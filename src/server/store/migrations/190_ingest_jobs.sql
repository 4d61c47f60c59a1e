-- Ingestion API jobs (src/server/ingest, docs/ingest.md): one row per accepted upload, read by
-- any server on the store. Times are milliseconds since the epoch; a running job's heartbeat is
-- renewed while it works, so a job whose server stopped is reported failed.
CREATE TABLE ingest_jobs (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,                  -- dataset | grid
  target TEXT NOT NULL,                -- dataset or grid id
  mode TEXT NOT NULL,                  -- replace | merge
  format TEXT NOT NULL,                -- geojson | ndjson | csv | gpkg | geotiff | ...
  status TEXT NOT NULL,                -- queued | running | succeeded | failed
  bytes INTEGER NOT NULL,
  body_sha256 TEXT NOT NULL,
  idempotency_key TEXT,
  requested_by TEXT NOT NULL,
  progress INTEGER NOT NULL DEFAULT 0, -- features (or bands) done
  summary TEXT,                        -- JSON: kept, rejected, ...
  error TEXT,
  created_at INTEGER NOT NULL,
  started_at INTEGER,
  finished_at INTEGER,
  heartbeat_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX ingest_jobs_idempotency ON ingest_jobs (requested_by, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX ingest_jobs_status ON ingest_jobs (status);
