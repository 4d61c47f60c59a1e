import { appConfig } from '../../shared/config'
import { authFetch, getStytchClient, isUnreachable, type StytchB2B } from '../session'
import { requestJson, SettingsError } from './apiRequest'

/** A member of the organization as the administration screen shows it. */
export interface OrgMember {
  readonly memberId: string
  readonly email: string
  readonly name: string
  readonly phone: string | null
  readonly roles: readonly string[]
  readonly status: 'active' | 'inactive'
  /** False for an invited member who has not set a password yet (or whose password was reset). */
  readonly passwordSet: boolean
}

export interface MemberQuery {
  readonly text: string
  readonly status: 'all' | 'active' | 'inactive'
  readonly page: number
  readonly pageSize: number
}

export interface MemberPage {
  readonly members: readonly OrgMember[]
  readonly total: number
}

export interface AuditQuery {
  readonly actor: string
  readonly action: string
  readonly member: string
  /** `datetime-local` values (local time) or ''. */
  readonly from: string
  readonly to: string
  readonly page: number
  readonly pageSize: number
}

export interface AuditEntry {
  readonly id: number
  readonly at: string
  readonly event: string
  readonly actorEmail: string | null
  readonly memberEmail: string | null
  readonly memberId: string | null
  readonly ip: string | null
  readonly detail: string
}

export interface AuditPage {
  readonly entries: readonly AuditEntry[]
  readonly total: number
  readonly events: readonly string[]
}

export interface Invitation {
  readonly email: string
  readonly name: string
  readonly phone: string
  readonly roles: readonly string[]
}

/** A refused call: the provider's or the API's message, and the parameter a 400 names. */
export class OrganizationError extends Error {
  constructor(
    message: string,
    readonly parameter: string | null = null,
  ) {
    super(message)
  }
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const str = (v: unknown): string => (typeof v === 'string' ? v : '')

/**
 * The SDK's error (StytchAPIError: error_message, error_details.parameter) in our words. These calls
 * go to the identity provider, so a provider that cannot be reached says the spec's sentence for it
 * ('Unable to contact our servers.', spec §8).
 */
function sdkError(error: unknown): OrganizationError {
  if (isUnreachable(error)) return new OrganizationError(appConfig.messages.unreachable)
  if (isObject(error)) {
    const details = isObject(error.error_details) ? error.error_details : {}
    const message = str(error.error_message) || str(error.message) || 'The request failed.'
    return new OrganizationError(message, str(details.parameter) || null)
  }
  return new OrganizationError(String(error))
}

function toMember(raw: unknown): OrgMember {
  const m = isObject(raw) ? raw : {}
  const roles = Array.isArray(m.roles) ? m.roles : []
  return {
    memberId: str(m.member_id),
    email: str(m.email_address),
    name: str(m.name),
    phone: str(m.mfa_phone_number) || null,
    roles: roles.map((r) => (isObject(r) ? str(r.role_id) : str(r))).filter(Boolean),
    status: m.status === 'active' ? 'active' : 'inactive',
    passwordSet: str(m.member_password_id) !== '',
  }
}

/** `datetime-local` (the browser's local time) → ISO instant, or undefined when empty/invalid. */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined
  const ms = Date.parse(value)
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined
}

type Fetcher = typeof authFetch

/**
 * Member administration for the Settings page: the SDK's organization/member calls where the
 * pinned SDK has them (search, update, delete = disable, reactivate, deleteMFAPhoneNumber,
 * revokeForMember), and /api/admin for invitations, password resets and the audit log.
 */
export function organizationClient(sdk: StytchB2B = getStytchClient(), fetcher: Fetcher = authFetch) {
  /** Our own /api/admin: its failures in our words (apiRequest), as an OrganizationError. */
  async function api(url: string, init?: RequestInit): Promise<Record<string, unknown>> {
    try {
      const body = await requestJson(url, init, fetcher)
      return isObject(body) ? body : {}
    } catch (error) {
      if (error instanceof SettingsError) throw new OrganizationError(error.message, error.parameter)
      throw error
    }
  }
  async function viaSdk<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (error) {
      throw sdkError(error)
    }
  }
  const members = sdk.organization.members

  return {
    async search(q: MemberQuery): Promise<MemberPage> {
      const operands: { filter_name: string; filter_value: string | string[] }[] = []
      if (q.text.trim()) operands.push({ filter_name: 'member_email_fuzzy', filter_value: q.text.trim() })
      if (q.status !== 'all') operands.push({ filter_name: 'statuses', filter_value: [q.status] })
      const response = await viaSdk(() =>
        members.search({
          limit: q.pageSize,
          cursor: q.page > 1 ? String((q.page - 1) * q.pageSize) : undefined,
          query: { operator: 'AND', operands },
        }),
      )
      return { members: response.members.map(toMember), total: response.results_metadata.total }
    },
    setRoles: (memberId: string, roles: readonly string[]) =>
      viaSdk(() => members.update({ member_id: memberId, roles: [...roles] })).then((r) =>
        toMember(r.member),
      ),
    setPhone: (memberId: string, phone: string) =>
      viaSdk(() => members.update({ member_id: memberId, mfa_phone_number: phone })).then((r) =>
        toMember(r.member),
      ),
    removePhone: (memberId: string) =>
      viaSdk(() => members.deleteMFAPhoneNumber(memberId)).then((r) => toMember(r.member)),
    disable: (memberId: string) => viaSdk(() => members.delete(memberId)).then(() => undefined),
    enable: (memberId: string) => viaSdk(() => members.reactivate(memberId)).then((r) => toMember(r.member)),
    revokeSessions: (memberId: string) =>
      viaSdk(() => sdk.session.revokeForMember({ member_id: memberId })).then(() => undefined),

    async invite(invitation: Invitation): Promise<{ member: OrgMember; emailSent: boolean }> {
      const body = {
        email: invitation.email.trim(),
        ...(invitation.name.trim() ? { name: invitation.name.trim() } : {}),
        ...(invitation.phone.trim() ? { phone: invitation.phone.trim() } : {}),
        roles: [...invitation.roles],
      }
      const data = await api('/api/admin/members/invite', { method: 'POST', body: JSON.stringify(body) })
      return { member: toMember(data.member), emailSent: data.email_sent === true }
    },

    async resetPassword(memberId: string): Promise<{ emailSent: boolean }> {
      const data = await api(`/api/admin/members/${encodeURIComponent(memberId)}/password-reset`, {
        method: 'POST',
        body: '{}',
      })
      return { emailSent: data.email_sent === true }
    },

    async audit(q: AuditQuery): Promise<AuditPage> {
      const params = new URLSearchParams({ page: String(q.page), limit: String(q.pageSize) })
      if (q.actor) params.set('actor', q.actor)
      if (q.action) params.set('action', q.action)
      if (q.member) params.set('member', q.member)
      const from = localToIso(q.from)
      const to = localToIso(q.to)
      if (from) params.set('from', from)
      if (to) params.set('to', to)
      const data = await api(`/api/admin/audit?${params.toString()}`)
      const entries = Array.isArray(data.entries) ? data.entries.filter(isObject) : []
      return {
        total: typeof data.total === 'number' ? data.total : 0,
        events: Array.isArray(data.events) ? data.events.map(str).filter(Boolean) : [],
        entries: entries.map((e) => ({
          id: typeof e.id === 'number' ? e.id : 0,
          at: str(e.at),
          event: str(e.event),
          actorEmail: str(e.actor_email) || null,
          memberEmail: str(e.member_email) || null,
          memberId: str(e.member_id) || null,
          ip: str(e.ip) || null,
          detail: isObject(e.detail) && Object.keys(e.detail).length > 0 ? JSON.stringify(e.detail) : '',
        })),
      }
    },
  }
}

export type OrganizationClient = ReturnType<typeof organizationClient>
