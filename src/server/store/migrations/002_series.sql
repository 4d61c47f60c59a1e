-- Time series served as parallel lists (e.g. the PSPS risk score: timestamp + risk_score_psps).
CREATE TABLE series_points (
  series TEXT NOT NULL,
  seq INTEGER NOT NULL,
  t TEXT NOT NULL,
  value REAL NOT NULL,
  PRIMARY KEY (series, seq)
) WITHOUT ROWID;
