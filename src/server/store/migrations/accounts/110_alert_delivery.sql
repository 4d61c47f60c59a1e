-- Alert delivery (issue #21): members' alert subscriptions, the episodes of each alert (an alert
-- that clears and is raised again starts a new episode, so it is delivered again), what each
-- member has been told (one row per member, alert and episode: never sent twice), the send jobs
-- with their retries, and the delivery log admins read.
CREATE TABLE alert_subscriptions (
  member_id TEXT PRIMARY KEY,
  rules TEXT NOT NULL,
  severities TEXT NOT NULL,
  channel TEXT NOT NULL,
  quiet_start TEXT,
  quiet_end TEXT,
  updated_at INTEGER NOT NULL
);

CREATE TABLE alert_episodes (
  alert_id TEXT PRIMARY KEY,
  episode INTEGER NOT NULL,
  active INTEGER NOT NULL,
  raised_at INTEGER NOT NULL,
  cleared_at INTEGER
);

CREATE TABLE alert_notices (
  member_id TEXT NOT NULL,
  alert_id TEXT NOT NULL,
  episode INTEGER NOT NULL,
  severity TEXT NOT NULL,
  fields TEXT NOT NULL,
  state TEXT NOT NULL,
  queued_at INTEGER NOT NULL,
  sent_at INTEGER,
  reminders INTEGER NOT NULL DEFAULT 0,
  next_reminder_at INTEGER,
  PRIMARY KEY (member_id, alert_id, episode)
);
CREATE INDEX alert_notices_state ON alert_notices(state, member_id);

CREATE TABLE delivery_jobs (
  id INTEGER PRIMARY KEY,
  member_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  kind TEXT NOT NULL,
  alert_ids TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT,
  text TEXT NOT NULL,
  link TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_at INTEGER NOT NULL,
  state TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX delivery_jobs_due ON delivery_jobs(state, next_at);

CREATE TABLE delivery_log (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  job_id INTEGER,
  member_id TEXT NOT NULL,
  channel TEXT,
  kind TEXT NOT NULL,
  alert_ids TEXT NOT NULL,
  event TEXT NOT NULL,
  attempt INTEGER,
  detail TEXT
);
CREATE INDEX delivery_log_at ON delivery_log(at);
