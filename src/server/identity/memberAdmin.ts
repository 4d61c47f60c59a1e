import type { IdentityStore, MemberRecord } from '../store/identityStore'
import { hashPassword, newId } from './crypto'
import { passwordProblem } from './guards'
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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
const PHONE = /^\+[1-9][0-9]{6,14}$/

/** E.164 phone number without spaces, or an error message. */
export function normalizePhone(phone: string): string {
  const compact = phone.replace(/[\s().-]/g, '')
  if (!PHONE.test(compact)) throw new Error(`phone must be in E.164 form, e.g. +15055550123 (got "${phone}")`)
  return compact
}

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
  const email = input.email.trim().toLowerCase()
  if (!EMAIL.test(email)) throw new Error(`not an e-mail address: "${input.email}"`)
  if (await members.memberByEmail(email)) throw new Error(`a member with e-mail ${email} already exists`)
  const problem = input.trustedPassword ? null : passwordProblem(settings, input.password, email)
  if (problem) throw new Error(problem)
  const member: MemberRecord = {
    memberId: newId('member'),
    organizationId: settings.organizationId,
    email,
    name: input.name ?? email.split('@')[0] ?? '',
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
