import type { MemberRecord } from '../identityStore'

/**
 * A member row for store tests: active, no phone, no password, no roles, created at 0 in
 * organization `org-1`, email `<id>@example.org`, named `<id>` — `over` changes any of it.
 */
export function memberRecord(memberId: string, over: Partial<MemberRecord> = {}): MemberRecord {
  return {
    memberId,
    organizationId: 'org-1',
    email: `${memberId}@example.org`,
    name: memberId,
    phone: null,
    roles: [],
    status: 'active',
    passwordHash: null,
    passwordId: null,
    createdAt: 0,
    updatedAt: 0,
    ...over,
  }
}
