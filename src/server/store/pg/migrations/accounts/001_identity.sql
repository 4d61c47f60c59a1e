-- The accounts database in PostgreSQL (issue #19): the tables of the SQLite accounts migrations
-- 020, 060, 080, 110 and 130 (src/server/store/migrations/accounts), so both stores answer the
-- same. Times stay epoch milliseconds (bigint), as the store interfaces expose them. JSON the
-- SQLite store keeps as text is jsonb here when it is an array of strings (roles: searched
-- through a GIN index), and json when it holds objects handed back to clients (session factors,
-- audit detail, preferences): json keeps the keys in the order written, as SQLite does, where
-- jsonb would reorder them (the audit log shows the detail as written). Text that is sorted or
-- compared with what SQLite answers uses COLLATE "C" (code point order, SQLite's BINARY),
-- whatever the cluster's locale.
-- Secrets (session, intermediate and reset tokens, SMS codes) are stored only as hashes.

CREATE TABLE identity_members (
  member_id text COLLATE "C" PRIMARY KEY,
  organization_id text NOT NULL,
  email text COLLATE "C" NOT NULL UNIQUE,
  name text NOT NULL DEFAULT '',
  phone text,
  roles jsonb NOT NULL DEFAULT '[]' CHECK (jsonb_typeof(roles) = 'array'),
  status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  password_hash text,
  password_id text,
  created_at bigint NOT NULL,
  updated_at bigint NOT NULL
);
CREATE INDEX identity_members_password ON identity_members (password_id);
CREATE INDEX identity_members_roles ON identity_members USING gin (roles);

CREATE TABLE identity_sessions (
  session_id text PRIMARY KEY,
  member_id text COLLATE "C" NOT NULL REFERENCES identity_members (member_id),
  token_hash text NOT NULL UNIQUE,
  factors json NOT NULL DEFAULT '[]',
  started_at bigint NOT NULL,
  last_accessed_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  revoked_at bigint
);
CREATE INDEX identity_sessions_member ON identity_sessions (member_id);

CREATE TABLE identity_intermediate_sessions (
  token_hash text PRIMARY KEY,
  member_id text COLLATE "C" NOT NULL REFERENCES identity_members (member_id),
  factors json NOT NULL DEFAULT '[]',
  session_minutes integer,
  sends integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  consumed_at bigint
);
CREATE INDEX identity_intermediate_sessions_member ON identity_intermediate_sessions (member_id);

CREATE TABLE identity_otp_codes (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  member_id text COLLATE "C" NOT NULL REFERENCES identity_members (member_id),
  code_hash text NOT NULL,
  salt text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  consumed_at bigint,
  -- The phone the code was sent to when it enrols one (migration 130).
  phone text
);
CREATE INDEX identity_otp_codes_member ON identity_otp_codes (member_id, id);

CREATE TABLE identity_reset_tokens (
  token_hash text PRIMARY KEY,
  member_id text COLLATE "C" NOT NULL REFERENCES identity_members (member_id),
  code_challenge text,
  created_at bigint NOT NULL,
  expires_at bigint NOT NULL,
  used_at bigint
);
CREATE INDEX identity_reset_tokens_member ON identity_reset_tokens (member_id);

CREATE TABLE identity_throttle (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_start bigint NOT NULL,
  locked_until bigint NOT NULL DEFAULT 0
);

CREATE TABLE identity_signing_keys (
  kid text PRIMARY KEY,
  -- Kept as the text written (the JWKs are handed back byte for byte).
  private_jwk text NOT NULL,
  public_jwk text NOT NULL,
  created_at bigint NOT NULL
);

CREATE TABLE identity_audit (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at bigint NOT NULL,
  event text COLLATE "C" NOT NULL,
  -- Who acted when it was not the member themselves (an administrator), migration 130.
  actor_id text,
  member_id text,
  subject text,
  ip text,
  detail json NOT NULL DEFAULT '{}'
);
CREATE INDEX identity_audit_at ON identity_audit (at);
CREATE INDEX identity_audit_actor ON identity_audit (actor_id, at);
CREATE INDEX identity_audit_member ON identity_audit (member_id, at);
CREATE INDEX identity_audit_event ON identity_audit (event, at);

-- Display preferences per member (SQLite migration 060).
CREATE TABLE member_preferences (
  member_id text PRIMARY KEY,
  preferences json NOT NULL,
  updated_at bigint NOT NULL
);

-- Alert acknowledgements per member (SQLite migration 080); alert_id is `<rule id>:<hazard key>`.
CREATE TABLE alert_acks (
  alert_id text NOT NULL,
  member_id text NOT NULL,
  at bigint NOT NULL,
  PRIMARY KEY (alert_id, member_id)
);
CREATE INDEX alert_acks_member ON alert_acks (member_id);
