import type {
  IdentityTokenStore,
  IntermediateSessionRecord,
  OtpRecord,
  ResetTokenRecord,
  ThrottleOutcome,
  ThrottleRecord,
  ThrottleRule,
} from '../../identityTokenStore'
import type { PgDatabase } from '../pgDatabase'
import { nulSafe, storableText } from './nulSafe'
import { insertInto, pgCodec as codec } from '../../rows/codec'
import * as tokenRows from '../../rows/identityTokenRows'
import { retryConflicts } from './retryConflicts'
import { failOnce, RESERVATION_BUSY_MS, reserveOnce, settleOnce } from '../../throttleCounting'

interface ThrottleRow extends tokenRows.ThrottleRow {
  key: string
  /** Inserted by this statement (a key without a counter yet). */
  inserted: boolean
}

/**
 * Short-lived secrets (intermediate sessions, SMS codes, reset tokens) and throttle counters in the
 * shared PostgreSQL database. Every read-modify-write is one statement or one transaction holding
 * the rows it changes, so several servers hitting the same member count exactly as one would.
 */
export function createPgIdentityTokenStore(pg: PgDatabase): IdentityTokenStore {
  const db = nulSafe(pg)

  const lockedFor = async (keys: readonly string[], now: number): Promise<number> => {
    if (keys.length === 0) return 0
    const row = await db.one<{ until: number | null }>(
      'SELECT max(locked_until) AS until FROM identity_throttle WHERE key = ANY($1::text[])',
      [[...keys]],
    )
    return Math.max(0, (row?.until ?? 0) - now)
  }

  /**
   * One transaction that first holds the row of every key (stored form) it reads or counts — a key
   * without a counter gets a placeholder row, removed again unless written — always in key order:
   * steps on the same keys through any server run one after the other. `step` reads the held
   * counters (null: none) and names the ones to write. A deadlock or serialisation failure is retried.
   */
  const withThrottleRows = <T>(
    keys: readonly string[],
    step: (held: ReadonlyMap<string, ThrottleRecord | null>) => {
      result: T
      write: Map<string, ThrottleRecord>
    },
  ): Promise<T> =>
    retryConflicts(() =>
      db.tx(async () => {
        const rows = await db.query<ThrottleRow>(
          `INSERT INTO identity_throttle AS t (key, failures, window_start, locked_until)
           SELECT k, 0, 0, 0 FROM unnest($1::text[]) AS k ORDER BY k
           ON CONFLICT (key) DO UPDATE SET failures = t.failures
           RETURNING t.key, t.failures, t.window_start, t.locked_until, (t.xmax = 0) AS inserted`,
          [[...new Set(keys)].sort()],
        )
        const held = new Map(rows.map((r) => [r.key, r.inserted ? null : tokenRows.throttleFromRow(r)]))
        const { result, write } = step(held)
        const placeholders = rows.filter((r) => r.inserted && !write.has(r.key)).map((r) => r.key)
        if (write.size > 0) {
          const changed = [...write]
          await db.run(
            `UPDATE identity_throttle AS t SET failures = u.failures, window_start = u.window_start,
               locked_until = u.locked_until
             FROM unnest($1::text[], $2::integer[], $3::bigint[], $4::bigint[])
               AS u (key, failures, window_start, locked_until)
             WHERE t.key = u.key`,
            [
              changed.map(([k]) => k),
              changed.map(([, r]) => r.failures),
              changed.map(([, r]) => r.windowStart),
              changed.map(([, r]) => r.lockedUntil),
            ],
          )
        }
        if (placeholders.length > 0)
          await db.run('DELETE FROM identity_throttle WHERE key = ANY($1::text[])', [placeholders])
        return result
      }),
    )

  return {
    async insertIntermediate(
      hash: string,
      r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>,
    ): Promise<void> {
      await db.run(
        insertInto(codec, 'identity_intermediate_sessions', tokenRows.INTERMEDIATE_COLUMNS),
        tokenRows.intermediateToParams(codec, hash, r),
      )
    },
    async intermediate(hash: string): Promise<IntermediateSessionRecord | null> {
      const row = await db.one<tokenRows.IntermediateRow>(
        'SELECT * FROM identity_intermediate_sessions WHERE token_hash = $1',
        [hash],
      )
      return row ? tokenRows.intermediateFromRow(codec, row) : null
    },
    /** One statement: parallel sends re-check `sends` on the locked row, so never more than `maxSends`. */
    async countIntermediateSend(hash: string, maxSends: number): Promise<boolean> {
      const n = await db.run(
        'UPDATE identity_intermediate_sessions SET sends = sends + 1 WHERE token_hash = $1 AND sends < $2',
        [hash, maxSends],
      )
      return n > 0
    },
    async consumeIntermediate(hash: string, at: number): Promise<boolean> {
      const n = await db.run(
        'UPDATE identity_intermediate_sessions SET consumed_at = $1 WHERE token_hash = $2 AND consumed_at IS NULL',
        [at, hash],
      )
      return n > 0
    },

    /**
     * Retires the member's unused codes and stores the new one in one transaction holding the
     * member's row, so two sends at once leave exactly one usable code (the later).
     */
    replaceOtp(
      memberId: string,
      codeHash: string,
      salt: string,
      at: number,
      expiresAt: number,
      enrolPhone: string | null = null,
    ): Promise<void> {
      return db.tx(async () => {
        await db.run('SELECT 1 FROM identity_members WHERE member_id = $1 FOR NO KEY UPDATE', [memberId])
        await db.run(
          'UPDATE identity_otp_codes SET consumed_at = $1 WHERE member_id = $2 AND consumed_at IS NULL',
          [at, memberId],
        )
        await db.run(
          `INSERT INTO identity_otp_codes (member_id, code_hash, salt, attempts, created_at, expires_at, phone)
           VALUES ($1,$2,$3,0,$4,$5,$6)`,
          [memberId, codeHash, salt, at, expiresAt, enrolPhone],
        )
      })
    },
    async latestOtp(memberId: string): Promise<OtpRecord | null> {
      const row = await db.one<tokenRows.OtpRow>(
        'SELECT * FROM identity_otp_codes WHERE member_id = $1 ORDER BY id DESC LIMIT 1',
        [memberId],
      )
      return row ? tokenRows.otpFromRow(row) : null
    },
    /**
     * One statement: a parallel attempt waits for the row and re-checks `attempts`, `consumed_at`
     * and `expires_at` on the version it then sees, so attempts never pass `maxAttempts`.
     */
    async takeOtpAttempt(memberId: string, maxAttempts: number, now: number): Promise<OtpRecord | null> {
      const row = await db.one<tokenRows.OtpRow>(
        `UPDATE identity_otp_codes SET attempts = attempts + 1
         WHERE id = (SELECT id FROM identity_otp_codes WHERE member_id = $1 ORDER BY id DESC LIMIT 1)
           AND consumed_at IS NULL AND expires_at > $3 AND attempts < $2
         RETURNING *`,
        [memberId, maxAttempts, now],
      )
      return row ? tokenRows.otpFromRow(row) : null
    },
    async consumeOtp(id: number, at: number): Promise<boolean> {
      const n = await db.run(
        'UPDATE identity_otp_codes SET consumed_at = $1 WHERE id = $2 AND consumed_at IS NULL',
        [at, id],
      )
      return n > 0
    },

    async insertResetToken(
      hash: string,
      memberId: string,
      codeChallenge: string | null,
      at: number,
      expiresAt: number,
    ): Promise<void> {
      await db.run(
        `INSERT INTO identity_reset_tokens (token_hash, member_id, code_challenge, created_at, expires_at)
         VALUES ($1,$2,$3,$4,$5)`,
        [hash, memberId, codeChallenge, at, expiresAt],
      )
    },
    async resetToken(hash: string): Promise<ResetTokenRecord | null> {
      const row = await db.one<tokenRows.ResetTokenRow>(
        'SELECT * FROM identity_reset_tokens WHERE token_hash = $1',
        [hash],
      )
      return row ? tokenRows.resetTokenFromRow(row) : null
    },
    async useResetToken(hash: string, at: number): Promise<boolean> {
      const n = await db.run(
        'UPDATE identity_reset_tokens SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL',
        [at, hash],
      )
      return n > 0
    },
    useMemberResetTokens(memberId: string, at: number): Promise<number> {
      return db.run(
        'UPDATE identity_reset_tokens SET used_at = $1 WHERE member_id = $2 AND used_at IS NULL',
        [at, memberId],
      )
    },

    async throttle(key: string): Promise<ThrottleRecord | null> {
      const row = await db.one<ThrottleRow>(
        'SELECT failures, window_start, locked_until FROM identity_throttle WHERE key = $1',
        [key],
      )
      return row ? tokenRows.throttleFromRow(row) : null
    },
    lockedFor,
    /** One withThrottleRows transaction: the locks are read and the failures counted together. */
    throttleAttempt(
      checkKeys: readonly string[],
      countRules: readonly ThrottleRule[],
      now: number,
    ): Promise<ThrottleOutcome> {
      // Keys as stored, so the rows read back match them (a NUL in an e-mail address).
      const check = checkKeys.map(storableText)
      const count = countRules.map((r) => ({ ...r, key: storableText(r.key) }))
      // Nothing to count: a read of the locks is the whole attempt.
      if (count.length === 0) return lockedFor(check, now).then((left) => ({ lockedFor: left, locked: [] }))
      return withThrottleRows([...check, ...count.map((r) => r.key)], (held) => {
        const write = new Map<string, ThrottleRecord>()
        const left = Math.max(0, ...check.map((k) => (held.get(k)?.lockedUntil ?? 0) - now))
        const locked: string[] = []
        if (left === 0) {
          count.forEach((rule, i) => {
            const { next, locked: didLock } = failOnce(
              write.get(rule.key) ?? held.get(rule.key) ?? null,
              rule,
              now,
            )
            write.set(rule.key, next)
            // Named as the caller named it.
            if (didLock) locked.push(countRules[i]?.key ?? rule.key)
          })
        }
        return { result: { lockedFor: left, locked }, write }
      })
    },
    throttleReserve(checkKeys: readonly string[], countRules: readonly ThrottleRule[], now: number) {
      const check = checkKeys.map(storableText)
      const count = countRules.map((r) => ({ ...r, key: storableText(r.key) }))
      if (count.length === 0) return lockedFor(check, now)
      return withThrottleRows([...check, ...count.map((r) => r.key)], (held) => {
        const write = new Map<string, ThrottleRecord>()
        const left = Math.max(0, ...check.map((k) => (held.get(k)?.lockedUntil ?? 0) - now))
        if (left > 0) return { result: left, write }
        for (const rule of count) {
          const next = reserveOnce(write.get(rule.key) ?? held.get(rule.key) ?? null, rule, now)
          if (!next) return { result: RESERVATION_BUSY_MS, write: new Map() }
          write.set(rule.key, next)
        }
        return { result: 0, write }
      })
    },
    throttleSettle(countRules: readonly ThrottleRule[], startedAt: number, failed: boolean, now: number) {
      const count = countRules.map((r) => ({ ...r, key: storableText(r.key) }))
      if (count.length === 0) return Promise.resolve([])
      return withThrottleRows(
        count.map((r) => r.key),
        (held) => {
          const write = new Map<string, ThrottleRecord>()
          const locked: string[] = []
          count.forEach((rule, i) => {
            const r = write.get(rule.key) ?? held.get(rule.key) ?? null
            const settled = settleOnce(r, rule, startedAt, failed, now)
            if (!settled) return
            write.set(rule.key, settled.next)
            if (settled.locked) locked.push(countRules[i]?.key ?? rule.key)
          })
          return { result: locked, write }
        },
      )
    },
    async clearThrottle(key: string): Promise<void> {
      await db.run('DELETE FROM identity_throttle WHERE key = $1', [key])
    },
  }
}
