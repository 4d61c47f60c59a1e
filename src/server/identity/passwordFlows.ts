import { clientNetwork } from './clientNetwork'
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
  emailKey,
  intermediateBody,
  ipKey,
  passwordFactor,
  passwordProblem,
  recordFailure,
  reserveAttempt,
  sessionLength,
} from './guards'
import { isLoopbackHost } from '../http/loopbackHost'

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
  // The lock check and the reservation are one atomic step, across servers; only failures stay counted.
  const attempt = await reserveAttempt(ctx, emailKey(input.email), ip, 'login.locked')
  const member = await ctx.members.memberByEmail(input.email)
  let ok = false
  if (member?.passwordHash && member.status === 'active')
    ok = await verifyPassword(input.password, member.passwordHash)
  else await burnPasswordCheck(input.password)
  if (!member || !ok) {
    await attempt.failed()
    const reason = !member ? 'unknown_email' : member.status !== 'active' ? 'inactive' : 'bad_password'
    await ctx.audit('login.failed', {
      memberId: member?.memberId,
      subject: input.email,
      ip,
      detail: { reason },
    })
    throw errors.unauthorized()
  }
  await attempt.succeeded()
  // A member without a phone (invited, or their phone was removed by an administrator) enrols one
  // in the SMS step: the intermediate session's member_options carry no phone number.
  await ctx.audit('login.password_ok', {
    memberId: member.memberId,
    ip,
    ...(member.phone ? {} : { detail: { enrolPhone: true } }),
  })
  const minutes = sessionLength(input.sessionMinutes, ctx.settings.sessionMinutes.login)
  return intermediateBody(ctx, member, [passwordFactor(member, ctx.now())], minutes)
}

export interface ResetStart {
  organizationId: string
  email: string
  redirectUrl: string | null
  expirationMinutes: number | null
  codeChallenge: string | null
}

/**
 * The base URL of reset links: EMBERLINE_PUBLIC_URL, else the request's own origin only when its
 * host is a loopback address or on EMBERLINE_ALLOWED_HOSTS — never an arbitrary Host header, which
 * would let anyone mail a member a reset link to their own server. Null when none may be used.
 */
export function resetLinkBase(ctx: IdentityContext, requestOrigin: string): string | null {
  if (ctx.publicUrl) return ctx.publicUrl
  let host: string
  try {
    host = new URL(requestOrigin).host.toLowerCase()
  } catch {
    return null
  }
  return isLoopbackHost(host) || ctx.allowedHosts.includes(host) ? requestOrigin : null
}

/** The reset link: the base (resetLinkBase) + the app's reset route (or a same-origin redirect). */
export function resetLink(ctx: IdentityContext, base: string, redirectUrl: string | null, token: string) {
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
 * Whether a reset e-mail may go out for this request, each count one atomic store step (across
 * servers). Per e-mail address and requesting network (clientNetwork: an IPv6 /64 counts as one)
 * at most `resetMail.perNetwork` in the throttle window, and per network `throttle.ipMaxFailures`:
 * a stranger's flood silences only the stranger's network. Per e-mail address from all networks
 * at most `resetMail.perEmail` in `perEmailMinutes` against mail bombs from many networks — a cap
 * that never holds a request from a network the member signed in from lately, so strangers
 * cannot use it to keep the member's own reset e-mail away. Dropped requests are audited.
 */
async function resetMailAllowed(
  ctx: IdentityContext,
  email: string,
  memberId: string | null,
  ip: string,
  now: number,
): Promise<boolean> {
  const { resetMail, throttle } = ctx.settings
  const network = ipKey(clientNetwork(ip))
  const pair = `reset:${emailKey(email)}@${network}`
  const fromNetwork = `reset:${network}`
  const local = await ctx.throttle.attempt(
    [pair, fromNetwork],
    [
      { key: pair, max: resetMail.perNetwork },
      { key: fromNetwork, max: throttle.ipMaxFailures },
    ],
    now,
  )
  if (local.lockedFor > 0) {
    await ctx.audit('reset.dropped', { subject: email, ip, detail: { reason: 'network' } })
    return false
  }
  // The same query for unknown addresses (no member id matches ''), so the time tells nothing.
  const since = now - resetMail.knownNetworkDays * 86_400_000
  const known = await ctx.members.signedInFrom(memberId ?? '', ip, since)
  const everywhere = `reset-mail:${emailKey(email)}`
  const capped = await ctx.resetQuota.attempt(
    known ? [] : [everywhere],
    [{ key: everywhere, max: resetMail.perEmail }],
    now,
  )
  if (capped.lockedFor > 0) {
    await ctx.audit('reset.dropped', { subject: email, ip, detail: { reason: 'email' } })
    return false
  }
  return true
}

/**
 * passwords/email/reset/start: always the same empty success after the same work, so it reveals
 * nothing about which addresses exist: the token is made and hashed for unknown addresses too,
 * and the e-mail is handed to delivery without waiting for it. Repeated requests are dropped
 * silently (resetMailAllowed). The SDK always sends a PKCE code_challenge (bootstrap requires it
 * for resets), so a start without one is refused: no reset link completes without its verifier.
 */
export async function resetStart(ctx: IdentityContext, input: ResetStart, requestOrigin: string, ip: string) {
  checkOrganization(ctx, input.organizationId)
  if (!input.codeChallenge)
    throw errors.badRequest(
      'code_challenge',
      'A password reset needs a PKCE code_challenge (pkce_required_for_password_resets).',
    )
  const now = ctx.now()
  const member = await ctx.members.memberByEmail(input.email)
  if (!(await resetMailAllowed(ctx, input.email, member?.memberId ?? null, ip, now))) return {}
  const token = newToken()
  const tokenHash = sha256(token)
  if (!member || member.status !== 'active') {
    await ctx.audit('reset.unknown', { subject: input.email, ip })
    return {}
  }
  const base = resetLinkBase(ctx, requestOrigin)
  if (!base) {
    await ctx.audit('reset.host_refused', {
      memberId: member.memberId,
      ip,
      detail: { origin: requestOrigin },
    })
    return {}
  }
  const maxMinutes = ctx.settings.resetTokenExpiryMinutes
  const minutes = Math.min(input.expirationMinutes ?? maxMinutes, maxMinutes)
  await ctx.tokens.insertResetToken(
    tokenHash,
    member.memberId,
    input.codeChallenge,
    now,
    now + minutes * 60_000,
  )
  const link = resetLink(ctx, base, input.redirectUrl, token)
  // Not awaited: a slow gateway must not tell a known address from an unknown one.
  const sending = ctx.delivery
    .email({
      to: member.email,
      memberId: member.memberId,
      token,
      link,
      text: `Reset your ${ctx.settings.productName} password: ${link} (valid ${minutes} minutes).`,
    })
    .then(
      () => ctx.audit('reset.sent', { memberId: member.memberId, ip }),
      (err: unknown) =>
        ctx.audit('reset.delivery_failed', { memberId: member.memberId, ip, detail: { error: String(err) } }),
    )
  ctx.background(sending)
  return {}
}

export interface PasswordReset {
  token: string
  password: string
  sessionMinutes: number | null
  codeVerifier: string | null
}

/** passwords/email/reset: single-use token (+ PKCE check), new password, all sessions revoked, then the SMS step. */
export async function resetPassword(ctx: IdentityContext, input: PasswordReset, ip: string) {
  await checkNotLocked(ctx, [ipKey(ip)], 'reset.locked')
  const hash = sha256(input.token)
  const record = await ctx.tokens.resetToken(hash)
  const member = record ? await ctx.members.memberById(record.memberId) : null
  if (
    !record ||
    !member ||
    record.usedAt !== null ||
    record.expiresAt <= ctx.now() ||
    member.status !== 'active'
  ) {
    await recordFailure(ctx, null, ip)
    await ctx.audit('reset.failed', {
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
    await recordFailure(ctx, null, ip)
    await ctx.audit('reset.failed', { memberId: member.memberId, ip, detail: { reason: 'pkce' } })
    throw errors.pkce()
  }
  const problem = passwordProblem(ctx.settings, input.password, member.email)
  if (problem) throw errors.weakPassword(problem)
  if (member.passwordHash && (await verifyPassword(input.password, member.passwordHash)))
    throw errors.samePassword()
  if (!(await ctx.tokens.useResetToken(hash, ctx.now()))) throw errors.resetToken()
  const now = ctx.now()
  // Every other outstanding reset link of the member stops working.
  const otherLinks = await ctx.tokens.useMemberResetTokens(member.memberId, now)
  await ctx.members.updateMember(
    member.memberId,
    { passwordHash: await hashPassword(input.password), passwordId: newId('member-password') },
    now,
  )
  const revoked = await ctx.members.revokeMemberSessions(member.memberId, now)
  await ctx.throttle.clear(emailKey(member.email))
  await ctx.audit('password.reset', {
    memberId: member.memberId,
    ip,
    detail: { revokedSessions: revoked, invalidatedResetLinks: otherLinks },
  })
  const factor = {
    ...passwordFactor(member, now),
    delivery_method: 'email' as const,
    type: 'password_reset' as const,
  }
  const minutes = sessionLength(input.sessionMinutes, ctx.settings.sessionMinutes.reset)
  return intermediateBody(ctx, member, [factor], minutes)
}
