-- Live feeds (src/server/feeds): each feed's current records (the state a merge feed adds to and
-- several feeds of one dataset are combined from; one JSON list per feed, written and read whole)
-- and its freshness: last attempt, last success, newest timestamp in the data, last error, the run
-- summary and the HTTP validators of the last download (ETag / Last-Modified, for conditional GET).
CREATE TABLE feed_records (
  feed TEXT PRIMARY KEY,
  row_count INTEGER NOT NULL,
  rows TEXT NOT NULL
);

CREATE TABLE feed_status (
  feed TEXT PRIMARY KEY,
  dataset TEXT NOT NULL,
  source TEXT,
  last_attempt_at TEXT,
  last_success_at TEXT,
  newest_data_at TEXT,
  last_error TEXT,
  last_error_at TEXT,
  failures INTEGER NOT NULL DEFAULT 0,
  summary TEXT,
  etag TEXT,
  last_modified TEXT
);
