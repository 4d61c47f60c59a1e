/** JSON Schemas of the SDK request bodies (reference §8); unknown fields are allowed and ignored. */
const str = (maxLength = 512) => ({ type: 'string', minLength: 1, maxLength }) as const
const minutes = { type: 'integer', minimum: 5, maximum: 527040 } as const
/** An address shape without whitespace or control characters (400 naming `email_address`). */
const email = {
  type: 'string',
  minLength: 3,
  maxLength: 254,
  pattern: '^[^\\s@\\u0000-\\u001f\\u007f]+@[^\\s@\\u0000-\\u001f\\u007f]+$',
} as const

export const passwordAuthenticateBody = {
  type: 'object',
  required: ['organization_id', 'email_address', 'password'],
  properties: {
    organization_id: str(128),
    email_address: email,
    password: str(256),
    session_duration_minutes: minutes,
  },
} as const

export const resetStartBody = {
  type: 'object',
  // The SDK sends a PKCE challenge whenever bootstrap requires it, as this provider's does.
  required: ['organization_id', 'email_address', 'code_challenge'],
  properties: {
    organization_id: str(128),
    email_address: email,
    login_redirect_url: str(2048),
    reset_password_redirect_url: str(2048),
    reset_password_expiration_minutes: { type: 'integer', minimum: 5, maximum: 10080 },
    code_challenge: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
  },
} as const

export const resetBody = {
  type: 'object',
  required: ['password_reset_token', 'password'],
  properties: {
    password_reset_token: str(256),
    password: str(256),
    session_duration_minutes: minutes,
    code_verifier: { type: 'string', minLength: 43, maxLength: 128, pattern: '^[A-Za-z0-9._~-]+$' },
  },
} as const

export const smsSendBody = {
  type: 'object',
  required: ['organization_id', 'member_id', 'intermediate_session_token'],
  properties: {
    organization_id: str(128),
    member_id: str(128),
    intermediate_session_token: str(256),
    mfa_phone_number: { type: 'string', minLength: 4, maxLength: 32 },
  },
} as const

export function smsAuthenticateBody(digits: number) {
  return {
    type: 'object',
    required: ['organization_id', 'member_id', 'intermediate_session_token', 'code'],
    properties: {
      organization_id: str(128),
      member_id: str(128),
      intermediate_session_token: str(256),
      code: { type: 'string', pattern: `^[0-9]{${digits}}$` },
      session_duration_minutes: minutes,
    },
  } as const
}

export const sessionsAuthenticateBody = {
  type: 'object',
  properties: { session_duration_minutes: minutes },
} as const

export const strengthCheckBody = {
  type: 'object',
  required: ['password'],
  properties: { password: str(256), email_address: { type: 'string', maxLength: 254 } },
} as const

export interface PasswordAuthenticateRequest {
  organization_id: string
  email_address: string
  password: string
  session_duration_minutes?: number
}
export interface ResetStartRequest {
  organization_id: string
  email_address: string
  reset_password_redirect_url?: string
  reset_password_expiration_minutes?: number
  code_challenge?: string
}
export interface ResetRequest {
  password_reset_token: string
  password: string
  session_duration_minutes?: number
  code_verifier?: string
}
export interface SmsSendRequest {
  organization_id: string
  member_id: string
  intermediate_session_token: string
  mfa_phone_number?: string
}
export interface SmsAuthenticateRequest {
  organization_id: string
  member_id: string
  intermediate_session_token: string
  code: string
  session_duration_minutes?: number
}
