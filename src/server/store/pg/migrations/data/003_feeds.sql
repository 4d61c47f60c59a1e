-- Live feeds (mirrors the SQLite store's 100): each feed's current records (one JSON list,
-- written and read whole) and its freshness, last error, run summary and HTTP validators.
CREATE TABLE feed_records (
  feed text PRIMARY KEY,
  row_count integer NOT NULL,
  rows text NOT NULL
);

CREATE TABLE feed_status (
  feed text PRIMARY KEY,
  dataset text NOT NULL,
  source text,
  last_attempt_at text,
  last_success_at text,
  newest_data_at text,
  last_error text,
  last_error_at text,
  failures integer NOT NULL DEFAULT 0,
  summary text,
  etag text,
  last_modified text
);
