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

/** Refuses an attempt that found a lock (429 with the seconds left), audited as `event`. */
async function refuseLocked(ctx: IdentityContext, keys: readonly string[], left: number, event: string) {
  await ctx.audit(event, { subject: keys.join(' ') })
  return errors.locked(Math.ceil(left / 1000))
}

/** Refuses the attempt while any of the keys is locked (429 with the seconds left). */
export async function checkNotLocked(ctx: IdentityContext, keys: string[], event: string): Promise<void> {
  const left = await ctx.throttle.lockedFor(keys, ctx.now())
  if (left > 0) throw await refuseLocked(ctx, keys, left, event)
}

/** The subject's (e-mail's or member's) counter for attempts from one client address. */
export const subjectAtIp = (subjectKey: string, ip: string) => `${subjectKey}@${ipKey(ip)}`

/** The keys an attempt on a subject from a client address must find unlocked. */
const attemptKeys = (subjectKey: string, ip: string) => [subjectAtIp(subjectKey, ip), subjectKey, ipKey(ip)]

/**
 * Refuses an attempt on a subject from a client address while the subject is locked for that
 * address, for every address (memberMaxFailures over all of them), or the address itself is.
 * So wrong guesses from one address lock that address out, not the member elsewhere.
 */
export async function checkAttemptAllowed(
  ctx: IdentityContext,
  subjectKey: string,
  ip: string,
  event: string,
): Promise<void> {
  await checkNotLocked(ctx, attemptKeys(subjectKey, ip), event)
}

/**
 * Counts an attempt against the subject from this address (maxFailures) and from all addresses
 * (memberMaxFailures) before the slow check, so parallel guesses cannot outrun the lockout; the
 * lock check (as checkAttemptAllowed, audited as `event`) and the count are one atomic store
 * call, so attempts through every server count toward one lockout. A successful attempt clears
 * the address's counter again (see clearAttempts).
 */
export async function countAttempt(
  ctx: IdentityContext,
  subjectKey: string,
  ip: string,
  event: string,
): Promise<void> {
  const { maxFailures, memberMaxFailures } = ctx.settings.throttle
  const keys = attemptKeys(subjectKey, ip)
  const outcome = await ctx.throttle.attempt(
    keys,
    [
      { key: subjectAtIp(subjectKey, ip), max: maxFailures },
      { key: subjectKey, max: memberMaxFailures },
    ],
    ctx.now(),
  )
  if (outcome.lockedFor > 0) throw await refuseLocked(ctx, keys, outcome.lockedFor, event)
  if (outcome.locked.length > 0)
    await ctx.audit('throttle.locked', {
      subject: subjectKey,
      ip,
      detail: { everywhere: outcome.locked.includes(subjectKey) },
    })
}

/** After a success: the subject's counter for this address starts again. */
export async function clearAttempts(ctx: IdentityContext, subjectKey: string, ip: string): Promise<void> {
  await ctx.throttle.clear(subjectAtIp(subjectKey, ip))
}

/** Counts a failure against a subject key (member or e-mail) and the client address. */
export async function recordFailure(
  ctx: IdentityContext,
  subjectKey: string | null,
  ip: string,
): Promise<void> {
  const { throttle, settings } = ctx
  const locked = await throttle.fail(
    [
      ...(subjectKey ? [{ key: subjectKey, max: settings.throttle.maxFailures }] : []),
      { key: ipKey(ip), max: settings.throttle.ipMaxFailures },
    ],
    ctx.now(),
  )
  if (locked.length > 0) await ctx.audit('throttle.locked', { subject: subjectKey, ip })
}

/** A live intermediate session of the member, or intermediate_session_not_found. */
export async function checkIntermediate(
  ctx: IdentityContext,
  token: string,
  memberId: string,
): Promise<IntermediateSessionRecord> {
  const record = await ctx.tokens.intermediate(sha256(token))
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
 * after a reset), else the length configured for how the session is made, never above it.
 */
export function sessionLength(requested: number | null, configured: number): number {
  return Math.min(requested ?? configured, configured)
}

/**
 * The longest a session may live from its start, by how it was made: a session that began with a
 * password reset lives `sessionMinutes.reset` at most (spec §9: 60), any other the longer of the
 * sign-in lengths. sessions/authenticate never extends a session past it.
 */
export function sessionCapMinutes(ctx: IdentityContext, factors: readonly AuthFactor[]): number {
  const { login, sms, reset } = ctx.settings.sessionMinutes
  return factors.some((f) => f.type === 'password_reset') ? reset : Math.max(login, sms)
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
export async function intermediateBody(
  ctx: IdentityContext,
  member: MemberRecord,
  factors: AuthFactor[],
  sessionMinutes: number,
) {
  const token = newToken()
  const now = ctx.now()
  await ctx.tokens.insertIntermediate(sha256(token), {
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
