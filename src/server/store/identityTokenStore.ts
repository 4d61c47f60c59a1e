import type Database from 'better-sqlite3'
import type { AuthFactor } from './identityStore'

export interface IntermediateSessionRecord {
  memberId: string
  factors: AuthFactor[]
  sessionMinutes: number | null
  sends: number
  createdAt: number
  expiresAt: number
  consumedAt: number | null
}

export interface OtpRecord {
  id: number
  memberId: string
  codeHash: string
  salt: string
  attempts: number
  expiresAt: number
  consumedAt: number | null
  /** The phone the code was sent to when it enrols one (a member without a phone); else null. */
  phone: string | null
}

export interface ResetTokenRecord {
  memberId: string
  codeChallenge: string | null
  expiresAt: number
  usedAt: number | null
}

export interface ThrottleRecord {
  failures: number
  windowStart: number
  lockedUntil: number
}

/** The accounts database's short-lived secrets: intermediate sessions, SMS codes, reset links, throttles. */
export interface IdentityTokenStore {
  insertIntermediate(hash: string, r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>): void
  intermediate(hash: string): IntermediateSessionRecord | null
  countIntermediateSend(hash: string): void
  /** Marks an intermediate session used; false when it was already used (single use). */
  consumeIntermediate(hash: string, at: number): boolean
  /** Stores a new SMS code and retires every earlier unused code of the member. */
  replaceOtp(
    memberId: string,
    codeHash: string,
    salt: string,
    at: number,
    expiresAt: number,
    enrolPhone?: string | null,
  ): void
  latestOtp(memberId: string): OtpRecord | null
  countOtpAttempt(id: number): void
  consumeOtp(id: number, at: number): boolean
  insertResetToken(
    hash: string,
    memberId: string,
    codeChallenge: string | null,
    at: number,
    expiresAt: number,
  ): void
  resetToken(hash: string): ResetTokenRecord | null
  useResetToken(hash: string, at: number): boolean
  /** Marks every unused reset token of a member used (a reset ends all other outstanding links). */
  useMemberResetTokens(memberId: string, at: number): number
  throttle(key: string): ThrottleRecord | null
  putThrottle(key: string, r: ThrottleRecord): void
  clearThrottle(key: string): void
}

/** Short-lived secrets (intermediate sessions, SMS codes, reset tokens) and throttle counters. */
export function createIdentityTokenStore(db: Database.Database): IdentityTokenStore {
  return {
    insertIntermediate(hash: string, r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>): void {
      db.prepare(
        `INSERT INTO identity_intermediate_sessions (token_hash, member_id, factors, session_minutes, sends,
           created_at, expires_at) VALUES (?,?,?,?,0,?,?)`,
      ).run(hash, r.memberId, JSON.stringify(r.factors), r.sessionMinutes, r.createdAt, r.expiresAt)
    },
    intermediate(hash: string): IntermediateSessionRecord | null {
      const row = db
        .prepare('SELECT * FROM identity_intermediate_sessions WHERE token_hash = ?')
        .get(hash) as
        | {
            member_id: string
            factors: string
            session_minutes: number | null
            sends: number
            created_at: number
            expires_at: number
            consumed_at: number | null
          }
        | undefined
      if (!row) return null
      return {
        memberId: row.member_id,
        factors: JSON.parse(row.factors) as AuthFactor[],
        sessionMinutes: row.session_minutes,
        sends: row.sends,
        createdAt: row.created_at,
        expiresAt: row.expires_at,
        consumedAt: row.consumed_at,
      }
    },
    countIntermediateSend(hash: string): void {
      db.prepare('UPDATE identity_intermediate_sessions SET sends = sends + 1 WHERE token_hash = ?').run(hash)
    },
    /** Marks an intermediate session used; false when it was already used (single use). */
    consumeIntermediate(hash: string, at: number): boolean {
      return (
        db
          .prepare(
            'UPDATE identity_intermediate_sessions SET consumed_at = ? WHERE token_hash = ? AND consumed_at IS NULL',
          )
          .run(at, hash).changes > 0
      )
    },

    /** Stores a new SMS code and retires every earlier unused code of the member. */
    replaceOtp(
      memberId: string,
      codeHash: string,
      salt: string,
      at: number,
      expiresAt: number,
      enrolPhone: string | null = null,
    ): void {
      db.transaction(() => {
        db.prepare(
          'UPDATE identity_otp_codes SET consumed_at = ? WHERE member_id = ? AND consumed_at IS NULL',
        ).run(at, memberId)
        db.prepare(
          'INSERT INTO identity_otp_codes (member_id, code_hash, salt, attempts, created_at, expires_at, phone) VALUES (?,?,?,0,?,?,?)',
        ).run(memberId, codeHash, salt, at, expiresAt, enrolPhone)
      })()
    },
    latestOtp(memberId: string): OtpRecord | null {
      const row = db
        .prepare('SELECT * FROM identity_otp_codes WHERE member_id = ? ORDER BY id DESC LIMIT 1')
        .get(memberId) as
        | {
            id: number
            member_id: string
            code_hash: string
            salt: string
            attempts: number
            expires_at: number
            consumed_at: number | null
            phone: string | null
          }
        | undefined
      if (!row) return null
      return {
        phone: row.phone,
        id: row.id,
        memberId: row.member_id,
        codeHash: row.code_hash,
        salt: row.salt,
        attempts: row.attempts,
        expiresAt: row.expires_at,
        consumedAt: row.consumed_at,
      }
    },
    countOtpAttempt(id: number): void {
      db.prepare('UPDATE identity_otp_codes SET attempts = attempts + 1 WHERE id = ?').run(id)
    },
    consumeOtp(id: number, at: number): boolean {
      return (
        db
          .prepare('UPDATE identity_otp_codes SET consumed_at = ? WHERE id = ? AND consumed_at IS NULL')
          .run(at, id).changes > 0
      )
    },

    insertResetToken(
      hash: string,
      memberId: string,
      codeChallenge: string | null,
      at: number,
      expiresAt: number,
    ) {
      db.prepare(
        'INSERT INTO identity_reset_tokens (token_hash, member_id, code_challenge, created_at, expires_at) VALUES (?,?,?,?,?)',
      ).run(hash, memberId, codeChallenge, at, expiresAt)
    },
    resetToken(hash: string): ResetTokenRecord | null {
      const row = db.prepare('SELECT * FROM identity_reset_tokens WHERE token_hash = ?').get(hash) as
        | { member_id: string; code_challenge: string | null; expires_at: number; used_at: number | null }
        | undefined
      if (!row) return null
      return {
        memberId: row.member_id,
        codeChallenge: row.code_challenge,
        expiresAt: row.expires_at,
        usedAt: row.used_at,
      }
    },
    useResetToken(hash: string, at: number): boolean {
      return (
        db
          .prepare('UPDATE identity_reset_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL')
          .run(at, hash).changes > 0
      )
    },

    /** Marks every unused reset token of a member used (a reset ends all other outstanding links). */
    useMemberResetTokens(memberId: string, at: number): number {
      return db
        .prepare('UPDATE identity_reset_tokens SET used_at = ? WHERE member_id = ? AND used_at IS NULL')
        .run(at, memberId).changes
    },

    throttle(key: string): ThrottleRecord | null {
      const row = db.prepare('SELECT * FROM identity_throttle WHERE key = ?').get(key) as
        { failures: number; window_start: number; locked_until: number } | undefined
      return row
        ? { failures: row.failures, windowStart: row.window_start, lockedUntil: row.locked_until }
        : null
    },
    putThrottle(key: string, r: ThrottleRecord): void {
      db.prepare(
        `INSERT INTO identity_throttle (key, failures, window_start, locked_until) VALUES (?,?,?,?)
         ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
           locked_until = excluded.locked_until`,
      ).run(key, r.failures, r.windowStart, r.lockedUntil)
    },
    clearThrottle(key: string): void {
      db.prepare('DELETE FROM identity_throttle WHERE key = ?').run(key)
    },
  }
}
