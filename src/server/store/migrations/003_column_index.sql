-- The records column index persisted with the data (written by replaceDataset in the same
-- transaction), so a restarted server loads typed arrays instead of scanning the table.
-- One row per dataset and filterable field ('' holds the row ids); `version` is the dataset
-- version it was built for (a stale row is ignored and rebuilt).
CREATE TABLE column_index (
  dataset TEXT NOT NULL,
  field TEXT NOT NULL,
  version INTEGER NOT NULL,
  kind TEXT NOT NULL,
  data BLOB NOT NULL,
  dict TEXT,
  PRIMARY KEY (dataset, field)
);
