import type { IdentityContext } from './context'
import {
  burnPasswordCheck,
  hashPassword,
  newId,
  newToken,
  pkceChallenge,
  safeEqual,
  sha256,
  verifyPassword,
} from './crypto'
import { errors } from './errors'
import {
  checkNotLocked,
  checkOrganization,
  countAttempt,
  emailKey,
  intermediateBody,
  ipKey,
  passwordFactor,
  passwordProblem,
  recordFailure,
  sessionLength,
} from './guards'

export interface PasswordLogin {
  organizationId: string
  email: string
  password: string
  sessionMinutes: number | null
}

/**
 * passwords/authenticate: the same answer (and the same scrypt work) whether the e-mail
 * is unknown, the member disabled or the password wrong; success starts the SMS step.
 */
export async function passwordAuthenticate(ctx: IdentityContext, input: PasswordLogin, ip: string) {
  checkOrganization(ctx, input.organizationId)
  const key = emailKey(input.email)
  checkNotLocked(ctx, [key, ipKey(ip)], 'login.locked')
  countAttempt(ctx, key, ip)
  const member = ctx.members.memberByEmail(input.email)
  let ok = false
  if (member?.passwordHash && member.status === 'active')
    ok = await verifyPassword(input.password, member.passwordHash)
  else await burnPasswordCheck(input.password)
  if (!member || !ok) {
    recordFailure(ctx, null, ip)
    const reason = !member ? 'unknown_email' : member.status !== 'active' ? 'inactive' : 'bad_password'
    ctx.audit('login.failed', { memberId: member?.memberId, subject: input.email, ip, detail: { reason } })
    throw errors.unauthorized()
  }
  ctx.throttle.clear(key)
  if (!member.phone) {
    ctx.audit('login.no_phone', { memberId: member.memberId, ip })
    throw errors.noPhone()
  }
  ctx.audit('login.password_ok', { memberId: member.memberId, ip })
  const minutes = sessionLength(ctx, input.sessionMinutes, ctx.settings.sessionMinutes.login)
  return intermediateBody(ctx, member, [passwordFactor(member, ctx.now())], minutes)
}

export interface ResetStart {
  organizationId: string
  email: string
  redirectUrl: string | null
  expirationMinutes: number | null
  codeChallenge: string | null
}

/** The reset link: the configured public URL (or the request origin) + the app's reset route. */
export function resetLink(
  ctx: IdentityContext,
  requestOrigin: string,
  redirectUrl: string | null,
  token: string,
) {
  const base = ctx.publicUrl ?? requestOrigin
  let path = ctx.settings.resetPath
  if (redirectUrl) {
    try {
      const url = new URL(redirectUrl)
      if (url.origin === new URL(base).origin) path = url.pathname
    } catch {
      // A malformed redirect URL falls back to the configured reset route.
    }
  }
  return `${base}${path}?stytch_token_type=multi_tenant_passwords&token=${encodeURIComponent(token)}`
}

/**
 * passwords/email/reset/start: always the same empty success, so it reveals nothing about
 * which addresses exist; repeated requests for one address or client are dropped silently.
 */
export async function resetStart(ctx: IdentityContext, input: ResetStart, requestOrigin: string, ip: string) {
  checkOrganization(ctx, input.organizationId)
  const now = ctx.now()
  const key = `reset:${emailKey(input.email)}`
  const { maxFailures, ipMaxFailures } = ctx.settings.throttle
  if (ctx.throttle.lockedFor(key, now) > 0 || ctx.throttle.lockedFor(`reset:${ipKey(ip)}`, now) > 0) {
    ctx.audit('reset.dropped', { subject: input.email, ip })
    return {}
  }
  ctx.throttle.fail(key, maxFailures, now)
  ctx.throttle.fail(`reset:${ipKey(ip)}`, ipMaxFailures, now)
  const member = ctx.members.memberByEmail(input.email)
  if (!member || member.status !== 'active') {
    ctx.audit('reset.unknown', { subject: input.email, ip })
    return {}
  }
  const token = newToken()
  const maxMinutes = ctx.settings.resetTokenExpiryMinutes
  const minutes = Math.min(input.expirationMinutes ?? maxMinutes, maxMinutes)
  ctx.tokens.insertResetToken(
    sha256(token),
    member.memberId,
    input.codeChallenge,
    now,
    now + minutes * 60_000,
  )
  const link = resetLink(ctx, requestOrigin, input.redirectUrl, token)
  await ctx.delivery.email({
    to: member.email,
    memberId: member.memberId,
    token,
    link,
    text: `Reset your ${ctx.settings.productName} password: ${link} (valid ${minutes} minutes).`,
  })
  ctx.audit('reset.sent', { memberId: member.memberId, ip })
  return { member_id: member.memberId }
}

export interface PasswordReset {
  token: string
  password: string
  sessionMinutes: number | null
  codeVerifier: string | null
}

/** passwords/email/reset: single-use token (+ PKCE check), new password, all sessions revoked, then the SMS step. */
export async function resetPassword(ctx: IdentityContext, input: PasswordReset, ip: string) {
  checkNotLocked(ctx, [ipKey(ip)], 'reset.locked')
  const hash = sha256(input.token)
  const record = ctx.tokens.resetToken(hash)
  const member = record ? ctx.members.memberById(record.memberId) : null
  if (
    !record ||
    !member ||
    record.usedAt !== null ||
    record.expiresAt <= ctx.now() ||
    member.status !== 'active'
  ) {
    recordFailure(ctx, null, ip)
    ctx.audit('reset.failed', {
      memberId: member?.memberId,
      ip,
      detail: { reason: record ? 'expired_or_used' : 'unknown' },
    })
    throw errors.resetToken()
  }
  if (
    record.codeChallenge &&
    !(input.codeVerifier && safeEqual(pkceChallenge(input.codeVerifier), record.codeChallenge))
  ) {
    recordFailure(ctx, null, ip)
    ctx.audit('reset.failed', { memberId: member.memberId, ip, detail: { reason: 'pkce' } })
    throw errors.pkce()
  }
  const problem = passwordProblem(ctx.settings, input.password, member.email)
  if (problem) throw errors.weakPassword(problem)
  if (!ctx.tokens.useResetToken(hash, ctx.now())) throw errors.resetToken()
  const now = ctx.now()
  ctx.members.updateMember(
    member.memberId,
    { passwordHash: await hashPassword(input.password), passwordId: newId('member-password') },
    now,
  )
  const revoked = ctx.members.revokeMemberSessions(member.memberId, now)
  ctx.throttle.clear(emailKey(member.email))
  ctx.audit('password.reset', { memberId: member.memberId, ip, detail: { revokedSessions: revoked } })
  if (!member.phone) throw errors.noPhone()
  const factor = {
    ...passwordFactor(member, now),
    delivery_method: 'email' as const,
    type: 'password_reset' as const,
  }
  const minutes = sessionLength(ctx, input.sessionMinutes, ctx.settings.sessionMinutes.reset)
  return intermediateBody(ctx, member, [factor], minutes)
}
