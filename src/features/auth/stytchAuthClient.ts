import { appConfig } from '../../shared/config'
import type { AuthClient, AuthOutcome } from './authClient'
import type { StytchB2B } from '../session'

interface MfaResponse {
  member_session: unknown
  member_id: string
  organization: { organization_id: string }
  mfa_required?: {
    secondary_auth_initiated?: string | null
    member_options?: { mfa_phone_number?: string } | null
  } | null
}

function outcome(response: MfaResponse): AuthOutcome {
  if (response.member_session) return { kind: 'session' }
  return {
    kind: 'mfa',
    memberId: response.member_id,
    organizationId: response.organization.organization_id,
    smsAlreadySent: response.mfa_required?.secondary_auth_initiated === 'sms_otp',
    phoneEnrolled: Boolean(response.mfa_required?.member_options?.mfa_phone_number),
  }
}

/** AuthClient over the Stytch B2B SDK; session lengths and the organization come from config. */
export function stytchAuthClient(stytch: StytchB2B): AuthClient {
  const organizationId = appConfig.identity.organizationId
  const minutes = appConfig.session
  return {
    async passwordLogin(email, password) {
      const response = await stytch.passwords.authenticate({
        organization_id: organizationId,
        email_address: email,
        password,
        session_duration_minutes: minutes.loginMinutes,
      })
      return outcome(response)
    },
    async sendSms(memberId, orgId, enrolPhone) {
      await stytch.otps.sms.send({
        organization_id: orgId,
        member_id: memberId,
        ...(enrolPhone ? { mfa_phone_number: enrolPhone } : {}),
      })
    },
    async verifySms(memberId, orgId, code) {
      await stytch.otps.sms.authenticate({
        organization_id: orgId,
        member_id: memberId,
        code,
        session_duration_minutes: minutes.smsMinutes,
      })
    },
    async startPasswordReset(email) {
      await stytch.passwords.resetByEmailStart({
        organization_id: organizationId,
        email_address: email,
        reset_password_redirect_url: `${location.origin}${appConfig.identity.resetPath}`,
        login_redirect_url: `${location.origin}${appConfig.routes.login}`,
      })
    },
    async resetPassword(token, password) {
      const response = await stytch.passwords.resetByEmail({
        password_reset_token: token,
        password,
        session_duration_minutes: minutes.resetMinutes,
      })
      return outcome(response)
    },
  }
}
