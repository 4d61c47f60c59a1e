import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'

export type MachineClientStatus = 'active' | 'revoked'

/** A machine client (Stytch B2B M2M) as the identity code sees it. */
export interface MachineClient {
  clientId: string
  organizationId: string
  name: string
  scopes: string[]
  /** SHA-256 (hex) of the secret; the secret itself is shown once and never stored. */
  secretHash: string
  /** The secret's last four characters, so an administrator can tell two secrets apart. */
  secretLast4: string
  status: MachineClientStatus
  createdAt: number
  createdBy: string | null
  rotatedAt: number | null
  revokedAt: number | null
  lastUsedAt: number | null
}

/** Machine clients in the accounts database (table m2m_clients). */
export interface MachineClientStore {
  insert(client: MachineClient): Awaitable<void>
  byId(clientId: string): Awaitable<MachineClient | null>
  /** The organization's clients, oldest first. */
  list(organizationId: string): Awaitable<MachineClient[]>
  /** Replaces an active client's secret; false when there is no such active client. */
  rotate(clientId: string, secretHash: string, secretLast4: string, now: number): Awaitable<boolean>
  /** Revokes an active client; false when there is no such active client. */
  revoke(clientId: string, now: number): Awaitable<boolean>
  /** Records a token issued to the client. */
  touch(clientId: string, now: number): Awaitable<void>
}

/** A row of m2m_clients as both drivers return it (PostgreSQL bigints arrive as strings). */
export interface MachineClientRow {
  client_id: string
  organization_id: string
  name: string
  scopes: string
  secret_hash: string
  secret_last4: string
  status: string
  created_at: number | string
  created_by: string | null
  rotated_at: number | string | null
  revoked_at: number | string | null
  last_used_at: number | string | null
}

const time = (v: number | string | null): number | null => (v === null ? null : Number(v))

/** The client a row holds (one mapper for both stores). */
export function machineClientOf(r: MachineClientRow): MachineClient {
  return {
    clientId: r.client_id,
    organizationId: r.organization_id,
    name: r.name,
    scopes: r.scopes.split(' ').filter(Boolean),
    secretHash: r.secret_hash,
    secretLast4: r.secret_last4,
    status: r.status === 'active' ? 'active' : 'revoked',
    createdAt: Number(r.created_at),
    createdBy: r.created_by,
    rotatedAt: time(r.rotated_at),
    revokedAt: time(r.revoked_at),
    lastUsedAt: time(r.last_used_at),
  }
}

/** The statements of both stores, in `?` placeholders (PostgreSQL's store numbers them). */
export const MACHINE_CLIENT_SQL = {
  insert: `INSERT INTO m2m_clients (client_id, organization_id, name, scopes, secret_hash, secret_last4,
    status, created_at, created_by, rotated_at, revoked_at, last_used_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, NULL)`,
  byId: 'SELECT * FROM m2m_clients WHERE client_id = ?',
  list: 'SELECT * FROM m2m_clients WHERE organization_id = ? ORDER BY created_at, client_id',
  rotate: `UPDATE m2m_clients SET secret_hash = ?, secret_last4 = ?, rotated_at = ?
    WHERE client_id = ? AND status = 'active'`,
  revoke: `UPDATE m2m_clients SET status = 'revoked', revoked_at = ? WHERE client_id = ? AND status = 'active'`,
  touch: 'UPDATE m2m_clients SET last_used_at = ? WHERE client_id = ?',
} as const

/** The insert statement's parameters for a new client. */
export function machineClientParams(c: MachineClient): unknown[] {
  return [
    c.clientId,
    c.organizationId,
    c.name,
    c.scopes.join(' '),
    c.secretHash,
    c.secretLast4,
    c.status,
    c.createdAt,
    c.createdBy,
  ]
}

export function createMachineClientStore(db: Database.Database): MachineClientStore {
  const insert = db.prepare(MACHINE_CLIENT_SQL.insert)
  const byId = db.prepare<[string], MachineClientRow>(MACHINE_CLIENT_SQL.byId)
  const list = db.prepare<[string], MachineClientRow>(MACHINE_CLIENT_SQL.list)
  const rotate = db.prepare(MACHINE_CLIENT_SQL.rotate)
  const revoke = db.prepare(MACHINE_CLIENT_SQL.revoke)
  const touch = db.prepare(MACHINE_CLIENT_SQL.touch)
  return {
    insert(client) {
      insert.run(...machineClientParams(client))
    },
    byId(clientId) {
      const row = byId.get(clientId)
      return row ? machineClientOf(row) : null
    },
    list(organizationId) {
      return list.all(organizationId).map(machineClientOf)
    },
    rotate(clientId, secretHash, secretLast4, now) {
      return rotate.run(secretHash, secretLast4, now, clientId).changes > 0
    },
    revoke(clientId, now) {
      return revoke.run(now, clientId).changes > 0
    },
    touch(clientId, now) {
      touch.run(now, clientId)
    },
  }
}
