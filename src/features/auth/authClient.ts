/**
 * What the sign-in flow needs from an identity provider. The Stytch SDK adapter
 * (stytchAuthClient.ts) implements it in the browser; tests pass fakes.
 */
export type AuthOutcome =
  { kind: 'session' } | { kind: 'mfa'; memberId: string; organizationId: string; smsAlreadySent: boolean }

export interface AuthClient {
  passwordLogin(email: string, password: string): Promise<AuthOutcome>
  sendSms(memberId: string, organizationId: string): Promise<void>
  verifySms(memberId: string, organizationId: string, code: string): Promise<void>
  startPasswordReset(email: string): Promise<void>
  resetPassword(token: string, password: string): Promise<AuthOutcome>
}

/** The SDK's `error_type` of a failed call, if it has one. */
export function errorType(error: unknown): string | null {
  if (typeof error === 'object' && error !== null && 'error_type' in error) {
    const type = (error as { error_type: unknown }).error_type
    return typeof type === 'string' ? type : null
  }
  return null
}
