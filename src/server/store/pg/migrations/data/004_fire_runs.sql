-- The territory's fire consequence runs (mirrors the SQLite store's 150; docs/fire.md
-- "Consequence run"). Every server's worker loop claims queued batches with
-- SELECT … FOR UPDATE SKIP LOCKED; a running batch whose heartbeat is older than the claim
-- timeout (its server died) is claimed again.
CREATE TABLE fire_runs (
  id bigserial PRIMARY KEY,
  status text NOT NULL,
  trigger text NOT NULL,
  requested_by text,
  wind_version text,
  reference_time text NOT NULL,
  start_hours text NOT NULL,
  settings text NOT NULL,
  provenance text NOT NULL,
  batches_total integer NOT NULL,
  batches_done integer NOT NULL DEFAULT 0,
  ignitions_total integer NOT NULL,
  created_at text NOT NULL,
  finished_at text,
  error text
);

CREATE TABLE fire_run_batches (
  run_id bigint NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  start_hour integer NOT NULL,
  start_time text NOT NULL,
  ignitions text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  claimed_by text,
  claimed_at text,
  heartbeat_at timestamptz,
  attempts integer NOT NULL DEFAULT 0,
  finished_at text,
  duration_ms integer,
  error text,
  PRIMARY KEY (run_id, seq)
);
CREATE INDEX fire_run_batches_status ON fire_run_batches (status, run_id);

CREATE TABLE fire_ignition_results (
  run_id bigint NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  start_hour integer NOT NULL,
  ignition_id text NOT NULL,
  circuit text NOT NULL,
  lon double precision NOT NULL,
  lat double precision NOT NULL,
  burned_acres double precision NOT NULL,
  buildings double precision NOT NULL,
  population double precision NOT NULL,
  critical_facilities double precision NOT NULL,
  PRIMARY KEY (run_id, start_hour, ignition_id)
);

CREATE TABLE fire_circuit_results (
  run_id bigint NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  circuit text NOT NULL,
  summary text NOT NULL,
  PRIMARY KEY (run_id, circuit)
);
