import type { MemberRecord, MemberStatus } from '../../identityStore'

/** A row of identity_members as PostgreSQL answers it (roles already parsed from jsonb). */
export interface PgMemberRow {
  member_id: string
  organization_id: string
  email: string
  name: string
  phone: string | null
  roles: string[]
  status: MemberStatus
  password_hash: string | null
  password_id: string | null
  created_at: number
  updated_at: number
}

/** The member record of a row. */
export function pgMemberOf(row: PgMemberRow): MemberRecord {
  return {
    memberId: row.member_id,
    organizationId: row.organization_id,
    email: row.email,
    name: row.name,
    phone: row.phone,
    roles: row.roles,
    status: row.status,
    passwordHash: row.password_hash,
    passwordId: row.password_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}
