-- Alert acknowledgements per member (task M). alert_id is the engine's stable id
-- `<rule id>:<hazard key>`; every change is also written to identity_audit.
CREATE TABLE alert_acks (
  alert_id TEXT NOT NULL,
  member_id TEXT NOT NULL,
  at INTEGER NOT NULL,
  PRIMARY KEY (alert_id, member_id)
);
CREATE INDEX alert_acks_member ON alert_acks(member_id);
