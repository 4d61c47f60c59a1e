import { randomUUID } from 'node:crypto'

/** An error answered in Stytch's shape (protocol reference §4). */
export class StytchError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errorType: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
    this.name = 'StytchError'
  }
}

export interface StytchErrorBody {
  status_code: number
  request_id: string
  error_type: string
  error_message: string
  error_url: string
  error_details?: Record<string, unknown>
}

export function newRequestId(): string {
  return `request-id-test-${randomUUID()}`
}

export function stytchErrorBody(err: StytchError, requestId: string): StytchErrorBody {
  return {
    status_code: err.statusCode,
    request_id: requestId,
    error_type: err.errorType,
    error_message: err.message,
    error_url: `https://stytch.com/docs/api/errors/${err.statusCode}#${err.errorType}`,
    ...(err.details ? { error_details: err.details } : {}),
  }
}

/** The errors the provider uses, named after Stytch's error catalogue. */
export const errors = {
  unauthorized: (message = 'Unauthorized credentials.') =>
    new StytchError(401, 'unauthorized_credentials', message),
  noSession: () => new StytchError(401, 'unauthorized_credentials', 'No valid session was supplied.'),
  badRequest: (parameter: string, message: string) =>
    new StytchError(400, 'invalid_request', message, { parameter }),
  organizationNotFound: () => new StytchError(404, 'organization_not_found', 'Organization not found.'),
  publicTokenNotFound: () => new StytchError(404, 'public_token_not_found', 'Public token not found.'),
  locked: (retryAfterSeconds: number) =>
    new StytchError(429, 'too_many_requests', 'Too many failed attempts. Try again later.', {
      retry_after_seconds: retryAfterSeconds,
    }),
  intermediateSession: () =>
    new StytchError(
      401,
      'intermediate_session_not_found',
      'The intermediate session is invalid or has expired.',
    ),
  otpInvalid: () =>
    new StytchError(401, 'unable_to_auth_otp_code', 'The SMS code is invalid, used or expired.'),
  tooManySends: () => new StytchError(429, 'too_many_requests', 'Too many SMS codes were requested.'),
  tooManySendsPerHour: () =>
    new StytchError(
      429,
      'too_many_requests',
      'Too many SMS codes were sent to this member or number; try again later.',
    ),
  phoneMismatch: () =>
    new StytchError(400, 'mfa_phone_number_mismatch', 'The phone number does not match the enrolled number.'),
  noPhone: () =>
    new StytchError(
      403,
      'sms_mfa_not_enrolled',
      'No phone number is enrolled for the SMS step: send mfa_phone_number to enrol one.',
    ),
  resetToken: () =>
    new StytchError(
      401,
      'unable_to_auth_password_reset_token',
      'The password reset token is invalid, used or expired.',
    ),
  pkce: () => new StytchError(400, 'pkce_mismatch', 'The code verifier does not match the code challenge.'),
  weakPassword: (message: string) => new StytchError(400, 'weak_password', message),
  samePassword: () =>
    new StytchError(400, 'weak_password', 'The new password must be different from the current one.'),
  deliveryFailed: (message: string) => new StytchError(502, 'delivery_failed', message),
  notFound: () => new StytchError(404, 'route_not_found', 'Route not found.'),
}
