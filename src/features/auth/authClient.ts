import { isNoAnswer, isUnreachable } from '../session'

/**
 * What the sign-in flow needs from an identity provider. The Stytch SDK adapter
 * (stytchAuthClient.ts) implements it in the browser; tests pass fakes.
 */
export type AuthOutcome =
  | { kind: 'session' }
  | {
      kind: 'mfa'
      memberId: string
      organizationId: string
      smsAlreadySent: boolean
      /** False when the member has no SMS phone yet (invited, or removed by an administrator): they enrol one. */
      phoneEnrolled: boolean
    }

export interface AuthClient {
  passwordLogin(email: string, password: string): Promise<AuthOutcome>
  /** Sends a code to the enrolled phone, or to `enrolPhone` when the member enrols one. */
  sendSms(memberId: string, organizationId: string, enrolPhone?: string): Promise<void>
  verifySms(memberId: string, organizationId: string, code: string): Promise<void>
  startPasswordReset(email: string): Promise<void>
  resetPassword(token: string, password: string): Promise<AuthOutcome>
}

/**
 * The words for a failed step (spec §8): 'Unable to contact our servers.' (`unreachable`) when the
 * provider could not be reached or failed (no answer, or a 5xx: the password or code was never
 * checked); otherwise the step's own message (`refused`, e.g. 'Invalid SMS code').
 */
export function stepFailure(error: unknown, refused: string, unreachable: string): string {
  if (isUnreachable(error)) return unreachable
  return throttledMessage(error) ?? refused
}

/**
 * The provider's own words when it refused the step for too many attempts (429, e.g. 'Too many
 * failed attempts. Try again later.'): a locked-out member is told to wait, not that the password
 * they typed is wrong. Undefined for any other refusal.
 */
export function throttledMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined
  const { status_code: status, error_message: message } = error as {
    status_code?: unknown
    error_message?: unknown
  }
  if (status !== 429) return undefined
  return typeof message === 'string' && message !== '' ? message : 'Too many attempts. Try again later.'
}

/**
 * The words for a failed SMS send: `unreachable` only when nothing answered; the provider's
 * own 5xx (its SMS gateway failed: `delivery_failed`) is the spec's 'Failed to send SMS code'.
 */
export function sendFailure(error: unknown, failed: string, unreachable: string): string {
  return isNoAnswer(error) ? unreachable : failed
}

/**
 * The words for a failed call: `unreachable` ('Unable to contact our servers.', spec §8) only when
 * nothing answered; otherwise the provider's own message (a validation or throttling
 * error says what is wrong), else the error's message.
 */
export function failureMessage(error: unknown, unreachable: string): string {
  if (isNoAnswer(error)) return unreachable
  if (typeof error === 'object' && error !== null) {
    const { error_message: apiMessage, message } = error as { error_message?: unknown; message?: unknown }
    if (typeof apiMessage === 'string' && apiMessage !== '') return apiMessage
    if (typeof message === 'string' && message !== '') return message
  }
  return String(error)
}
