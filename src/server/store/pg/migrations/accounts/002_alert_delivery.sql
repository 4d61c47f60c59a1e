-- Alert delivery (issue #21; SQLite accounts migration 110): members' alert subscriptions, the
-- episodes of each alert, what each member has been told (one row per member, alert and episode:
-- never sent twice), the send jobs with their retries, and the delivery log admins read.

CREATE TABLE alert_subscriptions (
  member_id text COLLATE "C" PRIMARY KEY,
  rules jsonb NOT NULL,
  severities jsonb NOT NULL,
  channel text NOT NULL,
  quiet_start text,
  quiet_end text,
  updated_at bigint NOT NULL
);

CREATE TABLE alert_episodes (
  alert_id text PRIMARY KEY,
  episode integer NOT NULL,
  active boolean NOT NULL,
  raised_at bigint NOT NULL,
  cleared_at bigint
);
CREATE INDEX alert_episodes_active ON alert_episodes (alert_id) WHERE active;

CREATE TABLE alert_notices (
  member_id text COLLATE "C" NOT NULL,
  alert_id text COLLATE "C" NOT NULL,
  episode integer NOT NULL,
  severity text NOT NULL,
  -- json, not jsonb: the message fields keep the order they were written in (as in SQLite).
  fields json NOT NULL,
  state text NOT NULL,
  queued_at bigint NOT NULL,
  sent_at bigint,
  reminders integer NOT NULL DEFAULT 0,
  next_reminder_at bigint,
  PRIMARY KEY (member_id, alert_id, episode)
);
CREATE INDEX alert_notices_state ON alert_notices (state, member_id);

CREATE TABLE delivery_jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id text NOT NULL,
  channel text NOT NULL,
  kind text NOT NULL,
  alert_ids jsonb NOT NULL,
  recipient text NOT NULL,
  subject text,
  text text NOT NULL,
  link text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_at bigint NOT NULL,
  state text NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX delivery_jobs_due ON delivery_jobs (state, next_at);

CREATE TABLE delivery_log (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at bigint NOT NULL,
  job_id bigint,
  member_id text NOT NULL,
  channel text,
  kind text NOT NULL,
  alert_ids jsonb NOT NULL,
  event text NOT NULL,
  attempt integer,
  detail text
);
CREATE INDEX delivery_log_at ON delivery_log (at);
