-- Machine clients (issue #32 item 1, Stytch B2B's M2M; SQLite accounts migration 170): a client
-- authenticates with its id and secret (client-credentials grant) and gets a short-lived JWT for
-- its scopes. Only the secret's SHA-256 is kept (the secret is 32 random bytes, shown once); a
-- revoked client's tokens are refused at once because every request reads its status. Times are
-- ms since the epoch.
CREATE TABLE m2m_clients (
  client_id text PRIMARY KEY,
  organization_id text NOT NULL,
  name text NOT NULL,
  scopes text NOT NULL,
  secret_hash text NOT NULL,
  secret_last4 text NOT NULL,
  status text NOT NULL,
  created_at bigint NOT NULL,
  created_by text,
  rotated_at bigint,
  revoked_at bigint,
  last_used_at bigint
);
CREATE INDEX m2m_clients_org ON m2m_clients(organization_id, created_at);
