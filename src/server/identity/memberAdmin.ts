import type { IdentityStore, MemberRecord } from '../store/identityStore'
import { hashPassword, newId } from './crypto'
import { passwordProblem } from './guards'
import { normalizeEmail, normalizeName, normalizePhone } from './memberFields'
import { unknownRoles } from './rbac'
import type { IdentitySettings } from './settings'

export interface NewMember {
  email: string
  name?: string
  phone?: string | null
  password: string
  roles?: string[]
  /** Skip the password rules (the operator chose it through EMBERLINE_ADMIN_PASSWORD). */
  trustedPassword?: boolean
}

export { normalizePhone } from './memberFields'

export function checkRoles(settings: IdentitySettings, roles: string[]): string[] {
  const unknown = unknownRoles(settings.rbac, roles)
  if (unknown.length > 0) {
    throw new Error(
      `unknown role(s) ${unknown.join(', ')}; known: ${settings.rbac.roles.map((r) => r.role_id).join(', ')}`,
    )
  }
  return [...new Set(roles)]
}

/** Validates and inserts a member (admin CLI, first start); throws Error with a readable message. */
export async function createMember(
  members: IdentityStore,
  settings: IdentitySettings,
  input: NewMember,
  now: number,
): Promise<MemberRecord> {
  const email = normalizeEmail(input.email)
  const name = normalizeName(input.name ?? '')
  if (await members.memberByEmail(email)) throw new Error(`a member with e-mail ${email} already exists`)
  const problem = input.trustedPassword ? null : passwordProblem(settings, input.password, email)
  if (problem) throw new Error(problem)
  const member: MemberRecord = {
    memberId: newId('member'),
    organizationId: settings.organizationId,
    email,
    name: name || (email.split('@')[0] ?? ''),
    phone: input.phone ? normalizePhone(input.phone) : null,
    roles: checkRoles(settings, input.roles ?? settings.rbac.defaultRoles),
    status: 'active',
    passwordHash: await hashPassword(input.password),
    passwordId: newId('member-password'),
    createdAt: now,
    updatedAt: now,
  }
  await members.insertMember(member)
  return member
}
