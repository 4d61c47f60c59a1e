-- PSPS events from watch to restoration (issue #33; SQLite accounts migration 150): the event and
-- its phase history, the circuits it covers (counts snapshotted when it was created) and each
-- circuit's de-energization periods. Times are ms since the epoch; every change is also written to
-- identity_audit in the same transaction.
CREATE TABLE psps_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  name text NOT NULL,
  phase text NOT NULL,
  created_at bigint NOT NULL,
  created_by text NOT NULL,
  updated_at bigint NOT NULL
);

CREATE TABLE psps_event_phases (
  event_id bigint NOT NULL REFERENCES psps_events(id) ON DELETE CASCADE,
  seq integer NOT NULL,
  phase text NOT NULL,
  at bigint NOT NULL,
  member_id text NOT NULL,
  PRIMARY KEY (event_id, seq)
);

CREATE TABLE psps_event_circuits (
  event_id bigint NOT NULL REFERENCES psps_events(id) ON DELETE CASCADE,
  circuit text COLLATE "C" NOT NULL,
  position integer NOT NULL,
  customers jsonb NOT NULL,
  medical_baseline integer,
  critical_facilities jsonb NOT NULL,
  PRIMARY KEY (event_id, circuit)
);

CREATE TABLE psps_circuit_periods (
  event_id bigint NOT NULL,
  circuit text COLLATE "C" NOT NULL,
  period integer NOT NULL,
  deenergized_at bigint NOT NULL,
  patrolled_at bigint,
  restored_at bigint,
  damage_found boolean,
  notes text,
  recorded_by text NOT NULL,
  recorded_at bigint NOT NULL,
  PRIMARY KEY (event_id, circuit, period),
  FOREIGN KEY (event_id, circuit) REFERENCES psps_event_circuits (event_id, circuit) ON DELETE CASCADE
);
