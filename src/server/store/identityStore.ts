import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { AuditEntry, MemberRecord, SessionRecord } from './identityRecords'
import { createMemberAdminStore, type MemberAdminStore } from './memberAdminStore'
import { insertInto, sqliteCodec as codec } from './rows/codec'
import * as identityRow from './rows/identityRows'

export type { AuditEntry, AuthFactor, MemberRecord, MemberStatus, SessionRecord } from './identityRecords'

const toMember = (row: identityRow.MemberRow): MemberRecord => identityRow.memberFromRow(codec, row)
const toSession = (row: identityRow.SessionRow): SessionRecord => identityRow.sessionFromRow(codec, row)

/**
 * The accounts database's members, sessions, signing keys and audit log (+ administration's
 * queries). The SQLite store answers synchronously, the PostgreSQL store with promises: callers
 * always `await` (Awaitable).
 */
export interface IdentityStore extends MemberAdminStore {
  /**
   * A number that changes whenever the accounts database may have changed: any commit, by this
   * process or another (the users CLI, another server). The session check's cache is valid only
   * while it stays the same, so a revoke, a disable or a role change is seen at once. Absent
   * when the store cannot answer it cheaply and synchronously (PostgreSQL shared by several
   * servers): then every request's session is verified against the database (no cache).
   */
  changeStamp?(): number
  countMembers(): Awaitable<number>
  listMembers(): Awaitable<MemberRecord[]>
  memberById(id: string): Awaitable<MemberRecord | null>
  memberByEmail(email: string): Awaitable<MemberRecord | null>
  insertMember(m: MemberRecord): Awaitable<void>
  /** Changes only the fields named in `patch` (atomically: a concurrent patch of other fields is kept). */
  updateMember(
    id: string,
    patch: Partial<Pick<MemberRecord, 'name' | 'phone' | 'roles' | 'status' | 'passwordHash' | 'passwordId'>>,
    at: number,
  ): Awaitable<void>
  /**
   * `updateMember`, unless afterwards no active member would hold any of `adminRoles` (the roles
   * that may administer members): then nothing changes and the answer is false. Atomic, so two
   * administrators disabled or demoted at once (through two servers) leave one.
   */
  updateMemberKeepingAdmin(
    id: string,
    patch: Partial<Pick<MemberRecord, 'name' | 'phone' | 'roles' | 'status' | 'passwordHash' | 'passwordId'>>,
    at: number,
    adminRoles: readonly string[],
  ): Awaitable<boolean>
  insertSession(s: SessionRecord, tokenHash: string): Awaitable<void>
  sessionByTokenHash(hash: string): Awaitable<SessionRecord | null>
  sessionById(id: string): Awaitable<SessionRecord | null>
  /** Extends a session that is not revoked; false when it was revoked meanwhile (or is unknown). */
  touchSession(id: string, at: number, expiresAt: number): Awaitable<boolean>
  revokeSession(id: string, at: number): Awaitable<boolean>
  /** Revokes every live session of a member (but `exceptSessionId`); returns how many were revoked. */
  revokeMemberSessions(memberId: string, at: number, exceptSessionId?: string): Awaitable<number>
  activeSessionCount(memberId: string, at: number): Awaitable<number>
  signingKey(): Awaitable<{ kid: string; privateJwk: string; publicJwk: string } | null>
  publicKeys(): Awaitable<string[]>
  /** Stores a signing key unless one with this kid exists (two servers starting together keep one). */
  insertSigningKey(kid: string, privateJwk: string, publicJwk: string, at: number): Awaitable<void>
  audit(e: AuditEntry): Awaitable<void>
  auditLog(limit?: number): Awaitable<AuditEntry[]>
  /** Whether the member completed a sign-in (audit `login.success`) from client address `ip` since `since`. */
  signedInFrom(memberId: string, ip: string, since: number): Awaitable<boolean>
}

/**
 * Writes one audit entry through `db`, synchronously: the SQLite stores that audit inside their
 * own transaction (acknowledgements, subscriptions) use it directly.
 */
export function auditWriter(db: Database.Database): (e: AuditEntry) => void {
  const insert = db.prepare(insertInto(codec, 'identity_audit', identityRow.AUDIT_COLUMNS))
  return (e) => {
    insert.run(identityRow.auditToParams(codec, e))
  }
}

/** Members, sessions, signing keys and the audit log of the bundled identity provider. */
export function createIdentityStore(db: Database.Database): IdentityStore {
  const memberById = db.prepare<[string], identityRow.MemberRow>(
    'SELECT * FROM identity_members WHERE member_id = ?',
  )
  const memberByEmail = db.prepare<[string], identityRow.MemberRow>(
    'SELECT * FROM identity_members WHERE email = ?',
  )
  const sessionByHash = db.prepare<[string], identityRow.SessionRow>(
    'SELECT * FROM identity_sessions WHERE token_hash = ?',
  )
  const sessionById = db.prepare<[string], identityRow.SessionRow>(
    'SELECT * FROM identity_sessions WHERE session_id = ?',
  )
  // Commits by other connections (data_version) and writes through this one (total_changes).
  const stamp = db
    .prepare<[], number>(
      'SELECT (SELECT data_version FROM pragma_data_version) * 4294967296 + total_changes()',
    )
    .pluck()

  const store = {
    /**
     * A number that changes whenever the accounts database may have changed: any commit, by this
     * process or another (the users CLI, another server). The session check's cache is valid only
     * while it stays the same, so a revoke, a disable or a role change is seen at once.
     */
    changeStamp: (): number => stamp.get() ?? 0,
    countMembers: (): number =>
      (db.prepare('SELECT count(*) AS n FROM identity_members').get() as { n: number }).n,
    listMembers: (): MemberRecord[] =>
      db
        .prepare<[], identityRow.MemberRow>('SELECT * FROM identity_members ORDER BY created_at, email')
        .all()
        .map(toMember),
    memberById: (id: string): MemberRecord | null => {
      const row = memberById.get(id)
      return row ? toMember(row) : null
    },
    memberByEmail: (email: string): MemberRecord | null => {
      const row = memberByEmail.get(email.trim().toLowerCase())
      return row ? toMember(row) : null
    },
    insertMember(m: MemberRecord): void {
      db.prepare(insertInto(codec, 'identity_members', identityRow.MEMBER_COLUMNS)).run(
        identityRow.memberToParams(codec, m),
      )
    },
    updateMember(
      id: string,
      patch: Partial<
        Pick<MemberRecord, 'name' | 'phone' | 'roles' | 'status' | 'passwordHash' | 'passwordId'>
      >,
      at: number,
    ): void {
      const current = memberById.get(id)
      if (!current) return
      const next = { ...toMember(current), ...patch }
      db.prepare(
        `UPDATE identity_members SET name = ?, phone = ?, roles = ?, status = ?, password_hash = ?,
           password_id = ?, updated_at = ? WHERE member_id = ?`,
      ).run(
        next.name,
        next.phone,
        codec.jsonParam(next.roles),
        next.status,
        next.passwordHash,
        next.passwordId,
        at,
        id,
      )
    },

    insertSession(s: SessionRecord, tokenHash: string): void {
      db.prepare(insertInto(codec, 'identity_sessions', identityRow.SESSION_COLUMNS)).run(
        identityRow.sessionToParams(codec, s, tokenHash),
      )
    },
    sessionByTokenHash: (hash: string): SessionRecord | null => {
      const row = sessionByHash.get(hash)
      return row ? toSession(row) : null
    },
    sessionById: (id: string): SessionRecord | null => {
      const row = sessionById.get(id)
      return row ? toSession(row) : null
    },
    touchSession(id: string, at: number, expiresAt: number): boolean {
      return (
        db
          .prepare(
            'UPDATE identity_sessions SET last_accessed_at = ?, expires_at = ? WHERE session_id = ? AND revoked_at IS NULL',
          )
          .run(at, expiresAt, id).changes > 0
      )
    },
    revokeSession(id: string, at: number): boolean {
      return (
        db
          .prepare('UPDATE identity_sessions SET revoked_at = ? WHERE session_id = ? AND revoked_at IS NULL')
          .run(at, id).changes > 0
      )
    },
    /** Revokes every live session of a member (but `exceptSessionId`); returns how many were revoked. */
    revokeMemberSessions(memberId: string, at: number, exceptSessionId = ''): number {
      return db
        .prepare(
          `UPDATE identity_sessions SET revoked_at = ?
           WHERE member_id = ? AND revoked_at IS NULL AND expires_at > ? AND session_id <> ?`,
        )
        .run(at, memberId, at, exceptSessionId).changes
    },
    activeSessionCount: (memberId: string, at: number): number =>
      (
        db
          .prepare(
            'SELECT count(*) AS n FROM identity_sessions WHERE member_id = ? AND revoked_at IS NULL AND expires_at > ?',
          )
          .get(memberId, at) as { n: number }
      ).n,

    signingKey: (): { kid: string; privateJwk: string; publicJwk: string } | null => {
      const row = db
        .prepare(
          'SELECT kid, private_jwk, public_jwk FROM identity_signing_keys ORDER BY created_at DESC LIMIT 1',
        )
        .get() as { kid: string; private_jwk: string; public_jwk: string } | undefined
      return row ? { kid: row.kid, privateJwk: row.private_jwk, publicJwk: row.public_jwk } : null
    },
    publicKeys: (): string[] =>
      (
        db.prepare('SELECT public_jwk FROM identity_signing_keys ORDER BY created_at DESC').all() as {
          public_jwk: string
        }[]
      ).map((r) => r.public_jwk),
    insertSigningKey(kid: string, privateJwk: string, publicJwk: string, at: number): void {
      db.prepare(
        'INSERT OR IGNORE INTO identity_signing_keys (kid, private_jwk, public_jwk, created_at) VALUES (?,?,?,?)',
      ).run(kid, privateJwk, publicJwk, at)
    },

    audit: auditWriter(db),
    auditLog: (limit = 100): AuditEntry[] =>
      (
        db
          .prepare('SELECT * FROM identity_audit ORDER BY id DESC LIMIT ?')
          .all(limit) as identityRow.AuditRow[]
      ).map((r) => identityRow.auditEntryFromRow(codec, r)),
    signedInFrom: (memberId: string, ip: string, since: number): boolean =>
      db
        .prepare(
          "SELECT 1 FROM identity_audit WHERE member_id = ? AND at >= ? AND event = 'login.success' AND ip = ? LIMIT 1",
        )
        .get(memberId, since, ip) !== undefined,
  }
  /** Thrown inside the transaction to roll a change back that would leave no administrator. */
  class NoAdministratorLeft extends Error {}
  const keepingAdmin = db.transaction(
    (
      id: string,
      patch: Parameters<IdentityStore['updateMember']>[1],
      at: number,
      roles: readonly string[],
    ) => {
      store.updateMember(id, patch, at)
      const left = db
        .prepare(
          `SELECT 1 FROM identity_members WHERE status = 'active' AND EXISTS
             (SELECT 1 FROM json_each(identity_members.roles) r WHERE r.value IN (SELECT value FROM json_each(?)))`,
        )
        .get(JSON.stringify(roles))
      if (!left) throw new NoAdministratorLeft()
    },
  )
  const updateMemberKeepingAdmin: IdentityStore['updateMemberKeepingAdmin'] = (id, patch, at, adminRoles) => {
    try {
      keepingAdmin(id, patch, at, adminRoles)
      return true
    } catch (err) {
      if (err instanceof NoAdministratorLeft) return false
      throw err
    }
  }
  // Member administration's queries (search, audit pages) belong to the same store.
  return { ...store, updateMemberKeepingAdmin, ...createMemberAdminStore(db, store.memberById) }
}
