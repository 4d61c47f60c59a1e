-- Bundled identity provider (task C). Times are epoch milliseconds. Secrets (session
-- tokens, intermediate tokens, reset tokens, SMS codes) are stored only as hashes.

CREATE TABLE identity_members (
  member_id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  email TEXT NOT NULL UNIQUE,
  name TEXT NOT NULL DEFAULT '',
  phone TEXT,
  roles TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  password_hash TEXT,
  password_id TEXT,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE identity_sessions (
  session_id TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES identity_members(member_id),
  token_hash TEXT NOT NULL UNIQUE,
  factors TEXT NOT NULL DEFAULT '[]',
  started_at INTEGER NOT NULL,
  last_accessed_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  revoked_at INTEGER
);
CREATE INDEX identity_sessions_member ON identity_sessions(member_id);

CREATE TABLE identity_intermediate_sessions (
  token_hash TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES identity_members(member_id),
  factors TEXT NOT NULL DEFAULT '[]',
  session_minutes INTEGER,
  sends INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER
);

CREATE TABLE identity_otp_codes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  member_id TEXT NOT NULL REFERENCES identity_members(member_id),
  code_hash TEXT NOT NULL,
  salt TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  consumed_at INTEGER
);
CREATE INDEX identity_otp_codes_member ON identity_otp_codes(member_id);

CREATE TABLE identity_reset_tokens (
  token_hash TEXT PRIMARY KEY,
  member_id TEXT NOT NULL REFERENCES identity_members(member_id),
  code_challenge TEXT,
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at INTEGER
);

CREATE TABLE identity_throttle (
  key TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  window_start INTEGER NOT NULL,
  locked_until INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE identity_signing_keys (
  kid TEXT PRIMARY KEY,
  private_jwk TEXT NOT NULL,
  public_jwk TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

CREATE TABLE identity_audit (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  at INTEGER NOT NULL,
  event TEXT NOT NULL,
  member_id TEXT,
  subject TEXT,
  ip TEXT,
  detail TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX identity_audit_at ON identity_audit(at);
