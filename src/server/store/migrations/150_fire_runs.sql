-- The territory's fire consequence runs (src/server/fire/runs, docs/fire.md "Consequence run"):
-- a run per weather update or admin request, its batches of ignitions (one forecast start each)
-- claimed by the servers' worker loops, and its results per ignition and per circuit. Times are
-- ISO 8601 text; heartbeats are milliseconds since the epoch (the claim's staleness test).
CREATE TABLE fire_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  status TEXT NOT NULL,                -- running | complete | failed
  trigger TEXT NOT NULL,               -- weather | admin
  requested_by TEXT,
  wind_version TEXT,
  reference_time TEXT NOT NULL,        -- the wind run (forecast reference time)
  start_hours TEXT NOT NULL,           -- JSON list of forecast hours
  settings TEXT NOT NULL,              -- JSON: spacing, hours, ...
  provenance TEXT NOT NULL,            -- JSON: landscape, wind, fuels
  batches_total INTEGER NOT NULL,
  batches_done INTEGER NOT NULL DEFAULT 0,
  ignitions_total INTEGER NOT NULL,
  created_at TEXT NOT NULL,
  finished_at TEXT,
  error TEXT
);

CREATE TABLE fire_run_batches (
  run_id INTEGER NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_hour INTEGER NOT NULL,
  start_time TEXT NOT NULL,
  ignitions TEXT NOT NULL,             -- JSON list of {circuit, ignitionId, lon, lat}
  status TEXT NOT NULL DEFAULT 'queued', -- queued | running | done | failed
  claimed_by TEXT,
  claimed_at TEXT,
  heartbeat_ms INTEGER,
  attempts INTEGER NOT NULL DEFAULT 0,
  finished_at TEXT,
  duration_ms INTEGER,
  error TEXT,
  PRIMARY KEY (run_id, seq)
);
CREATE INDEX fire_run_batches_status ON fire_run_batches (status, run_id);

CREATE TABLE fire_ignition_results (
  run_id INTEGER NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  start_hour INTEGER NOT NULL,
  ignition_id TEXT NOT NULL,
  circuit TEXT NOT NULL,
  lon REAL NOT NULL,
  lat REAL NOT NULL,
  burned_acres REAL NOT NULL,
  buildings REAL NOT NULL,
  population REAL NOT NULL,
  critical_facilities REAL NOT NULL,
  PRIMARY KEY (run_id, start_hour, ignition_id)
);

CREATE TABLE fire_circuit_results (
  run_id INTEGER NOT NULL REFERENCES fire_runs(id) ON DELETE CASCADE,
  circuit TEXT NOT NULL,
  summary TEXT NOT NULL,               -- JSON: circuitSummary's row
  PRIMARY KEY (run_id, circuit)
);
