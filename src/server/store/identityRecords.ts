// The identity records every accounts store shares (members, sessions, audit), apart from the stores
// that read and write them, so identityStore and memberAdminStore both depend on this file and not
// on each other.

/** One authentication factor as Stytch reports it on a member session. */
export interface AuthFactor {
  delivery_method: 'email' | 'sms' | 'knowledge'
  type: 'password' | 'otp' | 'password_reset'
  last_authenticated_at: string
  email_factor?: { email_id: string; email_address: string }
  phone_number_factor?: { phone_id: string; phone_number: string }
  sequence_order: 'PRIMARY' | 'SECONDARY'
}

export type MemberStatus = 'active' | 'inactive'

export interface MemberRecord {
  memberId: string
  organizationId: string
  email: string
  name: string
  phone: string | null
  roles: string[]
  status: MemberStatus
  passwordHash: string | null
  passwordId: string | null
  createdAt: number
  updatedAt: number
}

export interface SessionRecord {
  sessionId: string
  memberId: string
  factors: AuthFactor[]
  startedAt: number
  lastAccessedAt: number
  expiresAt: number
  revokedAt: number | null
}

export interface AuditEntry {
  at: number
  event: string
  /** Who acted when it was not the member themselves (an administrator); null otherwise. */
  actorId?: string | null
  memberId: string | null
  subject: string | null
  ip: string | null
  detail: Record<string, unknown>
}
