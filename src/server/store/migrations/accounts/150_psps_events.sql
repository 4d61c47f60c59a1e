-- PSPS events from watch to restoration (issue #33): the event and its phase history, the circuits
-- it covers (counts snapshotted from the circuits dataset when it was created) and each circuit's
-- de-energization periods (a circuit may be switched off and on more than once). Times are ms since
-- the epoch; every change is also written to identity_audit in the same transaction.
CREATE TABLE psps_events (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  phase TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  created_by TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE psps_event_phases (
  event_id INTEGER NOT NULL REFERENCES psps_events(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  phase TEXT NOT NULL,
  at INTEGER NOT NULL,
  member_id TEXT NOT NULL,
  PRIMARY KEY (event_id, seq)
);

CREATE TABLE psps_event_circuits (
  event_id INTEGER NOT NULL REFERENCES psps_events(id) ON DELETE CASCADE,
  circuit TEXT NOT NULL,
  position INTEGER NOT NULL,
  customers TEXT NOT NULL,
  medical_baseline INTEGER,
  critical_facilities TEXT NOT NULL,
  PRIMARY KEY (event_id, circuit)
);

CREATE TABLE psps_circuit_periods (
  event_id INTEGER NOT NULL,
  circuit TEXT NOT NULL,
  period INTEGER NOT NULL,
  deenergized_at INTEGER NOT NULL,
  patrolled_at INTEGER,
  restored_at INTEGER,
  damage_found INTEGER,
  notes TEXT,
  recorded_by TEXT NOT NULL,
  recorded_at INTEGER NOT NULL,
  PRIMARY KEY (event_id, circuit, period),
  FOREIGN KEY (event_id, circuit) REFERENCES psps_event_circuits(event_id, circuit) ON DELETE CASCADE
);
