-- Display preferences per member (task H): a JSON object of preference id → option value,
-- validated against appConfig.preferences when written and again when read.
CREATE TABLE member_preferences (
  member_id TEXT PRIMARY KEY,
  preferences TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
