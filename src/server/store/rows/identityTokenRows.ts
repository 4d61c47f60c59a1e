import type { AuthFactor } from '../identityRecords'
import type { IntermediateSessionRecord, OtpRecord, ResetTokenRecord } from '../identityTokenRecords'
import type { ThrottleRecord } from '../throttleCounting'
import type { ColumnCodec } from './codec'

// The short-lived identity secrets' rows (intermediate sessions, SMS codes, reset tokens, throttle
// counters) as both stores read them, and their mapping to records.

export interface IntermediateRow {
  member_id: string
  factors: unknown
  session_minutes: number | null
  sends: number
  created_at: number
  expires_at: number
  consumed_at: number | null
}

/** The columns of a new intermediate session (no send counted, not consumed). */
export const INTERMEDIATE_COLUMNS = [
  'token_hash',
  'member_id',
  'factors',
  'session_minutes',
  'sends',
  'created_at',
  'expires_at',
] as const

export function intermediateToParams(
  c: ColumnCodec,
  hash: string,
  r: Omit<IntermediateSessionRecord, 'sends' | 'consumedAt'>,
): unknown[] {
  return [hash, r.memberId, c.jsonParam(r.factors), r.sessionMinutes, 0, r.createdAt, r.expiresAt]
}

export function intermediateFromRow(c: ColumnCodec, row: IntermediateRow): IntermediateSessionRecord {
  return {
    memberId: row.member_id,
    factors: c.json(row.factors) as AuthFactor[],
    sessionMinutes: row.session_minutes,
    sends: row.sends,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    consumedAt: row.consumed_at,
  }
}

export interface OtpRow {
  id: number
  member_id: string
  code_hash: string
  salt: string
  attempts: number
  expires_at: number
  consumed_at: number | null
  phone: string | null
}

export const otpFromRow = (row: OtpRow): OtpRecord => ({
  id: row.id,
  memberId: row.member_id,
  codeHash: row.code_hash,
  salt: row.salt,
  attempts: row.attempts,
  expiresAt: row.expires_at,
  consumedAt: row.consumed_at,
  phone: row.phone,
})

export interface ResetTokenRow {
  member_id: string
  code_challenge: string | null
  expires_at: number
  used_at: number | null
}

export const resetTokenFromRow = (row: ResetTokenRow): ResetTokenRecord => ({
  memberId: row.member_id,
  codeChallenge: row.code_challenge,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
})

export interface ThrottleRow {
  failures: number
  window_start: number
  locked_until: number
}

export const throttleFromRow = (row: ThrottleRow): ThrottleRecord => ({
  failures: row.failures,
  windowStart: row.window_start,
  lockedUntil: row.locked_until,
})
