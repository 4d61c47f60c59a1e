-- A batch's results are stored with the batch (mirrors the SQLite store's 200): fire_run_batches.results
-- is one JSON text of columns (fireRunStore.ts encodeBatchResults) instead of a row per ignition in
-- fire_ignition_results. A completer writes its batch in the one update that marks it done: the
-- 200 rows of a batch and their primary-key index took 3.8 ms of PostgreSQL's CPU per batch, the
-- largest share of the database's work during a run (docs/fire.md "Consequence run").
ALTER TABLE fire_run_batches ADD COLUMN results text;

-- A run still running at this upgrade has its done batches' results in the old table: they are
-- queued again and computed anew.
UPDATE fire_run_batches b SET status = 'queued', claimed_by = NULL, claimed_at = NULL, heartbeat_at = NULL,
  finished_at = NULL, duration_ms = NULL
FROM fire_runs r WHERE r.id = b.run_id AND r.status = 'running' AND b.status = 'done';
UPDATE fire_runs SET batches_done = 0 WHERE status = 'running';

DROP TABLE fire_ignition_results;
