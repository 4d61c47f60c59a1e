-- Machine clients (issue #32 item 1, Stytch B2B's M2M): a client authenticates with its id and
-- secret (client-credentials grant) and gets a short-lived JWT for its scopes. Only the secret's
-- SHA-256 is kept (the secret is 32 random bytes, shown once); a revoked client's tokens are
-- refused at once because every request reads its status. Times are ms since the epoch.
CREATE TABLE m2m_clients (
  client_id TEXT PRIMARY KEY,
  organization_id TEXT NOT NULL,
  name TEXT NOT NULL,
  scopes TEXT NOT NULL,
  secret_hash TEXT NOT NULL,
  secret_last4 TEXT NOT NULL,
  status TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  created_by TEXT,
  rotated_at INTEGER,
  revoked_at INTEGER,
  last_used_at INTEGER
);
CREATE INDEX m2m_clients_org ON m2m_clients(organization_id, created_at);
