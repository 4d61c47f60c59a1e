-- A batch's results are stored with the batch (fire_run_batches.results: one JSON text of columns,
-- fireRunStore.ts encodeBatchResults) instead of a row per ignition in fire_ignition_results: a
-- completer writes its batch in the one update that marks it done (docs/fire.md "Consequence run").
ALTER TABLE fire_run_batches ADD COLUMN results TEXT;

-- A run still running at this upgrade has its done batches' results in the old table: they are
-- queued again and computed anew.
UPDATE fire_run_batches SET status = 'queued', claimed_by = NULL, claimed_at = NULL, heartbeat_ms = NULL,
  finished_at = NULL, duration_ms = NULL
WHERE status = 'done' AND run_id IN (SELECT id FROM fire_runs WHERE status = 'running');
UPDATE fire_runs SET batches_done = 0 WHERE status = 'running';

DROP TABLE fire_ignition_results;
