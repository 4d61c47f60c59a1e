import type Database from 'better-sqlite3'
import type { Awaitable } from './Awaitable'
import type { IntermediateSessionRecord, OtpRecord, ResetTokenRecord } from './identityTokenRecords'
import { insertInto, sqliteCodec as codec } from './rows/codec'
import * as tokenRows from './rows/identityTokenRows'
import {
  failOnce,
  RESERVATION_BUSY_MS,
  reserveOnce,
  settleOnce,
  type ThrottleRecord,
  type ThrottleRule,
} from './throttleCounting'

export type { IntermediateSessionRecord, OtpRecord, ResetTokenRecord } from './identityTokenRecords'

export type { ThrottleRecord, ThrottleRule } from './throttleCounting'

/** What one throttled attempt found and did. */
export interface ThrottleOutcome {
  /** Milliseconds left on the longest lock among the checked keys; > 0: refused, nothing counted. */
  lockedFor: number
  /** The keys this attempt locked (their failure reached `max`). */
  locked: string[]
}

/**
 * The accounts database's short-lived secrets: intermediate sessions, SMS codes, reset links,
 * throttles. Every read-modify-write is one method, so the PostgreSQL store makes it atomic across
 * servers (one statement or one transaction) and the SQLite store in one transaction.
 */
export interface IdentityTokenStore {
  insertIntermediate(
    hash: string,
    r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>,
  ): Awaitable<void>
  intermediate(hash: string): Awaitable<IntermediateSessionRecord | null>
  /** Counts one SMS sent for an intermediate session; false (nothing counted) once `maxSends` were sent. */
  countIntermediateSend(hash: string, maxSends: number): Awaitable<boolean>
  /** Marks an intermediate session used; false when it was already used (single use). */
  consumeIntermediate(hash: string, at: number): Awaitable<boolean>
  /** Stores a new SMS code and retires every earlier unused code of the member (one transaction). */
  replaceOtp(
    memberId: string,
    codeHash: string,
    salt: string,
    at: number,
    expiresAt: number,
    enrolPhone?: string | null,
  ): Awaitable<void>
  /** The member's latest code, whatever its state. */
  latestOtp(memberId: string): Awaitable<OtpRecord | null>
  /**
   * One verification attempt on the member's latest code, atomically: when that code is unused,
   * unexpired (`expiresAt > now`) and has had fewer than `maxAttempts` attempts, its attempts go
   * up by one and the code is answered with the count including this attempt; otherwise null
   * (no usable code) and nothing changes. Parallel attempts never exceed `maxAttempts`.
   */
  takeOtpAttempt(memberId: string, maxAttempts: number, now: number): Awaitable<OtpRecord | null>
  /** Marks a code used; false when it was already used (single use). */
  consumeOtp(id: number, at: number): Awaitable<boolean>
  insertResetToken(
    hash: string,
    memberId: string,
    codeChallenge: string | null,
    at: number,
    expiresAt: number,
  ): Awaitable<void>
  resetToken(hash: string): Awaitable<ResetTokenRecord | null>
  /** Marks a reset token used; false when it was already used (single use). */
  useResetToken(hash: string, at: number): Awaitable<boolean>
  /** Marks every unused reset token of a member used (a reset ends all other outstanding links). */
  useMemberResetTokens(memberId: string, at: number): Awaitable<number>
  /** A throttle counter as stored (tests, diagnostics); null when none. */
  throttle(key: string): Awaitable<ThrottleRecord | null>
  /** Milliseconds left on the longest lock among `keys` at `now`; 0 when none is locked. */
  lockedFor(keys: readonly string[], now: number): Awaitable<number>
  /**
   * One throttled attempt, atomically (all servers count into the same counters): when any of
   * `check` is locked at `now`, answers the time left and counts nothing; otherwise counts one
   * failure for every rule of `count` and answers the keys it locked. Counting: a failure outside
   * the key's window (`now - windowStart >= windowMs`) starts a new window at 1; the failure that
   * reaches `max` locks the key until `now + lockMs` and starts the count again at 0 (window = now).
   */
  throttleAttempt(
    check: readonly string[],
    count: readonly ThrottleRule[],
    now: number,
  ): Awaitable<ThrottleOutcome>
  /**
   * Reserves one attempt whose outcome is known only after a slow check (a password, a code),
   * atomically: when any of `check` is locked, answers the time left and counts nothing; when a
   * rule of `count` has all its `max` slots of the window taken (failures plus attempts still in
   * flight), answers RESERVATION_BUSY_MS and counts nothing; otherwise takes one slot of every
   * rule (answers 0). Nothing locks here: settle the attempt with throttleSettle.
   */
  throttleReserve(check: readonly string[], count: readonly ThrottleRule[], now: number): Awaitable<number>
  /**
   * Settles attempts reserved at `startedAt` (throttleReserve), atomically: a success gives each
   * rule's slot back; a failure keeps it, and a rule whose window then holds `max` locks its key
   * (answered) until `now + lockMs`.
   */
  throttleSettle(
    count: readonly ThrottleRule[],
    startedAt: number,
    failed: boolean,
    now: number,
  ): Awaitable<string[]>
  clearThrottle(key: string): Awaitable<void>
}

/** Short-lived secrets (intermediate sessions, SMS codes, reset tokens) and throttle counters. */
export function createIdentityTokenStore(db: Database.Database): IdentityTokenStore {
  const latestOtpRow = db.prepare<[string], tokenRows.OtpRow>(
    'SELECT * FROM identity_otp_codes WHERE member_id = ? ORDER BY id DESC LIMIT 1',
  )
  const latestOtp = (memberId: string): OtpRecord | null => {
    const row = latestOtpRow.get(memberId)
    return row ? tokenRows.otpFromRow(row) : null
  }
  const countAttempt = db.prepare('UPDATE identity_otp_codes SET attempts = attempts + 1 WHERE id = ?')
  const takeOtpAttempt = db.transaction(
    (memberId: string, maxAttempts: number, now: number): OtpRecord | null => {
      const otp = latestOtp(memberId)
      if (!otp || otp.consumedAt !== null || otp.expiresAt <= now || otp.attempts >= maxAttempts) return null
      countAttempt.run(otp.id)
      return { ...otp, attempts: otp.attempts + 1 }
    },
  )

  const throttleRow = db.prepare<[string], tokenRows.ThrottleRow>(
    'SELECT failures, window_start, locked_until FROM identity_throttle WHERE key = ?',
  )
  const throttle = (key: string): ThrottleRecord | null => {
    const row = throttleRow.get(key)
    return row ? tokenRows.throttleFromRow(row) : null
  }
  const putThrottle = db.prepare(
    `INSERT INTO identity_throttle (key, failures, window_start, locked_until) VALUES (?,?,?,?)
     ON CONFLICT(key) DO UPDATE SET failures = excluded.failures, window_start = excluded.window_start,
       locked_until = excluded.locked_until`,
  )
  const lockedFor = (keys: readonly string[], now: number): number =>
    Math.max(0, ...keys.map((key) => (throttle(key)?.lockedUntil ?? 0) - now))
  /** One failure of `rule` at `now`; true when it locked the key. */
  const fail = (rule: ThrottleRule, now: number): boolean => {
    const { next, locked } = failOnce(throttle(rule.key), rule, now)
    putThrottle.run(rule.key, next.failures, next.windowStart, next.lockedUntil)
    return locked
  }
  const throttleReserve = db.transaction(
    (check: readonly string[], count: readonly ThrottleRule[], now: number): number => {
      const left = lockedFor(check, now)
      if (left > 0) return left
      const taken = count.map((rule) => reserveOnce(throttle(rule.key), rule, now))
      if (taken.some((next) => next === null)) return RESERVATION_BUSY_MS
      count.forEach((rule, i) => {
        const next = taken[i]
        if (next) putThrottle.run(rule.key, next.failures, next.windowStart, next.lockedUntil)
      })
      return 0
    },
  )
  const throttleSettle = db.transaction(
    (count: readonly ThrottleRule[], startedAt: number, failed: boolean, now: number): string[] =>
      count.flatMap((rule) => {
        const settled = settleOnce(throttle(rule.key), rule, startedAt, failed, now)
        if (!settled) return []
        const { next, locked } = settled
        putThrottle.run(rule.key, next.failures, next.windowStart, next.lockedUntil)
        return locked ? [rule.key] : []
      }),
  )
  const throttleAttempt = db.transaction(
    (check: readonly string[], count: readonly ThrottleRule[], now: number): ThrottleOutcome => {
      const left = lockedFor(check, now)
      if (left > 0) return { lockedFor: left, locked: [] }
      return { lockedFor: 0, locked: count.filter((rule) => fail(rule, now)).map((rule) => rule.key) }
    },
  )

  return {
    insertIntermediate(hash: string, r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>): void {
      db.prepare(insertInto(codec, 'identity_intermediate_sessions', tokenRows.INTERMEDIATE_COLUMNS)).run(
        tokenRows.intermediateToParams(codec, hash, r),
      )
    },
    intermediate(hash: string): IntermediateSessionRecord | null {
      const row = db
        .prepare('SELECT * FROM identity_intermediate_sessions WHERE token_hash = ?')
        .get(hash) as tokenRows.IntermediateRow | undefined
      return row ? tokenRows.intermediateFromRow(codec, row) : null
    },
    countIntermediateSend(hash: string, maxSends: number): boolean {
      return (
        db
          .prepare(
            'UPDATE identity_intermediate_sessions SET sends = sends + 1 WHERE token_hash = ? AND sends < ?',
          )
          .run(hash, maxSends).changes > 0
      )
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
    latestOtp: (memberId: string): OtpRecord | null => latestOtp(memberId),
    takeOtpAttempt: (memberId: string, maxAttempts: number, now: number): OtpRecord | null =>
      takeOtpAttempt(memberId, maxAttempts, now),
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
        tokenRows.ResetTokenRow | undefined
      return row ? tokenRows.resetTokenFromRow(row) : null
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

    throttle: (key: string): ThrottleRecord | null => throttle(key),
    lockedFor: (keys: readonly string[], now: number): number => lockedFor(keys, now),
    throttleAttempt: (
      check: readonly string[],
      count: readonly ThrottleRule[],
      now: number,
    ): ThrottleOutcome => throttleAttempt(check, count, now),
    throttleReserve: (check: readonly string[], count: readonly ThrottleRule[], now: number): number =>
      throttleReserve(check, count, now),
    throttleSettle: (
      count: readonly ThrottleRule[],
      startedAt: number,
      failed: boolean,
      now: number,
    ): string[] => throttleSettle(count, startedAt, failed, now),
    clearThrottle(key: string): void {
      db.prepare('DELETE FROM identity_throttle WHERE key = ?').run(key)
    },
  }
}
