import type { AuditEntry } from '../../identityStore'

/** A row of identity_audit as PostgreSQL answers it (detail already parsed from jsonb). */
export interface PgAuditRow {
  id: number
  at: number
  event: string
  actor_id: string | null
  member_id: string | null
  subject: string | null
  ip: string | null
  detail: Record<string, unknown>
}

/** The audit entry a row holds (actor read back as null when none), as the SQLite store's auditEntryOf. */
export function pgAuditEntryOf(r: PgAuditRow): AuditEntry & { actorId: string | null } {
  return {
    at: r.at,
    event: r.event,
    actorId: r.actor_id,
    memberId: r.member_id,
    subject: r.subject,
    ip: r.ip,
    detail: r.detail,
  }
}
