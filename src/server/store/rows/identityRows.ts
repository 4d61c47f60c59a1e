import type { AuditEntry, AuthFactor, MemberRecord, MemberStatus, SessionRecord } from '../identityRecords'
import type { ColumnCodec } from './codec'

// The identity tables' rows (members, sessions, audit) as both stores read them, and their mapping
// to records and back to statement parameters. JSON columns (`unknown` here) go through the codec.

export interface MemberRow {
  member_id: string
  organization_id: string
  email: string
  name: string
  phone: string | null
  roles: unknown
  status: MemberStatus
  password_hash: string | null
  password_id: string | null
  created_at: number
  updated_at: number
}

export const MEMBER_COLUMNS = [
  'member_id',
  'organization_id',
  'email',
  'name',
  'phone',
  'roles',
  'status',
  'password_hash',
  'password_id',
  'created_at',
  'updated_at',
] as const

export function memberFromRow(c: ColumnCodec, row: MemberRow): MemberRecord {
  return {
    memberId: row.member_id,
    organizationId: row.organization_id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    roles: c.json(row.roles) as string[],
    status: row.status,
    passwordHash: row.password_hash,
    passwordId: row.password_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The parameters of MEMBER_COLUMNS (the email trimmed and lower-cased, as sign-in looks it up). */
export function memberToParams(c: ColumnCodec, m: MemberRecord): unknown[] {
  return [
    m.memberId,
    m.organizationId,
    m.email.trim().toLowerCase(),
    m.name,
    m.phone,
    c.jsonParam(m.roles),
    m.status,
    m.passwordHash,
    m.passwordId,
    m.createdAt,
    m.updatedAt,
  ]
}

export interface SessionRow {
  session_id: string
  member_id: string
  factors: unknown
  started_at: number
  last_accessed_at: number
  expires_at: number
  revoked_at: number | null
}

export const SESSION_COLUMNS = [
  'session_id',
  'member_id',
  'token_hash',
  'factors',
  'started_at',
  'last_accessed_at',
  'expires_at',
  'revoked_at',
] as const

export function sessionFromRow(c: ColumnCodec, row: SessionRow): SessionRecord {
  return {
    sessionId: row.session_id,
    memberId: row.member_id,
    factors: c.json(row.factors) as AuthFactor[],
    startedAt: row.started_at,
    lastAccessedAt: row.last_accessed_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
  }
}

/** The parameters of SESSION_COLUMNS for a new session (not revoked). */
export function sessionToParams(c: ColumnCodec, s: SessionRecord, tokenHash: string): unknown[] {
  return [
    s.sessionId,
    s.memberId,
    tokenHash,
    c.jsonParam(s.factors),
    s.startedAt,
    s.lastAccessedAt,
    s.expiresAt,
    null,
  ]
}

/** A row of identity_audit. */
export interface AuditRow {
  id: number
  at: number
  event: string
  actor_id: string | null
  member_id: string | null
  subject: string | null
  ip: string | null
  detail: unknown
}

export const AUDIT_COLUMNS = ['at', 'event', 'actor_id', 'member_id', 'subject', 'ip', 'detail'] as const

/** The audit entry a row of identity_audit holds (actor read back as null when none). */
export function auditEntryFromRow(c: ColumnCodec, r: AuditRow): AuditEntry & { actorId: string | null } {
  return {
    at: r.at,
    event: r.event,
    actorId: r.actor_id,
    memberId: r.member_id,
    subject: r.subject,
    ip: r.ip,
    detail: c.json(r.detail) as Record<string, unknown>,
  }
}

export function auditToParams(c: ColumnCodec, e: AuditEntry): unknown[] {
  return [e.at, e.event, e.actorId ?? null, e.memberId, e.subject, e.ip, c.jsonParam(e.detail)]
}
