import { fullFormats } from 'ajv-formats/dist/formats'

/**
 * The member fields people type (e-mail, name, SMS phone), checked the same way wherever a member
 * is made or changed: the administrators' routes, the SDK's member update and phone enrolment,
 * the admin CLI and the first member. Each throws a MemberFieldError naming the field's problem;
 * the routes answer it as 400 naming their own parameter.
 */
export class MemberFieldError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'MemberFieldError'
  }
}

/** C0 and C1 controls, DEL, line and paragraph separators and bidirectional overrides. */
// eslint-disable-next-line no-control-regex -- finding control characters is this pattern's job
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u
/** ajv-formats' `email` format (a regular expression in its full formats). */
const EMAIL = fullFormats.email
const PHONE = /^\+[1-9][0-9]{6,14}$/
/** What people put between digits of a phone number (no tabs, newlines or other controls). */
const PHONE_SEPARATORS = /[ \u00a0().-]/g

const quoted = (raw: string) => JSON.stringify(raw)

/**
 * An e-mail address, trimmed and lower-cased. Refused: control characters anywhere (`"a\u0000@b.c"`
 * would otherwise be stored and mailed) and anything that is not an address by ajv-formats' `email`
 * format (RFC 5321 dot-atom local part, a host name with a dot).
 */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase()
  if (CONTROL.test(raw) || email.length > 254 || !(EMAIL instanceof RegExp && EMAIL.test(email)))
    throw new MemberFieldError(`Not an e-mail address: ${quoted(raw)}.`)
  return email
}

/** A display name, trimmed (empty: none given); refused with control characters or over 200 characters. */
export function normalizeName(raw: string): string {
  if (CONTROL.test(raw)) throw new MemberFieldError('The name must not contain control characters.')
  const name = raw.trim()
  if (name.length > 200) throw new MemberFieldError('The name must have at most 200 characters.')
  return name
}

/** An E.164 phone number without separators; refused with control characters or any other shape. */
export function normalizePhone(raw: string): string {
  const compact = raw.replace(PHONE_SEPARATORS, '')
  if (CONTROL.test(raw) || !PHONE.test(compact))
    throw new MemberFieldError(`phone must be in E.164 form, e.g. +15055550123 (got ${quoted(raw)})`)
  return compact
}
