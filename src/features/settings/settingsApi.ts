import type { MemberPreferences } from '../../shared/preferences'
import { authFetch } from '../session'
import { requestJson } from './apiRequest'

/** The signed-in member as GET /api/me reports it. */
export interface Profile {
  readonly memberId: string
  readonly email: string | null
  readonly name: string | null
  readonly phone: string | null
  readonly organizationId: string
  readonly roles: readonly string[]
  /** Actions the member's roles grant per resource (config RBAC, `*` expanded): e.g. members → read. */
  readonly permissions: Readonly<Record<string, readonly string[]>>
  readonly expiresAt: string | null
}

export { SettingsError } from './apiRequest'

type Fetcher = typeof authFetch

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null)

async function call(fetcher: Fetcher, url: string, init?: RequestInit): Promise<Record<string, unknown>> {
  const body = await requestJson(url, init, fetcher)
  return isObject(body) ? body : {}
}

function permissionsOf(value: unknown): Record<string, string[]> {
  if (!isObject(value)) return {}
  const out: Record<string, string[]> = {}
  for (const [resource, actions] of Object.entries(value)) {
    if (Array.isArray(actions)) out[resource] = actions.filter((a): a is string => typeof a === 'string')
  }
  return out
}

export async function fetchProfile(fetcher: Fetcher = authFetch): Promise<Profile> {
  const data = await call(fetcher, '/api/me')
  const member = isObject(data.member) ? data.member : {}
  const session = isObject(data.session) ? data.session : {}
  return {
    memberId: text(member.member_id) ?? '',
    email: text(member.email_address),
    name: text(member.name),
    phone: text(member.phone),
    organizationId: text(data.organization_id) ?? '',
    roles: Array.isArray(data.roles) ? data.roles.filter((r): r is string => typeof r === 'string') : [],
    permissions: permissionsOf(data.permissions),
    expiresAt: text(session.expires_at),
  }
}

export async function changePassword(oldPassword: string, newPassword: string, fetcher: Fetcher = authFetch) {
  await call(fetcher, '/api/me/password', {
    method: 'POST',
    body: JSON.stringify({ old: oldPassword, new: newPassword }),
  })
}

/** Ends every session of the member, this one included. Answers how many were revoked. */
export async function revokeAllSessions(fetcher: Fetcher = authFetch): Promise<number> {
  const data = await call(fetcher, '/api/me/sessions/revoke-all', { method: 'POST', body: '{}' })
  return typeof data.revoked_sessions === 'number' ? data.revoked_sessions : 0
}

function preferencesOf(data: Record<string, unknown>): MemberPreferences {
  const prefs = isObject(data.preferences) ? data.preferences : {}
  return Object.fromEntries(
    Object.entries(prefs).filter((e): e is [string, string] => typeof e[1] === 'string'),
  )
}

export async function fetchPreferences(fetcher: Fetcher = authFetch): Promise<MemberPreferences> {
  return preferencesOf(await call(fetcher, '/api/me/preferences'))
}

export async function savePreferences(patch: MemberPreferences, fetcher: Fetcher = authFetch) {
  return preferencesOf(
    await call(fetcher, '/api/me/preferences', { method: 'PUT', body: JSON.stringify(patch) }),
  )
}
