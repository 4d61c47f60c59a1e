import type { AuthFactor, MemberRecord } from '../store/identityStore'
import type { IntermediateSessionRecord } from '../store/identityTokenStore'
import type { IdentityContext } from './context'
import { newToken, safeEqual, sha256 } from './crypto'
import { errors } from './errors'
import { memberJson, organizationJson } from './responses'
import type { IdentitySettings } from './settings'

export const emailKey = (email: string) => `email:${email.trim().toLowerCase()}`
export const memberKey = (memberId: string) => `member:${memberId}`
export const ipKey = (ip: string) => `ip:${ip}`

export function checkOrganization(ctx: IdentityContext, organizationId: string): void {
  if (!safeEqual(organizationId, ctx.settings.organizationId)) throw errors.organizationNotFound()
}

/** Refuses the attempt while any of the keys is locked (429 with the seconds left). */
export function checkNotLocked(ctx: IdentityContext, keys: string[], event: string): void {
  const now = ctx.now()
  const left = Math.max(...keys.map((k) => ctx.throttle.lockedFor(k, now)))
  if (left > 0) {
    ctx.audit(event, { subject: keys.join(' ') })
    throw errors.locked(Math.ceil(left / 1000))
  }
}

/**
 * Counts an attempt against the subject (e-mail or member) before the slow check, so parallel
 * guesses cannot outrun the lockout; a successful attempt clears the key again.
 */
export function countAttempt(ctx: IdentityContext, subjectKey: string, ip: string): void {
  if (ctx.throttle.fail(subjectKey, ctx.settings.throttle.maxFailures, ctx.now())) {
    ctx.audit('throttle.locked', { subject: subjectKey, ip })
  }
}

/** Counts a failure against a subject key (member or e-mail) and the client address. */
export function recordFailure(ctx: IdentityContext, subjectKey: string | null, ip: string): void {
  const { throttle, settings } = ctx
  const now = ctx.now()
  const locked = [
    subjectKey ? throttle.fail(subjectKey, settings.throttle.maxFailures, now) : false,
    throttle.fail(ipKey(ip), settings.throttle.ipMaxFailures, now),
  ]
  if (locked.some(Boolean)) ctx.audit('throttle.locked', { subject: subjectKey, ip })
}

/** A live intermediate session of the member, or intermediate_session_not_found. */
export function checkIntermediate(
  ctx: IdentityContext,
  token: string,
  memberId: string,
): IntermediateSessionRecord {
  const record = ctx.tokens.intermediate(sha256(token))
  if (
    !record ||
    record.consumedAt !== null ||
    record.expiresAt <= ctx.now() ||
    record.memberId !== memberId
  ) {
    throw errors.intermediateSession()
  }
  return record
}

/**
 * The session length for a request: the requested minutes (the app sends 1440 for sign-in and 60
 * after a reset), else the configured default, never above the longest configured length.
 */
export function sessionLength(ctx: IdentityContext, requested: number | null, fallback: number): number {
  const { login, sms, reset } = ctx.settings.sessionMinutes
  return Math.min(requested ?? fallback, Math.max(login, sms, reset))
}

/** Password rules for new passwords (reset, change, admin CLI); null when acceptable. */
export function passwordProblem(settings: IdentitySettings, password: string, email: string): string | null {
  const min = settings.passwordMinLength
  if (password.length < min) return `The password must have at least ${min} characters.`
  if (password.length > 256) return 'The password must have at most 256 characters.'
  if (password.trim().toLowerCase() === email.trim().toLowerCase())
    return 'The password must not be the e-mail address.'
  if (new Set(password).size < 4) return 'The password must use at least 4 different characters.'
  return null
}

export function passwordFactor(member: MemberRecord, at: number): AuthFactor {
  return {
    delivery_method: 'knowledge',
    type: 'password',
    last_authenticated_at: new Date(at).toISOString(),
    email_factor: { email_id: `email-${member.memberId}`, email_address: member.email },
    sequence_order: 'PRIMARY',
  }
}

/** Starts the SMS step: a single-use intermediate session (hash stored) and the §8.1 outcome-B body. */
export function intermediateBody(
  ctx: IdentityContext,
  member: MemberRecord,
  factors: AuthFactor[],
  sessionMinutes: number,
) {
  const token = newToken()
  const now = ctx.now()
  ctx.tokens.insertIntermediate(sha256(token), {
    memberId: member.memberId,
    factors,
    sessionMinutes,
    createdAt: now,
    expiresAt: now + ctx.settings.sessionMinutes.intermediate * 60_000,
  })
  return {
    member_id: member.memberId,
    member: memberJson(member),
    organization: organizationJson(ctx.settings),
    member_session: null,
    session_token: '',
    session_jwt: '',
    intermediate_session_token: token,
    member_authenticated: false,
    mfa_required: {
      member_options: { mfa_phone_number: member.phone ?? '', totp_registration_id: '' },
      secondary_auth_initiated: null,
    },
    primary_required: null,
  }
}
