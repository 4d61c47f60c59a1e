import type { AuditEntry, IdentityStore, MemberRecord, SessionRecord } from '../../identityStore'
import type { PgDatabase } from '../pgDatabase'
import { createPgMemberAdminStore } from './pgMemberAdminStore'
import { insertInto, pgCodec as codec } from '../../rows/codec'
import * as identityRow from '../../rows/identityRows'
import { pgAudit } from './pgAudit'
import { nulSafe } from './nulSafe'
import { retryConflicts } from './retryConflicts'

/** Thrown inside the transaction to roll a change back that would leave no administrator. */
class NoAdministratorLeft extends Error {}

type MemberPatch = Partial<
  Pick<MemberRecord, 'name' | 'phone' | 'roles' | 'status' | 'passwordHash' | 'passwordId'>
>

/**
 * Members, sessions, signing keys and the audit log of the bundled identity provider in the shared
 * PostgreSQL database. It has no synchronous change stamp: other servers write here too, so the
 * session check reads the session every time (nothing cached outlives a revoke elsewhere).
 */
export function createPgIdentityStore(pg: PgDatabase): IdentityStore {
  const db = nulSafe(pg)
  const memberById = async (id: string): Promise<MemberRecord | null> => {
    const row = await db.one<identityRow.MemberRow>('SELECT * FROM identity_members WHERE member_id = $1', [
      id,
    ])
    return row ? identityRow.memberFromRow(codec, row) : null
  }
  const sessionWhere = async (column: 'token_hash' | 'session_id', value: string) => {
    const row = await db.one<identityRow.SessionRow>(`SELECT * FROM identity_sessions WHERE ${column} = $1`, [
      value,
    ])
    return row ? identityRow.sessionFromRow(codec, row) : null
  }

  const store = {
    async countMembers(): Promise<number> {
      const row = await db.one<{ n: number }>('SELECT count(*) AS n FROM identity_members')
      return row?.n ?? 0
    },
    async listMembers(): Promise<MemberRecord[]> {
      const rows = await db.query<identityRow.MemberRow>(
        'SELECT * FROM identity_members ORDER BY created_at, email',
      )
      return rows.map((r) => identityRow.memberFromRow(codec, r))
    },
    memberById,
    async memberByEmail(email: string): Promise<MemberRecord | null> {
      const row = await db.one<identityRow.MemberRow>('SELECT * FROM identity_members WHERE email = $1', [
        email.trim().toLowerCase(),
      ])
      return row ? identityRow.memberFromRow(codec, row) : null
    },
    async insertMember(m: MemberRecord): Promise<void> {
      await db.run(
        insertInto(codec, 'identity_members', identityRow.MEMBER_COLUMNS),
        identityRow.memberToParams(codec, m),
      )
    },
    /** Only the fields in `patch` change (one statement: a concurrent update of another field stays). */
    async updateMember(id: string, patch: MemberPatch, at: number): Promise<void> {
      const has = (k: keyof MemberPatch) => Object.hasOwn(patch, k) && patch[k] !== undefined
      await db.run(
        `UPDATE identity_members SET
           name = CASE WHEN $2::boolean THEN $3::text ELSE name END,
           phone = CASE WHEN $4::boolean THEN $5::text ELSE phone END,
           roles = CASE WHEN $6::boolean THEN $7::jsonb ELSE roles END,
           status = CASE WHEN $8::boolean THEN $9::text ELSE status END,
           password_hash = CASE WHEN $10::boolean THEN $11::text ELSE password_hash END,
           password_id = CASE WHEN $12::boolean THEN $13::text ELSE password_id END,
           updated_at = $14::bigint
         WHERE member_id = $1`,
        [
          id,
          has('name'),
          patch.name ?? null,
          has('phone'),
          patch.phone ?? null,
          has('roles'),
          patch.roles === undefined ? null : codec.jsonParam(patch.roles),
          has('status'),
          patch.status ?? null,
          has('passwordHash'),
          patch.passwordHash ?? null,
          has('passwordId'),
          patch.passwordId ?? null,
          at,
        ],
      )
    },

    async insertSession(s: SessionRecord, tokenHash: string): Promise<void> {
      await db.run(
        insertInto(codec, 'identity_sessions', identityRow.SESSION_COLUMNS),
        identityRow.sessionToParams(codec, s, tokenHash),
      )
    },
    sessionByTokenHash: (hash: string): Promise<SessionRecord | null> => sessionWhere('token_hash', hash),
    sessionById: (id: string): Promise<SessionRecord | null> => sessionWhere('session_id', id),
    /** Extends a session that is not revoked; false when it was revoked meanwhile (or is unknown). */
    async touchSession(id: string, at: number, expiresAt: number): Promise<boolean> {
      const n = await db.run(
        `UPDATE identity_sessions SET last_accessed_at = $1, expires_at = $2
         WHERE session_id = $3 AND revoked_at IS NULL`,
        [at, expiresAt, id],
      )
      return n > 0
    },
    async revokeSession(id: string, at: number): Promise<boolean> {
      const n = await db.run(
        'UPDATE identity_sessions SET revoked_at = $1 WHERE session_id = $2 AND revoked_at IS NULL',
        [at, id],
      )
      return n > 0
    },
    /** Revokes every live session of a member (but `exceptSessionId`); returns how many were revoked. */
    revokeMemberSessions(memberId: string, at: number, exceptSessionId = ''): Promise<number> {
      return db.run(
        `UPDATE identity_sessions SET revoked_at = $1
         WHERE member_id = $2 AND revoked_at IS NULL AND expires_at > $1 AND session_id <> $3`,
        [at, memberId, exceptSessionId],
      )
    },
    async activeSessionCount(memberId: string, at: number): Promise<number> {
      const row = await db.one<{ n: number }>(
        'SELECT count(*) AS n FROM identity_sessions WHERE member_id = $1 AND revoked_at IS NULL AND expires_at > $2',
        [memberId, at],
      )
      return row?.n ?? 0
    },

    async signingKey(): Promise<{ kid: string; privateJwk: string; publicJwk: string } | null> {
      const row = await db.one<{ kid: string; private_jwk: string; public_jwk: string }>(
        'SELECT kid, private_jwk, public_jwk FROM identity_signing_keys ORDER BY created_at DESC, kid LIMIT 1',
      )
      return row ? { kid: row.kid, privateJwk: row.private_jwk, publicJwk: row.public_jwk } : null
    },
    async publicKeys(): Promise<string[]> {
      const rows = await db.query<{ public_jwk: string }>(
        'SELECT public_jwk FROM identity_signing_keys ORDER BY created_at DESC, kid',
      )
      return rows.map((r) => r.public_jwk)
    },
    /** Two servers creating the first key together: the first insert wins, the other is ignored. */
    async insertSigningKey(kid: string, privateJwk: string, publicJwk: string, at: number): Promise<void> {
      await db.run(
        `INSERT INTO identity_signing_keys (kid, private_jwk, public_jwk, created_at) VALUES ($1,$2,$3,$4)
         ON CONFLICT (kid) DO NOTHING`,
        [kid, privateJwk, publicJwk, at],
      )
    },

    audit: (e: AuditEntry): Promise<void> => pgAudit(db, e),
    async auditLog(limit = 100): Promise<AuditEntry[]> {
      const rows = await db.query<identityRow.AuditRow>(
        'SELECT * FROM identity_audit ORDER BY id DESC LIMIT $1',
        [limit],
      )
      return rows.map((r) => identityRow.auditEntryFromRow(codec, r))
    },
    async signedInFrom(memberId: string, ip: string, since: number): Promise<boolean> {
      const row = await db.one<{ one: number }>(
        `SELECT 1 AS one FROM identity_audit WHERE member_id = $1 AND at >= $2 AND event = 'login.success'
           AND ip = $3 LIMIT 1`,
        [memberId, since, ip],
      )
      return row !== undefined
    },
  }
  /**
   * The active administrators' rows are taken first (in id order), so changes that may remove one
   * run one after another across servers; the second sees the first's result and is refused.
   */
  const updateMemberKeepingAdmin = async (
    id: string,
    patch: MemberPatch,
    at: number,
    adminRoles: readonly string[],
  ): Promise<boolean> => {
    const admins = `FROM identity_members WHERE status = 'active' AND roles ?| $1::text[]`
    try {
      await retryConflicts(() =>
        db.tx(async () => {
          await db.query(`SELECT member_id ${admins} ORDER BY member_id FOR UPDATE`, [adminRoles])
          await store.updateMember(id, patch, at)
          if (!(await db.one(`SELECT 1 AS one ${admins} LIMIT 1`, [adminRoles])))
            throw new NoAdministratorLeft()
        }),
      )
      return true
    } catch (err) {
      if (err instanceof NoAdministratorLeft) return false
      throw err
    }
  }
  // Member administration's queries (search, audit pages) belong to the same store.
  return { ...store, updateMemberKeepingAdmin, ...createPgMemberAdminStore(db, memberById) }
}
