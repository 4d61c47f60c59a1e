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

/** An attempt reserved by reserveAttempt; settle it once, with its outcome. */
export interface Attempt {
  /** The check failed: it stays counted on every counter (a full window locks, audited). */
  failed(): Promise<void>
  /** The check passed: the attempt is not counted, and the subject's counter at the address starts again. */
  succeeded(): Promise<void>
}

/**
 * Reserves an attempt on a subject from a client address before its slow check, so parallel
 * guesses cannot outrun the lockout: it takes a slot of the subject's counter at this address
 * (maxFailures) and over all addresses (memberMaxFailures), and is refused (429, audited as
 * `event`) while a lock of checkAttemptAllowed holds or every slot is taken. The check and the
 * reservation are one atomic store call, so attempts through every server count toward one
 * lockout. Only failures stay counted: a success gives its slot back (Attempt.succeeded), so
 * correct sign-ins never lock anyone out.
 */
export async function reserveAttempt(
  ctx: IdentityContext,
  subjectKey: string,
  ip: string,
  event: string,
): Promise<Attempt> {
  const { maxFailures, memberMaxFailures, ipMaxFailures } = ctx.settings.throttle
  const keys = attemptKeys(subjectKey, ip)
  const here = { key: subjectAtIp(subjectKey, ip), max: maxFailures }
  // The address's own counter (all subjects) is reserved and settled the same way.
  const counts = [here, { key: subjectKey, max: memberMaxFailures }, { key: ipKey(ip), max: ipMaxFailures }]
  const startedAt = ctx.now()
  const wait = await ctx.throttle.reserve(keys, counts, startedAt)
  if (wait > 0) throw await refuseLocked(ctx, keys, wait, event)
  return {
    async failed() {
      const locked = await ctx.throttle.settle(counts, startedAt, true, ctx.now())
      if (locked.length > 0)
        await ctx.audit('throttle.locked', {
          subject: subjectKey,
          ip,
          detail: { everywhere: locked.includes(subjectKey) },
        })
    },
    async succeeded() {
      await ctx.throttle.settle(counts.slice(1), startedAt, false, ctx.now())
      await ctx.throttle.clear(here.key)
    },
  }
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
