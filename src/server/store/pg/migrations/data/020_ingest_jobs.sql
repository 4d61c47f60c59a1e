-- Ingestion API jobs (mirrors the SQLite store's 190; src/server/ingest, docs/ingest.md): one row per
-- accepted upload, read by
-- any server on the store. Times are milliseconds since the epoch; a running job's heartbeat is
-- renewed while it works, so a job whose server stopped is reported failed.
CREATE TABLE ingest_jobs (
  id text PRIMARY KEY,
  kind text NOT NULL,                  -- dataset | grid
  target text NOT NULL,                -- dataset or grid id
  mode text NOT NULL,                  -- replace | merge
  format text NOT NULL,                -- geojson | ndjson | csv | gpkg | geotiff | ...
  status text NOT NULL,                -- queued | running | succeeded | failed
  bytes bigint NOT NULL,
  body_sha256 text NOT NULL,
  idempotency_key text,
  requested_by text NOT NULL,
  progress bigint NOT NULL DEFAULT 0, -- features (or bands) done
  summary text,                        -- JSON: kept, rejected, ...
  error text,
  created_at bigint NOT NULL,
  started_at bigint,
  finished_at bigint,
  heartbeat_at bigint NOT NULL
);
CREATE UNIQUE INDEX ingest_jobs_idempotency ON ingest_jobs (requested_by, idempotency_key)
  WHERE idempotency_key IS NOT NULL;
CREATE INDEX ingest_jobs_status ON ingest_jobs (status);
