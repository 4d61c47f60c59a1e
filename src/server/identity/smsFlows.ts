import type { AuthFactor } from '../store/identityStore'
import type { IdentityContext } from './context'
import { hashCode, newNumericCode, newToken, safeEqual, sha256 } from './crypto'
import { errors } from './errors'
import {
  checkAttemptAllowed,
  checkIntermediate,
  checkNotLocked,
  checkOrganization,
  emailKey,
  ipKey,
  memberKey,
  reserveAttempt,
  sessionCapMinutes,
  sessionLength,
} from './guards'
import { normalizePhone } from './memberFields'
import { memberJson, organizationJson } from './responses'
import { fullSessionBody, issueSession } from './sessions'

/** The phone a member without one enrols (E.164), or 400 naming mfa_phone_number. */
function enrolmentPhone(phone: string | null): string {
  if (!phone) throw errors.noPhone()
  try {
    return normalizePhone(phone)
  } catch (err) {
    throw errors.badRequest('mfa_phone_number', (err as Error).message)
  }
}

export interface SmsSend {
  organizationId: string
  memberId: string
  intermediateToken: string
  phone: string | null
}

/** otps/sms/send: a fresh code for the enrolled phone (earlier codes stop working). */
export async function smsSend(ctx: IdentityContext, input: SmsSend, ip: string) {
  checkOrganization(ctx, input.organizationId)
  const record = await checkIntermediate(ctx, input.intermediateToken, input.memberId)
  const member = await ctx.members.memberById(input.memberId)
  if (!member || member.status !== 'active') throw errors.intermediateSession()
  // Enrolment: a member without a phone names one here; the code proves it, and the phone is
  // kept when the code is verified (smsAuthenticate).
  const enrolPhone = member.phone ? null : enrolmentPhone(input.phone)
  const phone = member.phone ?? enrolPhone ?? ''
  if (member.phone && input.phone && input.phone.replace(/[\s().-]/g, '') !== member.phone)
    throw errors.phoneMismatch()
  // A member locked by wrong codes or passwords from this address gets no more codes here.
  await checkNotLocked(
    ctx,
    [memberKey(member.memberId), `${memberKey(member.memberId)}@${ipKey(ip)}`, emailKey(member.email)],
    'sms.locked',
  )
  const tooMany = async () => {
    await ctx.audit('sms.too_many', { memberId: member.memberId, ip })
    return errors.tooManySends()
  }
  if (record.sends >= ctx.settings.otp.maxSends) throw await tooMany()
  const { digits, expiryMinutes, maxSendsPerMemberHour, maxSendsPerPhoneHour } = ctx.settings.otp
  const now = ctx.now()
  // Hourly caps per member and per phone number, across intermediate sessions and addresses.
  const perMember = `sms-sent:${memberKey(member.memberId)}`
  const perPhone = `sms-sent:phone:${phone}`
  // Checked and counted in one atomic step (across servers).
  const quota = await ctx.smsQuota.attempt(
    [perMember, perPhone],
    [
      { key: perMember, max: maxSendsPerMemberHour },
      { key: perPhone, max: maxSendsPerPhoneHour },
    ],
    now,
  )
  if (quota.lockedFor > 0) {
    await ctx.audit('sms.hourly_cap', { memberId: member.memberId, ip })
    throw errors.tooManySendsPerHour()
  }
  const code = newNumericCode(digits)
  const salt = newToken(12)
  // The per-session cap again, counted atomically: parallel sends cannot pass it.
  if (!(await ctx.tokens.countIntermediateSend(sha256(input.intermediateToken), ctx.settings.otp.maxSends)))
    throw await tooMany()
  await ctx.tokens.replaceOtp(
    member.memberId,
    hashCode(code, salt),
    salt,
    now,
    now + expiryMinutes * 60_000,
    enrolPhone,
  )
  await ctx.delivery.sms({
    to: phone,
    memberId: member.memberId,
    code,
    text: `Your ${ctx.settings.productName} sign-in code is ${code}. It expires in ${expiryMinutes} minutes.`,
  })
  await ctx.audit('sms.sent', {
    memberId: member.memberId,
    ip,
    ...(enrolPhone ? { detail: { enrolPhone: true } } : {}),
  })
  return {
    member_id: member.memberId,
    member: memberJson(member),
    organization: organizationJson(ctx.settings),
  }
}

export interface SmsAuthenticate {
  organizationId: string
  memberId: string
  intermediateToken: string
  code: string
  sessionMinutes: number | null
}

/**
 * otps/sms/authenticate: the latest code only, single use, before its expiry, at most
 * maxAttempts tries (then it is burnt); success consumes the intermediate session.
 */
export async function smsAuthenticate(ctx: IdentityContext, input: SmsAuthenticate, ip: string) {
  checkOrganization(ctx, input.organizationId)
  const key = memberKey(input.memberId)
  await checkAttemptAllowed(ctx, key, ip, 'sms.locked')
  const ist = await checkIntermediate(ctx, input.intermediateToken, input.memberId)
  const member = await ctx.members.memberById(input.memberId)
  if (!member || member.status !== 'active') throw errors.intermediateSession()
  // Reserved before the check (atomically, across servers); only a wrong code stays counted.
  const attempt = await reserveAttempt(ctx, key, ip, 'sms.locked')
  const now = ctx.now()
  const { maxAttempts } = ctx.settings.otp
  // The latest code with this attempt counted (atomically), or null when none is usable.
  const otp = await ctx.tokens.takeOtpAttempt(member.memberId, maxAttempts, now)
  // A code sent to enrol a phone counts only while the member still has none (and vice versa).
  const phone = member.phone ?? otp?.phone ?? null
  const matches = Boolean(
    otp &&
    phone !== null &&
    (member.phone === null || otp.phone === null) &&
    safeEqual(hashCode(input.code, otp.salt), otp.codeHash),
  )
  if (!otp || !matches) {
    // The last attempt on a code burns it.
    if (otp && otp.attempts >= maxAttempts) await ctx.tokens.consumeOtp(otp.id, now)
    await attempt.failed()
    await ctx.audit('sms.failed', {
      memberId: member.memberId,
      ip,
      detail: { reason: otp ? 'wrong_code' : 'no_usable_code' },
    })
    throw errors.otpInvalid()
  }
  // A code or intermediate session used meanwhile (a replay racing the first use) is a failure.
  if (!(await ctx.tokens.consumeOtp(otp.id, now))) {
    await attempt.failed()
    throw errors.otpInvalid()
  }
  if (!(await ctx.tokens.consumeIntermediate(sha256(input.intermediateToken), now))) {
    await attempt.failed()
    throw errors.intermediateSession()
  }
  await attempt.succeeded()
  if (!member.phone && phone) {
    await ctx.members.updateMember(member.memberId, { phone }, now)
    await ctx.audit('member.phone_enrolled', { memberId: member.memberId, ip })
  }
  const smsFactor: AuthFactor = {
    delivery_method: 'sms',
    type: 'otp',
    last_authenticated_at: new Date(now).toISOString(),
    phone_number_factor: { phone_id: `phone-${member.memberId}`, phone_number: phone ?? '' },
    sequence_order: 'SECONDARY',
  }
  const factors = [...ist.factors, smsFactor]
  const requested = sessionLength(input.sessionMinutes, ctx.settings.sessionMinutes.sms)
  const minutes = Math.min(requested, ist.sessionMinutes ?? requested, sessionCapMinutes(ctx, factors))
  const issued = await issueSession(ctx, { ...member, phone }, factors, minutes)
  await ctx.audit('login.success', {
    memberId: member.memberId,
    ip,
    detail: { sessionId: issued.session.sessionId, minutes },
  })
  return fullSessionBody(ctx, issued)
}
