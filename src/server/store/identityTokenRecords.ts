// The records of the short-lived identity secrets, apart from the stores that read and write them,
// so the stores and their row mappers (rows/identityTokenRows.ts) both depend on this file.
import type { AuthFactor } from './identityRecords'

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
